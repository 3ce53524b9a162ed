import { badRequest } from '../domain/errors.js';
import type { ClientView } from '../contract/client-view.js';
import type { WireEvent } from '../contract/event-types.js';

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
  /** Highest ID already discarded (-1: none). */
  prunedThrough = -1;
  nextId = 0;
  /** Realm time of the last fetch or poll end: the 10-minute idle rule (§6.2) counts from here. */
  lastActivity: number;
  /**
   * The long-poll waiting on this queue, if any: told of each new event (`event`; it may keep waiting, in a
   * silence) and of the queue's end or a newer poll (`end`: it answers).
   */
  waiter: ((why: 'event' | 'end') => void) | null = null;
  /**
   * Ended by a restart of the queues: a long-poll waiting then is answered with what the queue holds, as the
   * reference server finishes a queue's handler before it drops the queue; the next poll is BAD_EVENT_QUEUE_ID.
   */
  answeredAtEnd = false;
  cancelExpiry: (() => void) | null = null;

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
    this.events.push({ ...event, id: this.nextId++ });
    this.waiter?.('event');
  }

  /**
   * Discards what the client acknowledged. The reference server's answers for an ID that is behind
   * what it already discarded, and for one it never issued (reference §6).
   */
  acknowledge(lastEventId: number): void {
    if (lastEventId < this.prunedThrough) throw badRequest(`An event newer than ${lastEventId} has already been pruned!`);
    if (lastEventId >= this.nextId) throw badRequest(`Event ${lastEventId} was not in this queue`);
    while (this.events.length > 0 && this.events[0]!.id <= lastEventId) this.events.shift();
    this.prunedThrough = Math.max(this.prunedThrough, lastEventId);
  }
}
