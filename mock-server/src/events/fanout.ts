import { CAPABILITIES } from '../contract/client-view.js';
import type { EmittedEvent, WireEvent } from '../contract/event-types.js';
import { emailVisibleTo } from '../domain/access.js';
import type { PendingEvent } from '../store/store.js';
import type { UserRow } from '../store/state.js';
import type { QueueDescriptor } from './queue.js';
import { shapeFor } from './shape.js';

/** What one class of recipients gets: the shaped events and, beside each, its JSON head (queue.ts `append`). */
export interface Shaped {
  events: WireEvent[];
  heads: (string | undefined)[];
}

/**
 * One emitted event's delivery to many queues: what shaping makes of it depends only on the queue's register
 * options (capabilities, apply_markdown, client_gravatar) and, for the avatar and email a reader may see, on
 * one yes/no per event (`emailVisibleTo`, domain/access.ts). Queues alike in those get the same shaped
 * events and the same JSON text, made once; what stays per recipient is the event `id` (queue.ts).
 * Every other input of events/shape.ts `shapeFor` must enter the class key, or recipients would share
 * what they should not (fanout.test.ts compares with a per-recipient build).
 */
export class Fanout {
  /** By the queue's options key: the emitter's per-client variants (PendingEvent.shape) and what they shape to, by reader key. */
  readonly #classes = new Map<string, { own: EmittedEvent[]; shaped: Map<string, Shaped> }>();

  constructor(
    private readonly event: EmittedEvent,
    private readonly shape: PendingEvent['shape'],
  ) {}

  /** The events (and their JSON heads) for one queue whose user is `viewer`. */
  for(descriptor: QueueDescriptor, viewer: UserRow | null): Shaped {
    const options = optionsKey(descriptor);
    let of = this.#classes.get(options);
    if (!of) {
      const variant = this.shape ? this.shape(descriptor.client) : this.event;
      of = { own: variant === null ? [] : Array.isArray(variant) ? variant : [variant], shaped: new Map() };
      this.#classes.set(options, of);
    }
    const { own } = of;
    // One event (nearly always): its reader bit is the key, a constant string, so no text is built per recipient.
    let reader = own.length === 1 ? readerBit(own[0]!, viewer) : '';
    if (own.length > 1) for (const one of own) reader += readerBit(one, viewer);
    let shaped = of.shaped.get(reader);
    if (!shaped) {
      const events = own.flatMap((one) => shapeFor(one, descriptor, viewer));
      shaped = { events, heads: events.map(jsonHead) };
      of.shaped.set(reader, shaped);
    }
    return shaped;
  }
}

const optionsKeys = new WeakMap<QueueDescriptor, string>();

/** The register options shaping reads, as a key: one character per capability, apply_markdown, client_gravatar. */
export function optionsKey(descriptor: QueueDescriptor): string {
  let key = optionsKeys.get(descriptor);
  if (key === undefined) {
    key = CAPABILITIES.map((c) => (descriptor.client[c] ? '1' : '0')).join('');
    key += `${descriptor.applyMarkdown ? 1 : 0}${descriptor.clientGravatar ? 1 : 0}`;
    optionsKeys.set(descriptor, key);
  }
  return key;
}

/**
 * What shaping reads of the reader (events/shape.ts → domain/present): whether they may see the real email
 * of the message's sender or of the person an account event is about; '-' for the events it does not read.
 */
function readerBit(event: EmittedEvent, viewer: UserRow | null): string {
  if (event.type === 'message') {
    // An injected event may lack any field: read as domain/present/messages.ts viewMessage reads them.
    const message: Partial<typeof event.message> | undefined = event.message;
    if (message === undefined) return '-';
    return emailVisibleTo(viewer, message.sender_id as number, message._email_visibility as number) ? 'v' : 'h';
  }
  if (event.type === 'realm_user') {
    const person: Record<string, unknown> | undefined = event.person;
    if (person === undefined || !('_owner_id' in person)) return '-';
    return emailVisibleTo(viewer, person._owner_id as number, person._email_visibility as number) ? 'v' : 'h';
  }
  return '-';
}

/**
 * The event's JSON without the closing brace, ready for `"id":N}` (queue.ts): the text `{ ...event, id }`
 * stringifies to, as the id goes last. None where the event has an `id` of its own (the spread would keep
 * its place), its text is not an object's, or it has none.
 */
function jsonHead(event: WireEvent): string | undefined {
  if (Object.hasOwn(event, 'id')) return undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(event);
  } catch {
    // Nested past the stack (only an event put straight into the store can be): queued as it was before
    // shared texts, and it fails where it failed then, in its own answer, not in the dispatch of everyone's.
    return undefined;
  }
  if (text === undefined || !text.endsWith('}')) return undefined;
  return text === '{}' ? '{' : `${text.slice(0, -1)},`;
}
