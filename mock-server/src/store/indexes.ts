import { MessageFacts, topicKey } from './index-messages.js';
import { isOwnedTable, OwnedFacts, ownerOf, type OwnedTable, type OwnedTables } from './index-owned.js';
import { PeopleFacts } from './index-people.js';
import { ReceiptFacts } from './index-receipts.js';
import { SortedList } from './sorted-ids.js';
import type { MessageRow, PresenceRow, RealmState, RowOf, SubscriptionRow, TableName, UserMessagesRow, UserRow } from './state.js';

/**
 * Derived facts of one realm that reads would otherwise compute by scanning every message or receipt:
 * per channel its messages, times, topics and subscribers; per user their receipts, unread
 * messages and direct conversations; users by email; the rows each user owns in the companion tier's
 * tables. See docs/store.md "Indexes".
 *
 * The rows stay the one source of truth. The store keeps each realm's index in the same `#apply` that
 * changes a row (forward and undo alike), so an index is never behind its rows; indexes are never
 * persisted, and a facet is built from the rows the first time a read needs it (after start-up, a
 * journal replay, a realm creation or replacement), which also keeps start-up from paying for facts
 * nobody asked for yet. Tables the store does not hold (a realm being generated, a unit test's rows)
 * get a throwaway index built from their rows on every call: always right, but dearer than one scan,
 * so the lookups realm generation makes per message (`topicMessages`) scan just what they need.
 */
export class RealmIndex {
  #messages: MessageFacts | null = null;
  #receipts: ReceiptFacts | null = null;
  #people: PeopleFacts | null = null;
  #owned: OwnedFacts | null = null;

  constructor(private readonly tables: RealmState) {}

  get messages(): MessageFacts {
    return (this.#messages ??= new MessageFacts(this.tables));
  }

  get receipts(): ReceiptFacts {
    return (this.#receipts ??= new ReceiptFacts(this.tables));
  }

  get people(): PeopleFacts {
    return (this.#people ??= new PeopleFacts(this.tables));
  }

  get owned(): OwnedFacts {
    return (this.#owned ??= new OwnedFacts(this.tables));
  }

  /** Follows one row change (`next` null: deleted). Facets not built yet will read the rows when asked. */
  update(table: TableName, key: string, previous: unknown, next: unknown): void {
    if (table === 'messages') this.#messages?.update(previous as MessageRow | undefined, next as MessageRow | null);
    else if (table === 'user_messages') this.#receipts?.update(previous as UserMessagesRow | undefined, next as UserMessagesRow | null);
    else if (table === 'subscriptions')
      this.#people?.updateSubscription(previous as SubscriptionRow | undefined, next as SubscriptionRow | null);
    else if (table === 'users') this.#people?.updateUser(previous as UserRow | undefined, next as UserRow | null);
    else if (table === 'presence') this.#owned?.updatePresence(previous as PresenceRow | undefined, next as PresenceRow | null);
    else if (isOwnedTable(table)) this.#owned?.update(table, key, previous, next);
  }
}

/** The indexes of the realms a store holds, by the identity of their tables (freed with the realm). */
const kept = new WeakMap<object, RealmIndex>();

/** The store starts keeping `tables` current (a realm loaded, created or replaced). */
export function keepIndex(tables: RealmState): RealmIndex {
  const index = new RealmIndex(tables);
  kept.set(tables, index);
  return index;
}

/** The store's index of these tables, or undefined when the store does not hold them. */
export function keptIndex(tables: object): RealmIndex | undefined {
  return kept.get(tables);
}

/** The tables an index is built from. */
export type IndexedTables = Pick<RealmState, 'messages' | 'user_messages' | 'users' | 'subscriptions'>;

/** The index every read uses: the store's for a realm it holds, else one built from these rows now. */
export function indexOf(tables: IndexedTables): RealmIndex {
  return kept.get(tables) ?? new RealmIndex(tables as RealmState);
}

/** The owned-rows facet (the realm's upload bytes, presence update IDs), built from these rows when not kept. */
export function ownedOf(tables: OwnedTables): OwnedFacts {
  return kept.get(tables)?.owned ?? new OwnedFacts(tables);
}

/**
 * A user's rows of a per-user table, in no particular order: from the index for a realm the store holds;
 * for other tables (realm generation, a unit test's rows) one scan of just that table.
 */
export function ownedRows<T extends OwnedTable>(tables: Pick<RealmState, T>, table: T, userId: number): RowOf<T>[] {
  const index = keptIndex(tables);
  if (index) return index.owned.rowsOf(tables, table, userId);
  return Object.values(tables[table] as Record<string, RowOf<T>>).filter((row) => ownerOf(table, row) === userId);
}

/**
 * A topic's message IDs, ascending (undefined when it has none): the index's list for a realm the store
 * holds; for other tables (realm generation renders and flags every message it writes) one scan
 * collecting just this topic, rather than a throwaway index of every channel.
 */
export function topicMessages(tables: IndexedTables, streamId: number, topic: string): SortedList | undefined {
  const kept = keptIndex(tables);
  if (kept) return kept.messages.topic(streamId, topic);
  const key = topicKey(topic);
  const ids = new SortedList();
  for (const m of Object.values(tables.messages)) if (m.stream_id === streamId && topicKey(m.subject) === key) ids.insert(m.id);
  return ids.size > 0 ? ids : undefined;
}
