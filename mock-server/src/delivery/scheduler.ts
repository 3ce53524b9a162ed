import type { Clock } from '../clock/clock.js';
import { deliverReminder } from '../domain/reminders/deliver.js';
import { deliverScheduledMessage } from '../domain/scheduled/deliver.js';
import type { RealmState } from '../store/state.js';
import type { Store } from '../store/store.js';

/**
 * The delivery worker of scheduled messages and reminders (spec §3 "not shown"; reference §4.1
 * "Delivery", §4.19), driven by the injected clock.
 *
 * Per realm it keeps one clock timer, set in realm time for the earliest pending item. The timer is
 * re-armed whenever those tables or the realm row (its clock offset) change, and when a realm is
 * created, replaced or removed: the store reports every change (`Store.watch`), undone ones included,
 * and re-arming waits for the end of the current tick so it sees the state the transaction left.
 *
 * When the timer fires, every due item is delivered in order (delivery time, then ID: the two kinds
 * share one ID sequence), each in its own transaction. A transaction function runs synchronously inside
 * `store.transact`, so by the time `fire` returns every due item is sent or failed in the live state;
 * `settled()` then waits until those changes are durable and their events dispatched. The control API
 * awaits it, so advancing the clock answers only once every due item has been delivered.
 *
 * At start-up the realms read from the state file are caught up first: items more than ten minutes
 * overdue (the server was not running) fail instead of being sent (reference §4.1).
 */

/** Reference §4.1: "more than 10 minutes late it fails". */
export const LATE_AFTER_SECONDS = 600;

type Kind = 'scheduled' | 'reminder';
interface Item {
  kind: Kind;
  id: number;
  at: number;
}

/** A realm's pending items (not yet delivered, not failed, not stuck) in delivery order: time, then ID. */
function pendingItems(tables: RealmState, skip: ReadonlySet<string>, realmId: string): Item[] {
  const items: Item[] = [];
  for (const s of Object.values(tables.scheduled_messages)) {
    if (!s.failed && s.delivered_message_id === null)
      items.push({ kind: 'scheduled', id: s.scheduled_message_id, at: s.scheduled_delivery_timestamp });
  }
  for (const r of Object.values(tables.reminders)) {
    if (!r.failed && r.delivered_message_id === null)
      items.push({ kind: 'reminder', id: r.reminder_id, at: r.scheduled_delivery_timestamp });
  }
  return items.filter((item) => !skip.has(`${realmId}:${item.kind}:${item.id}`)).sort((a, b) => a.at - b.at || a.id - b.id);
}

function stillPending(tables: RealmState | undefined, item: Item): boolean {
  const row = item.kind === 'scheduled' ? tables?.scheduled_messages[String(item.id)] : tables?.reminders[String(item.id)];
  return row !== undefined && !row.failed && row.delivered_message_id === null;
}

export class Scheduler {
  #timers = new Map<string, { at: number; cancel: () => void }>();
  #dirty = new Set<string>();
  #flushQueued = false;
  #inFlight = new Set<Promise<unknown>>();
  /** Items whose delivery threw (a bug): logged once and left alone, so a timer never spins on them. */
  #stuck = new Set<string>();
  #stopped = false;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /**
   * Catches up the realms already in the store (read from the state file), arms their timers, then
   * follows every change. Call once, before any realm is created.
   */
  start(): void {
    for (const realmId of this.store.realmIds()) this.#deliverDue(realmId, true);
    this.store.watch((change) => {
      // A realm created, replaced or removed has rows of its own: forget what was stuck in its predecessor.
      if (change.table === null) for (const key of [...this.#stuck]) if (key.startsWith(`${change.realm}:`)) this.#stuck.delete(key);
      // A stuck item whose row changed (edited, given a new time) gets another chance.
      if (change.table === 'scheduled_messages') this.#stuck.delete(`${change.realm}:scheduled:${change.key}`);
      if (change.table === 'reminders') this.#stuck.delete(`${change.realm}:reminder:${change.key}`);
      if (change.table === null || change.table === 'realm' || change.table === 'scheduled_messages' || change.table === 'reminders')
        this.#markDirty(change.realm);
    });
  }

  /** Resolves once every delivery started so far is durable and its events are dispatched. */
  async settled(): Promise<void> {
    this.#flush();
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  stop(): void {
    this.#stopped = true;
    for (const timer of this.#timers.values()) timer.cancel();
    this.#timers.clear();
  }

  #markDirty(realmId: string): void {
    this.#dirty.add(realmId);
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    queueMicrotask(() => this.#flush());
  }

  #flush(): void {
    this.#flushQueued = false;
    const realms = [...this.#dirty];
    this.#dirty.clear();
    // An item already due (a restored snapshot, an imported realm, a moved clock) goes out now: a frozen
    // clock would otherwise hold it until the next advance.
    for (const realmId of realms) this.#deliverDue(realmId, false);
  }

  /** Delivers every due item of a realm, oldest first, then arms the timer for the next one. */
  #deliverDue(realmId: string, startup: boolean): void {
    if (this.#stopped) return;
    // Everything due is collected once, in order; the loop repeats only if time moved on meanwhile.
    for (;;) {
      const tables = this.store.realm(realmId);
      if (!tables) break;
      const now = this.clock.now(realmId);
      const due = pendingItems(tables, this.#stuck, realmId).filter((item) => item.at <= now);
      if (due.length === 0) break;
      for (const item of due) {
        if (!stillPending(this.store.realm(realmId), item)) continue;
        const options = { now, late: startup && now - item.at > LATE_AFTER_SECONDS };
        const done = this.store.transact(realmId, (tx) =>
          item.kind === 'scheduled' ? deliverScheduledMessage(tx, item.id, options) : deliverReminder(tx, item.id, options),
        );
        this.#track(done, `${item.kind} ${item.id} of realm ${realmId}`);
        // The transaction has run (or rolled back) by now: an item it left pending must not be retried forever.
        if (stillPending(this.store.realm(realmId), item)) this.#stuck.add(`${realmId}:${item.kind}:${item.id}`);
      }
    }
    this.#arm(realmId);
  }

  #arm(realmId: string): void {
    const tables = this.store.realm(realmId);
    const next = tables && pendingItems(tables, this.#stuck, realmId)[0];
    const current = this.#timers.get(realmId);
    if (current && next && current.at === next.at) return;
    current?.cancel();
    this.#timers.delete(realmId);
    if (!next || this.#stopped) return;
    const cancel = this.clock.setTimer(realmId, next.at, () => {
      this.#timers.delete(realmId);
      this.#deliverDue(realmId, false);
    });
    this.#timers.set(realmId, { at: next.at, cancel });
  }

  #track(done: Promise<unknown>, what: string): void {
    const tracked = done.catch((error: unknown) => {
      console.error(`teamchat-kit: delivery of ${what} failed:`, error);
    });
    this.#inFlight.add(tracked);
    void tracked.finally(() => this.#inFlight.delete(tracked));
  }
}
