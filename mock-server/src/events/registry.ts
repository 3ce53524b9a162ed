import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock/clock.js';
import { DEFAULT_CONFIG } from '../config/config.js';
import type { Hangup } from '../contract/hangup.js';
import { badEventQueueId, tooManyQueues } from '../domain/errors.js';
import { DeadlineSweep } from './deadlines.js';
import { EventQueue, type QueueDescriptor } from './queue.js';
import { Silences } from './silences.js';

/** Spec §6.2, §8: a queue unused for ten minutes is garbage-collected. */
export const QUEUE_IDLE_SECONDS = 600;
/** Spec §6.3, §8 (C23): a waiting long-poll gets a heartbeat after one minute. */
export const HEARTBEAT_SECONDS = 60;
/**
 * Waiting polls woken in one turn of the event loop: each wake runs the rest of its request (the answer's
 * text, the socket write) before the loop can take anything else, so a fan-out to thousands goes out in
 * turns of this many, with I/O between them.
 */
export const WAKE_BATCH = 256;

/** The kinds of a queue's deadlines (events/deadlines.ts). */
const IDLE = 0;
const HEARTBEAT = 1;
const HEARTBEAT_EVENT = { type: 'heartbeat' } as const;

/**
 * Every live queue, in memory only: after a restart clients get BAD_EVENT_QUEUE_ID and re-register,
 * as §6 requires them to. Expiry runs on realm time through the injected clock, so advancing a realm's
 * clock through the control API expires its queues without waiting in real time.
 */
export class QueueRegistry {
  #queues = new Map<string, EventQueue>();
  /** The same queues by realm, then user: the dispatcher's audience and the per-user cap without a scan. */
  #byRealm = new Map<string, Map<number, Set<EventQueue>>>();
  /** The realm's all_public_streams queues: recipients of public channels' messages beside the audience. */
  #publicWatchers = new Map<string, Set<EventQueue>>();
  /** Batches of waiting polls still to wake (`wake`), and the turn that wakes the next one. */
  #toWake: EventQueue[][] = [];
  #waking: NodeJS.Immediate | null = null;
  /** Idle expiries and heartbeats: one timer per realm instead of one per queue and poll. */
  readonly #deadlines: DeadlineSweep<EventQueue>;
  /** Silent networks (control API): long-polls they cover wait without answers or heartbeats. */
  readonly silences: Silences;

