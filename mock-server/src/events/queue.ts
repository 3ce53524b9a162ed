import { badRequest } from '../domain/errors.js';
import type { ClientView } from '../contract/client-view.js';
import type { WireEvent } from '../contract/event-types.js';
import { withJsonTexts } from '../contract/json-text.js';
import { Deadline } from './deadlines.js';

/** What a queue was registered with (spec §4.21, §6.6): what it receives and how it is shaped. */
export interface QueueDescriptor {
  /** null: every type. */
  eventTypes: ReadonlySet<string> | null;
  narrow: readonly (readonly [string, string])[];
  allPublicStreams: boolean;
  client: ClientView;
  applyMarkdown: boolean;
  clientGravatar: boolean;
}

export type QueuedEvent = WireEvent & { id: number };

/**
 * One client's event queue (spec §6): events get increasing integer IDs from 0; the client
 * acknowledges with last_event_id, and acknowledged events are discarded.
 */
export class EventQueue {
  readonly events: QueuedEvent[] = [];
  /**
   * Beside each event, the JSON text of the event without its `id` and closing brace (`{"type":…,`), shared by
   * every recipient it was made for (events/fanout.ts); undefined where none was made (a heartbeat).
   */
  readonly #heads: (string | undefined)[] = [];
  /** Highest ID already discarded (-1: none). */
  prunedThrough = -1;
  nextId = 0;
  /** Realm time of the last fetch or poll end: the 10-minute idle rule (§6.2) counts from here. */
  lastActivity: number;
  /**
   * The long-poll waiting on this queue, if any: told of each new event (`event`; in a silence it keeps
   * waiting), of a silence's end (`resume`) and of the queue's end or a newer poll (`end`: it answers).
   */
  waiter: ((why: 'event' | 'resume' | 'end') => void) | null = null;
  /**
   * Ended by a restart of the queues: a long-poll waiting then is answered with what the queue holds, as the
   * reference server finishes a queue's handler before it drops the queue; the next poll is BAD_EVENT_QUEUE_ID.
   */
  answeredAtEnd = false;
  /** Its places in the realm's deadline lists (events/deadlines.ts): the idle expiry, the waiting poll's heartbeat. */
  readonly expiry = new Deadline<EventQueue>(this);
  readonly heartbeat = new Deadline<EventQueue>(this);
  /** The waiting poll's heartbeat fell due in a silence: it goes out when the silence ends. */
  missedHeartbeat = false;

  constructor(
    readonly id: string,
    readonly realmId: string,
    readonly userId: number,
    readonly descriptor: QueueDescriptor,
    now: number,
    /** The newest transaction the register snapshot already shows: its events and older ones are not queued. */
    readonly snapshotSeq: number,
  ) {
    this.lastActivity = now;
  }

  push(event: WireEvent): void {
    this.append(event);
    this.waiter?.('event');
  }

  /**
   * Queues an event without waking the waiting poll (the dispatcher wakes its recipients in batches).
   * `head`: `JSON.stringify(event)` without its closing brace, and with a comma unless the event is `{}`.
   */
  append(event: WireEvent, head?: string): void {
    this.events.push({ ...event, id: this.nextId++ });
    this.#heads.push(head);
  }

  /**
   * The events to answer, a copy, with the JSON text of each that has one kept beside the list
   * (contract/json-text.ts): the head and the `id`, as `JSON.stringify` writes `{ ...event, id }`.
   */
  pending(): QueuedEvent[] {
    const events = [...this.events];
    let texts: (string | undefined)[] | null = null;
    for (let i = 0; i < events.length; i++) {
      const head = this.#heads[i];
      if (head !== undefined) (texts ??= new Array<string | undefined>(events.length))[i] = `${head}"id":${events[i]!.id}}`;
    }
    return texts ? withJsonTexts(events, texts) : events;
  }

  /**
   * Discards what the client acknowledged. The reference server's answers for an ID that is behind
   * what it already discarded, and for one it never issued (reference §6).
   */
  acknowledge(lastEventId: number): void {
    if (lastEventId < this.prunedThrough) throw badRequest(`An event newer than ${lastEventId} has already been pruned!`);
    if (lastEventId >= this.nextId) throw badRequest(`Event ${lastEventId} was not in this queue`);
    while (this.events.length > 0 && this.events[0]!.id <= lastEventId) {
      this.events.shift();
      this.#heads.shift();
    }
    this.prunedThrough = Math.max(this.prunedThrough, lastEventId);
  }
}
