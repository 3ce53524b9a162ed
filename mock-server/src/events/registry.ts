import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock/clock.js';
import { DEFAULT_CONFIG } from '../config/config.js';
import { badEventQueueId, tooManyQueues } from '../domain/errors.js';
import { EventQueue, type QueueDescriptor } from './queue.js';
import { Silences } from './silences.js';

/** Spec §6.2, §8: a queue unused for ten minutes is garbage-collected. */
export const QUEUE_IDLE_SECONDS = 600;
/** Spec §6.3, §8 (C23): a waiting long-poll gets a heartbeat after one minute. */
export const HEARTBEAT_SECONDS = 60;

/**
 * Every live queue, in memory only: after a restart clients get BAD_EVENT_QUEUE_ID and re-register,
 * as §6 requires them to. Expiry runs on realm time through the injected clock, so advancing a realm's
 * clock through the control API expires its queues without waiting in real time.
 */
export class QueueRegistry {
  #queues = new Map<string, EventQueue>();
  /** The same queues by realm, then user: the dispatcher's audience and the per-user cap without a scan. */
  #byRealm = new Map<string, Map<number, Set<EventQueue>>>();
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

  /** A fetch or the end of a long-poll counts as activity. */
  touch(queue: EventQueue): void {
    queue.lastActivity = this.clock.now(queue.realmId);
    this.#scheduleExpiry(queue);
  }

  /** `answerWaiting`: a waiting long-poll gets what the queue holds instead of BAD_EVENT_QUEUE_ID (a restart). */
  delete(queue: EventQueue, answerWaiting = false): void {
    queue.cancelExpiry?.();
    queue.cancelExpiry = null;
    if (!this.#queues.delete(queue.id)) return;
    const users = this.#byRealm.get(queue.realmId);
    const own = users?.get(queue.userId);
    own?.delete(queue);
    if (own?.size === 0) users!.delete(queue.userId);
    if (users?.size === 0) this.#byRealm.delete(queue.realmId);
    queue.answeredAtEnd = answerWaiting;
    queue.waiter?.('end');
  }

  /** Queues of these users in this realm (the dispatcher's audience). */
  *queuesOf(realmId: string, userIds: ReadonlySet<number> | null): Iterable<EventQueue> {
    const users = this.#byRealm.get(realmId);
    if (!users) return;
    for (const [userId, own] of users) if (userIds === null || userIds.has(userId)) yield* own;
  }

  /** Live queues of one user. */
  countOf(realmId: string, userId: number): number {
    return this.#byRealm.get(realmId)?.get(userId)?.size ?? 0;
  }

  /** A deleted or replaced realm's queues end (its clients re-register); returns how many. */
  dropRealm(realmId: string, answerWaiting = false): number {
    // Collected first: deleting changes the index being walked.
    const queues = [...this.queuesOf(realmId, null)];
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
  wait(queue: EventQueue, signal: AbortSignal): Promise<void> {
    // One poll per queue: a new one answers the previous (which returns what the queue holds), so no
    // poll is left without a waker or a heartbeat.
    queue.waiter?.('end');
    return new Promise((resolve) => {
      // A silent network sends no heartbeat either: the beat is skipped and tried again a minute later.
      const beat = () => {
        if (this.silenced(queue)) cancelHeartbeat = this.clock.setTimeout(queue.realmId, HEARTBEAT_SECONDS, beat);
        else queue.push({ type: 'heartbeat' });
      };
      let cancelHeartbeat = this.clock.setTimeout(queue.realmId, HEARTBEAT_SECONDS, beat);
      const finish = () => {
        cancelHeartbeat();
        signal.removeEventListener('abort', onAbort);
        if (queue.waiter === waiter) queue.waiter = null;
        resolve();
      };
      const waiter = (why: 'event' | 'end') => {
        if (why === 'event' && this.silenced(queue)) return;
        finish();
      };
      const onAbort = () => finish();
      queue.waiter = waiter;
      // A waiting client is active: the idle timer restarts when the poll ends.
      queue.cancelExpiry?.();
      queue.cancelExpiry = null;
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Stops every timer and wakes every waiter (server shutdown). */
  closeAll(): void {
    this.silences.clearAll();
    for (const queue of [...this.#queues.values()]) this.delete(queue);
  }

  /** A silence ended: the waiting polls it covered that have events are answered (others wait for more, or a heartbeat). */
  #afterSilence(realmId: string, userId: number | null): void {
    const queues = userId === null ? this.queuesOf(realmId, null) : (this.#byRealm.get(realmId)?.get(userId) ?? []);
    for (const queue of [...queues]) if (queue.events.length > 0) queue.waiter?.('event');
  }

  #expired(queue: EventQueue): boolean {
    return queue.waiter === null && this.clock.now(queue.realmId) - queue.lastActivity >= QUEUE_IDLE_SECONDS;
  }

  #scheduleExpiry(queue: EventQueue): void {
    queue.cancelExpiry?.();
    queue.cancelExpiry = this.clock.setTimer(queue.realmId, queue.lastActivity + QUEUE_IDLE_SECONDS, () => {
      queue.cancelExpiry = null;
      if (this.#expired(queue)) this.delete(queue);
    });
  }
}
