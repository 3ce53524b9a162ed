import type { EmittedEvent } from '../../src/contract/event-types.js';

/**
 * A payload a mechanics test makes up (a partial message, a type of its own): such tests check shaping,
 * filtering and delivery, not payloads, so the payload enters unchecked, as the control API's injected
 * events do. Tests of payloads build real events (test/types/ shows that a wrong field does not compile).
 */
export function madeUpEvent(payload: Record<string, unknown> & { type: string }): EmittedEvent {
  return payload as EmittedEvent;
}