  constructor(
    private readonly clock: Clock,
    /**
     * Live queues one user may hold (the spec is silent). A client that registers in a loop
     * and never deletes its queues would otherwise grow the server for ten minutes per queue; at the
     * cap, register answers a clear error instead (`tooManyQueues`).
     */
    readonly maxPerUser = DEFAULT_CONFIG.maxQueuesPerUser,
  ) {
    this.silences = new Silences(clock, (realmId, userId) => this.#afterSilence(realmId, userId));
    this.#deadlines = new DeadlineSweep(clock, (queue, kind) => (kind === IDLE ? this.#onIdle(queue) : this.#onHeartbeat(queue)), 2);
  }

  get size(): number {
    return this.#queues.size;
  }

  create(realmId: string, userId: number, descriptor: QueueDescriptor, snapshotSeq: number): EventQueue {
    const users = this.#byRealm.get(realmId) ?? new Map<number, Set<EventQueue>>();
    const own = users.get(userId) ?? new Set<EventQueue>();
    if (own.size >= this.maxPerUser) throw tooManyQueues(this.maxPerUser, QUEUE_IDLE_SECONDS);
    const queue = new EventQueue(`${realmId}:${randomUUID()}`, realmId, userId, descriptor, this.clock.now(realmId), snapshotSeq);
    this.#queues.set(queue.id, queue);
    own.add(queue);
    users.set(userId, own);
    this.#byRealm.set(realmId, users);
    if (descriptor.allPublicStreams) {
      const watchers = this.#publicWatchers.get(realmId) ?? new Set<EventQueue>();
      watchers.add(queue);
      this.#publicWatchers.set(realmId, watchers);
    }
    this.#scheduleExpiry(queue);
    return queue;
  }

  /** The caller's own live queue, else BAD_EVENT_QUEUE_ID: unknown, expired and foreign look the same. */
  get(queueId: string, realmId: string, userId: number): EventQueue {
    const queue = this.#queues.get(queueId);
    if (!queue || queue.realmId !== realmId || queue.userId !== userId) throw badEventQueueId(queueId);
    // Checked here as well as by the timer, so a race with the timer can never show an expired queue.
    if (this.#expired(queue)) {
      this.delete(queue);
      throw badEventQueueId(queueId);
    }
    return queue;
  }

  /**
   * A poll's wait ended: the queue as `get` would give it (BAD_EVENT_QUEUE_ID if it ended or expired meanwhile),
   * touched, with one look at the clock instead of two.
   */
  resume(queue: EventQueue): void {
    const now = this.clock.now(queue.realmId);
    if (this.#queues.get(queue.id) !== queue) throw badEventQueueId(queue.id);
    if (this.#expired(queue, now)) {
      this.delete(queue);
      throw badEventQueueId(queue.id);
    }
    queue.lastActivity = now;
    this.#scheduleExpiry(queue);
  }

  /** A fetch or the end of a long-poll counts as activity. */
  touch(queue: EventQueue): void {
    queue.lastActivity = this.clock.now(queue.realmId);
    this.#scheduleExpiry(queue);
  }

  /** `answerWaiting`: a waiting long-poll gets what the queue holds instead of BAD_EVENT_QUEUE_ID (a restart). */
  delete(queue: EventQueue, answerWaiting = false): void {
    this.#deadlines.remove(queue.realmId, IDLE, queue.expiry);
    this.#deadlines.remove(queue.realmId, HEARTBEAT, queue.heartbeat);
    if (!this.#queues.delete(queue.id)) return;
    const users = this.#byRealm.get(queue.realmId);
    const own = users?.get(queue.userId);
    own?.delete(queue);
    if (own?.size === 0) users!.delete(queue.userId);
    if (users?.size === 0) this.#byRealm.delete(queue.realmId);
    const watchers = this.#publicWatchers.get(queue.realmId);
    if (watchers?.delete(queue) && watchers.size === 0) this.#publicWatchers.delete(queue.realmId);
    queue.answeredAtEnd = answerWaiting;
    queue.waiter?.('end');
  }

  /** Every queue of this realm (a realm's end, the control API's listing); some users' queues: queuesOfUsers. */
  *queuesOf(realmId: string): Iterable<EventQueue> {
    for (const own of this.#byRealm.get(realmId)?.values() ?? []) yield* own;
  }

  /** Whether any queue of the realm is registered (most writes of a realm no client listens to stop here). */
  hasQueues(realmId: string): boolean {
    return this.#byRealm.has(realmId);
  }

  /** Queues of these users in this realm, found through the index: as many steps as users and queues. */
  *queuesOfUsers(realmId: string, userIds: Iterable<number>): Iterable<EventQueue> {
    const users = this.#byRealm.get(realmId);
    if (!users) return;
    for (const userId of userIds) {
      const own = users.get(userId);
      if (own) yield* own;
    }
  }

  /** The realm's queues registered with all_public_streams. */
  publicWatchersOf(realmId: string): Iterable<EventQueue> {
    return this.#publicWatchers.get(realmId) ?? [];
  }

  /**
   * Wakes the waiting polls of queues that got events: the first WAKE_BATCH now, the rest WAKE_BATCH per
   * turn of the event loop. A poll is woken only if its queue still holds events when its turn comes: one
   * that meanwhile answered, and a newer poll that acknowledged them, go on as they are.
   */
  wake(queues: Iterable<EventQueue>): void {
    let batch: EventQueue[] = [];
    for (const queue of queues) {
      batch.push(queue);
      if (batch.length === WAKE_BATCH) {
        this.#toWake.push(batch);
        batch = [];
      }
    }
    if (batch.length > 0) this.#toWake.push(batch);
    // Batches of an earlier fan-out go first, so a queue's wake never overtakes an older one.
    if (this.#waking === null) this.#wakeNext();
  }

  #wakeNext(): void {
    this.#waking = null;
    const batch = this.#toWake.shift();
    if (!batch) return;
    if (this.#toWake.length > 0) this.#waking = setImmediate(() => this.#wakeNext());
    for (const queue of batch) if (queue.events.length > 0) queue.waiter?.('event');
  }

  /** Live queues of one user. */
  countOf(realmId: string, userId: number): number {
    return this.#byRealm.get(realmId)?.get(userId)?.size ?? 0;
  }

  /** A deleted or replaced realm's queues end (its clients re-register); returns how many. */
  dropRealm(realmId: string, answerWaiting = false): number {
    // Collected first: deleting changes the index being walked.
    const queues = [...this.queuesOf(realmId)];
    for (const queue of queues) this.delete(queue, answerWaiting);
    return queues.length;
  }

  /** A deactivated user's queues end; returns how many. */
  dropUser(realmId: string, userId: number, answerWaiting = false): number {
    const queues = [...(this.#byRealm.get(realmId)?.get(userId) ?? [])];
    for (const queue of queues) this.delete(queue, answerWaiting);
    return queues.length;
  }

  /** A silence covers the queue: its long-polls wait even with events queued. */
  silenced(queue: EventQueue): boolean {
    return this.silences.covers(queue.realmId, queue.userId);
  }

  /**
   * Waits for an event or the heartbeat, whichever comes first; resolves early if `signal` aborts
   * (the client went away). The heartbeat is an ordinary queued event, so it has an ID.
   */
  wait(queue: EventQueue, signal: Hangup): Promise<void> {
    // One poll per queue: a new one answers the previous (which returns what the queue holds), so no
    // poll is left without a waker or a heartbeat.
    queue.waiter?.('end');
    return new Promise((resolve) => {
      // In a silence no heartbeat goes out; one that fell due meanwhile goes out when it ends ('resume').
      queue.missedHeartbeat = false;
      const waiter = (why?: 'event' | 'resume' | 'end' | Event) => {
        // No reason, or an Event: the signal aborted (the client went away); it ends the poll as 'end' does.
        if (why !== 'end' && typeof why === 'string' && this.silenced(queue)) return;
        if (why === 'resume' && queue.events.length === 0) {
          if (queue.missedHeartbeat) queue.push(HEARTBEAT_EVENT);
          return;
        }
        signal.removeEventListener('abort', waiter);
        if (queue.waiter === waiter) {
          queue.waiter = null;
          this.#deadlines.remove(queue.realmId, HEARTBEAT, queue.heartbeat);
        }
        resolve();
      };
      queue.waiter = waiter;
      this.#deadlines.set(queue.realmId, HEARTBEAT, queue.heartbeat, this.clock.realmNowMs(queue.realmId) + HEARTBEAT_SECONDS * 1000);
      // A waiting client is active: the idle deadline is set again when the poll ends.
      this.#deadlines.remove(queue.realmId, IDLE, queue.expiry);
      // Gone before the wait began: nobody reads the answer, and nothing else would end the poll.
      if (signal.aborted) waiter();
      else signal.addEventListener('abort', waiter, { once: true });
    });
  }

  /** Stops every timer and wakes every waiter (server shutdown). */
  closeAll(): void {
    this.silences.clearAll();
    this.#deadlines.clear();
    if (this.#waking) clearImmediate(this.#waking);
    this.#waking = null;
    this.#toWake = [];
    for (const queue of [...this.#queues.values()]) this.delete(queue);
  }

  /**
   * A silence ended: the waiting polls it covered get their queued events, or the heartbeat that fell due
   * during it; the others go on waiting for an event or their heartbeat.
   */
  #afterSilence(realmId: string, userId: number | null): void {
    const queues = userId === null ? this.queuesOf(realmId) : (this.#byRealm.get(realmId)?.get(userId) ?? []);
    for (const queue of [...queues]) queue.waiter?.('resume');
  }

  #expired(queue: EventQueue, now = this.clock.now(queue.realmId)): boolean {
    return queue.waiter === null && now - queue.lastActivity >= QUEUE_IDLE_SECONDS;
  }

  #scheduleExpiry(queue: EventQueue): void {
    this.#deadlines.set(queue.realmId, IDLE, queue.expiry, (queue.lastActivity + QUEUE_IDLE_SECONDS) * 1000);
  }

  #onIdle(queue: EventQueue): void {
    if (this.#expired(queue)) this.delete(queue);
  }

  /** The waiting poll's minute is up: a heartbeat answers it, or in a silence goes out when the silence ends. */
  #onHeartbeat(queue: EventQueue): void {
    if (this.silenced(queue)) queue.missedHeartbeat = true;
    else queue.push(HEARTBEAT_EVENT);
  }
}
