import { SortedList } from './sorted-ids.js';
import type { RealmState, UserMessagesRow } from './state.js';

/**
 * Facts of the `user_messages` table, kept by store/indexes.ts: per user, the IDs of the messages they
 * received (max_message_id, protected history), of those still unread (register's unread_msgs,
 * mark-as-read) and of those they starred (register's starred_messages), all ascending.
 */
export interface Receipts {
  readonly received: SortedList;
  readonly unread: SortedList;
  readonly starred: SortedList;
}

const NONE: Receipts = { received: new SortedList(), unread: new SortedList(), starred: new SortedList() };
const fresh = (): Receipts => ({ received: new SortedList(), unread: new SortedList(), starred: new SortedList() });
const starred = (flags: readonly string[] | undefined) => flags !== undefined && flags.includes('starred');

export class ReceiptFacts {
  /** By user ID as the flag maps spell it (a string), so walking a row needs no number parsing. */
  readonly #users = new Map<string, Receipts>();

  constructor(tables: Pick<RealmState, 'user_messages'>) {
    for (const key in tables.user_messages) this.update(undefined, tables.user_messages[key]!);
  }

  /** A user's receipts; empty lists (shared, never to be changed) for a user who received nothing. */
  of(userId: number): Receipts {
    return this.#users.get(String(userId)) ?? NONE;
  }

  /** Everything this facet holds, as plain sorted data (the property test compares it with a recomputation). */
  describe(): Record<number, { received: number[]; unread: number[]; starred: number[] }> {
    const out: Record<number, { received: number[]; unread: number[]; starred: number[] }> = {};
    for (const [user, r] of [...this.#users].sort(([a], [b]) => Number(a) - Number(b)))
      out[Number(user)] = { received: r.received.toArray(), unread: r.unread.toArray(), starred: r.starred.toArray() };
    return out;
  }

  update(previous: UserMessagesRow | undefined, next: UserMessagesRow | null): void {
    // A shared flag map (store/shared-values.ts) that did not change: nobody's receipts changed.
    if (previous && next && previous.flags === next.flags) return;
    if (previous) {
      for (const user in previous.flags) {
        const flags = previous.flags[user]!;
        const now = next?.flags[user];
        if (now === flags) continue; // unchanged for this user (rows are copied with their flag lists)
        const receipts = this.#users.get(user);
        if (!receipts) continue;
        if (now === undefined) receipts.received.remove(previous.message_id);
        if (!flags.includes('read') && (now === undefined || now.includes('read'))) receipts.unread.remove(previous.message_id);
        if (starred(flags) && !starred(now)) receipts.starred.remove(previous.message_id);
        if (receipts.received.size === 0) this.#users.delete(user);
      }
    }
    if (!next) return;
    for (const user in next.flags) {
      const flags = next.flags[user]!;
      const before = previous?.flags[user];
      if (before === flags) continue;
      let receipts = this.#users.get(user);
      if (!receipts) this.#users.set(user, (receipts = fresh()));
      if (before === undefined) receipts.received.insert(next.message_id);
      if (!flags.includes('read') && (before === undefined || before.includes('read'))) receipts.unread.insert(next.message_id);
      if (starred(flags) && !starred(before)) receipts.starred.insert(next.message_id);
    }
  }
}
