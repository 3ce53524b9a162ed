/**
 * The client went away before its answer: what a long-poll waits on beside its events. The part of an
 * AbortSignal the event queues use (an AbortSignal is one), so the HTTP layer can hand a waiting poll something
 * lighter than an AbortController and its EventTarget: one small object per poll, held as long as it waits.
 */
export interface Hangup {
  readonly aborted: boolean;
  /** The listener runs once, when the client goes away (with no argument, or an AbortSignal's Event). */
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
