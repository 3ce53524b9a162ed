import type { Clock } from '../clock/clock.js';

/**
 * One entry of a deadline list: made once per queue and kind (idle expiry, heartbeat) and moved, never
 * reallocated, so a poll's start and end cost a few pointer writes instead of a clock timer, its cancel
 * closure and a Node timeout each.
 */
export class Deadline<T> {
  /** Realm time in ms at which it falls due; meaningful only while listed. */
  dueMs = 0;
  prev: Deadline<T> | null = null;
  next: Deadline<T> | null = null;
  listed = false;

  constructor(readonly owner: T) {}
}

/**
 * Deadlines of one realm and kind, in due order. Every deadline of a kind is "now + a constant", so a new one
 * almost always goes last: insertion walks back from the tail, one step in the usual case (more only if the
 * realm's time went backwards).
 */
class DeadlineList<T> {
  head: Deadline<T> | null = null;
  tail: Deadline<T> | null = null;

  insert(d: Deadline<T>): void {
    let after = this.tail;
    while (after && after.dueMs > d.dueMs) after = after.prev;
    d.prev = after;
    d.next = after ? after.next : this.head;
    if (d.next) d.next.prev = d;
    else this.tail = d;
    if (after) after.next = d;
    else this.head = d;
    d.listed = true;
  }

  remove(d: Deadline<T>): void {
    if (!d.listed) return;
    if (d.prev) d.prev.next = d.next;
    else this.head = d.next;
    if (d.next) d.next.prev = d.prev;
    else this.tail = d.prev;
    d.prev = d.next = null;
    d.listed = false;
  }
}

/**
 * The deadlines of every realm's queues, swept by one clock timer per realm (set for the earliest deadline):
 * exact in realm time as separate timers would be, since the clock fires the sweep when the realm's time
 * reaches it, in real time or when the control API moves the clock. A deadline removed before it falls due
 * leaves the timer as it is; the sweep then finds nothing due and sets the timer for the next.
 */
export class DeadlineSweep<T> {
  readonly #realms = new Map<string, { lists: DeadlineList<T>[]; armedMs: number; cancel: (() => void) | null }>();

  constructor(
    private readonly clock: Clock,
    /** Called for each deadline that fell due (already off its list), with its kind's index. */
    private readonly onDue: (owner: T, kind: number) => void,
    private readonly kinds: number,
  ) {}

  /** Lists `d` (off any place it had) as due at `dueMs` of `realmId`'s time. */
  set(realmId: string, kind: number, d: Deadline<T>, dueMs: number): void {
    const realm = this.#realmOf(realmId);
    const list = realm.lists[kind]!;
    list.remove(d);
    d.dueMs = dueMs;
    list.insert(d);
    if (realm.cancel === null || dueMs < realm.armedMs) this.#arm(realmId, realm, dueMs);
  }

  /** Takes `d` off its list; a realm left without deadlines (its queues deleted) loses its timer too. */
  remove(realmId: string, kind: number, d: Deadline<T>): void {
    if (!d.listed) return;
    const realm = this.#realms.get(realmId);
    if (!realm) return;
    realm.lists[kind]!.remove(d);
    if (isEmpty(realm.lists)) {
      realm.cancel?.();
      this.#realms.delete(realmId);
    }
  }

  /** Stops every realm's timer and forgets every deadline (server shutdown). */
  clear(): void {
    for (const realm of this.#realms.values()) realm.cancel?.();
    this.#realms.clear();
  }

  #realmOf(realmId: string) {
    let realm = this.#realms.get(realmId);
    if (!realm) {
      realm = { lists: Array.from({ length: this.kinds }, () => new DeadlineList<T>()), armedMs: 0, cancel: null };
      this.#realms.set(realmId, realm);
    }
    return realm;
  }

  #arm(realmId: string, realm: { armedMs: number; cancel: (() => void) | null }, dueMs: number): void {
    realm.cancel?.();
    realm.armedMs = dueMs;
    realm.cancel = this.clock.setTimer(realmId, dueMs / 1000, () => {
      realm.cancel = null;
      this.#sweep(realmId);
    });
  }

  #sweep(realmId: string): void {
    const realm = this.#realms.get(realmId);
    if (!realm) return;
    const now = this.clock.realmNowMs(realmId);
    // Earliest first across the kinds, as separate timers would fire; a callback may list new deadlines.
    for (;;) {
      let kind = -1;
      for (let k = 0; k < realm.lists.length; k++) {
        const head = realm.lists[k]!.head;
        if (head && head.dueMs <= now && (kind < 0 || head.dueMs < realm.lists[kind]!.head!.dueMs)) kind = k;
      }
      if (kind < 0) break;
      const due = realm.lists[kind]!.head!;
      realm.lists[kind]!.remove(due);
      this.onDue(due.owner, kind);
    }
    let next = Infinity;
    for (const list of realm.lists) if (list.head && list.head.dueMs < next) next = list.head.dueMs;
    if (next === Infinity) this.#realms.delete(realmId);
    else if (realm.cancel === null || next < realm.armedMs) this.#arm(realmId, realm, next);
  }
}

function isEmpty(lists: readonly DeadlineList<unknown>[]): boolean {
  for (const list of lists) if (list.head !== null) return false;
  return true;
}
