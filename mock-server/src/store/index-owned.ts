import { SortedList } from './sorted-ids.js';
import type { AttachmentRow, PresenceRow, RealmState, RowOf } from './state.js';

/** The tables whose rows belong to one user, with the field naming that user. */
const OWNER_FIELD = {
  bot_storage: 'user_id',
  user_topics: 'user_id',
  attachments: 'owner_id',
  drafts: 'user_id',
  saved_snippets: 'user_id',
  navigation_views: 'user_id',
  reminders: 'user_id',
  scheduled_messages: 'sender_id',
} as const;
export type OwnedTable = keyof typeof OWNER_FIELD;
const OWNED_TABLES = Object.keys(OWNER_FIELD) as OwnedTable[];

/** The tables this facet is built from (any may be missing in a unit test's rows: read as empty). */
export type OwnedTables = Partial<Pick<RealmState, OwnedTable | 'presence'>>;

const NO_KEYS: ReadonlySet<string> = new Set();

/** The user a row of an owned table belongs to. */
export const ownerOf = (table: OwnedTable, row: unknown) => (row as Record<string, number>)[OWNER_FIELD[table]]!;

/**
 * Facts of the per-user tables, kept by store/indexes.ts: per table, each user's row keys
 * (bot storage, topic policies, uploads, drafts, snippets, navigation views, reminders, scheduled
 * messages), so a request touching one account's rows does not walk every account's; the bytes of all
 * the realm's uploads (upload_space_used, the quota check) and the presence rows' change IDs
 * (presence_last_update_id is the newest). Keys are kept rather than rows: rows are replaced on every
 * change, a key only when the row moves to another owner or goes.
 */
export class OwnedFacts {
  readonly #keys = new Map<OwnedTable, Map<number, Set<string>>>(OWNED_TABLES.map((t) => [t, new Map()]));
  #uploadBytes = 0;
  /**
   * Each presence row's last_update_id (0 when absent), ascending; duplicates allowed. A sorted list
   * rather than a running maximum because a row can be deleted or rewritten with an older ID (a
   * rollback): a presence POST appends its new ID and removes the old one by binary search.
   */
  readonly #presenceIds = new SortedList();

  constructor(tables: OwnedTables) {
    for (const table of OWNED_TABLES) {
      const rows = (tables[table] ?? {}) as Record<string, unknown>;
      for (const key in rows) this.update(table, key, undefined, rows[key]);
    }
    for (const row of Object.values(tables.presence ?? {})) this.updatePresence(undefined, row);
  }

  /** The keys of the user's rows of `table`, in no particular order (a view: do not change it). */
  keysOf(table: OwnedTable, userId: number): ReadonlySet<string> {
    return this.#keys.get(table)!.get(userId) ?? NO_KEYS;
  }

  /** The user's rows of `table`, in no particular order. */
  rowsOf<T extends OwnedTable>(tables: Pick<RealmState, T>, table: T, userId: number): RowOf<T>[] {
    const rows = tables[table] as Record<string, RowOf<T>>;
    return [...this.keysOf(table, userId)].map((key) => rows[key]!);
  }

  /** Bytes of every upload of the realm. */
  get uploadBytes(): number {
    return this.#uploadBytes;
  }

  /** The newest presence change's ID (rows older than the counter count as 0); -1 without any row. */
  get presenceLastUpdateId(): number {
    return this.#presenceIds.last ?? -1;
  }

  /** Everything this facet holds, as plain sorted data (the property test compares it with a recomputation). */
  describe(): { keys: Record<string, Record<string, string[]>>; uploadBytes: number; presenceIds: number[] } {
    const keys: Record<string, Record<string, string[]>> = {};
    for (const table of OWNED_TABLES)
      keys[table] = Object.fromEntries(
        [...this.#keys.get(table)!].sort(([a], [b]) => a - b).map(([user, set]) => [String(user), [...set].sort()]),
      );
    return { keys, uploadBytes: this.#uploadBytes, presenceIds: this.#presenceIds.toArray() };
  }

  /** Follows one row change of an owned table (`next` null: deleted). */
  update(table: OwnedTable, key: string, previous: unknown, next: unknown): void {
    const users = this.#keys.get(table)!;
    if (previous !== undefined && previous !== null) {
      const owner = ownerOf(table, previous);
      const set = users.get(owner);
      if (set?.delete(key) && set.size === 0) users.delete(owner);
      if (table === 'attachments') this.#uploadBytes -= (previous as AttachmentRow).size;
    }
    if (next !== undefined && next !== null) {
      const owner = ownerOf(table, next);
      let set = users.get(owner);
      if (!set) users.set(owner, (set = new Set()));
      set.add(key);
      if (table === 'attachments') this.#uploadBytes += (next as AttachmentRow).size;
    }
  }

  updatePresence(previous: PresenceRow | undefined, next: PresenceRow | null): void {
    if (next) this.#presenceIds.insert(next.last_update_id ?? 0);
    if (previous) this.#presenceIds.remove(previous.last_update_id ?? 0);
  }
}

export const isOwnedTable = (table: string): table is OwnedTable => Object.hasOwn(OWNER_FIELD, table);
