import type { components, EventSchemaName } from './operations.generated.js';

/**
 * Event payloads typed from the document's event schemas (GET /events' `AnyEvent`, listed by name in
 * operations.generated.ts as `EventSchemaName`), in the two forms the server handles:
 * - `WireEventOf<'subscription', 'add'>`: what a client receives (the per-queue shaper's output);
 * - `EventOf<'subscription', 'add'>`: what an action emits (`tx.emit`), the same payload plus the `_` keys
 *   shaping reads, and for messages and new users the form built once for every reader.
 */
type Schemas = components['schemas'];

/**
 * Keys starting with `_` carry what per-queue shaping needs (whose email a field is, whether a channel was
 * public when the message was sent, …); events/shape.ts reads and removes them, so no client sees one.
 */
export type ShapingKeys = { [key: `_${string}`]: unknown };

/**
 * A described event without its open ends. The document's `Event` admits more properties (a server may
 * add fields), which openapi-typescript writes as an index signature under which a misspelt field would
 * pass; this server's own events carry only what the document names. Left out too: `id`, which the queue
 * assigns, and the generic `op` of types whose schema names none.
 */
type Closed<T> = T extends unknown
  ? {
      [
        K in keyof T as string extends K
          ? never
          : number extends K
            ? never
            : K extends 'id'
              ? never
              : K extends 'op'
                ? string extends T[K]
                  ? never
                  : K
                : K
      ]: T[K];
    }
  : never;

/** A described event as a client receives it, without the queue's `id`. */
export type WireEvent = Closed<Schemas[EventSchemaName]>;
export type EventType = WireEvent['type'];
type OfType<T extends EventType> = Extract<WireEvent, { type: T }>;
/** The ops the document describes for an event type (never for types without one, `message` …). */
export type OpOf<T extends EventType> = OfType<T> extends infer E ? (E extends { op: infer O } ? O : never) : never;

/** The described events of one type, and of one op when given: `WireEventOf<'stream', 'update'>`. */
export type WireEventOf<T extends EventType, O extends OpOf<T> = OpOf<T>> =
  OfType<T> extends infer E ? (E extends { op: infer P } ? ([Extract<P, O>] extends [never] ? never : E) : E) : never;

/**
 * A message as presentMessage builds it once for every reader: the Markdown source and the HTML side by
 * side (each queue's apply_markdown picks one, and sets content_type), flags beside it in the event, and
 * what decides avatar_url per reader (whether the sender uses Gravatar, who may see their email).
 */
export type StoredMessage = Omit<Schemas['MessageFields'], 'content_type' | 'flags'> & {
  rendered_content: string;
  _gravatar: boolean;
  _email_visibility: number;
} & ShapingKeys;
/** A user as personFields builds it before it knows its reader (delivery_email and avatar_url are decided per reader). */
export type StoredPerson = Schemas['User'] & ShapingKeys;

type Emitted<E> = E extends { type: 'message' }
  ? Omit<E, 'message'> & { message: StoredMessage } & ShapingKeys
  : E extends { type: 'realm_user'; op: 'add' }
    ? Omit<E, 'person'> & { person: StoredPerson } & ShapingKeys
    : E & ShapingKeys;

/** What `tx.emit` takes: any described event, before per-queue shaping. */
export type EmittedEvent = Emitted<WireEvent>;
/** One described event as an action emits it: `EventOf<'message'>`, `EventOf<'subscription', 'add'>`. */
export type EventOf<T extends EventType, O extends OpOf<T> = OpOf<T>> = Emitted<WireEventOf<T, O>>;

/** An event less its `type`, for helpers that add the type of their area: `WithoutType<EventOf<'drafts'>>`. */
export type WithoutType<E> = E extends unknown ? Omit<E, 'type'> : never;
