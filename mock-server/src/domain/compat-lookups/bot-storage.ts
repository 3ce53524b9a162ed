import { ownedRows } from '../../store/indexes.js';
import type { BotStorageRow, RealmState } from '../../store/state.js';
import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { botStorageKeyMissing, botStorageOverLimit } from '../errors.js';

/**
 * Key-value storage of an account (reference: GET/PUT/DELETE /bot_storage; the Python bots framework
 * keeps a bot's state there). Each account reads and writes only its own entries. The reference server
 * does not refuse human accounts here (the operation is meant for bots but checks nothing), so neither
 * do we: refusing them would fail clients that work against the reference.
 *
 * One row per entry (key `${user_id}:${key}`), so writing one entry journals that entry only, never the
 * whole storage of the account.
 */

/** The reference server's USER_STATE_SIZE_LIMIT: characters of all keys and values of one account. */
export const BOT_STORAGE_LIMIT = 10_000_000;

const rowKey = (userId: number, key: string) => `${userId}:${key}`;

/**
 * Characters as the reference server counts them (Python's len: code points), so a surrogate pair
 * counts once, as it does there.
 */
function characters(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return text.length - pairs;
}

const entrySize = (row: BotStorageRow) => characters(row.key) + characters(row.value);

/** The account's entries by key (ascending, so an answer listing every entry is deterministic). */
function entriesOf(tables: Pick<RealmState, 'bot_storage'>, userId: number): BotStorageRow[] {
  return ownedRows(tables, 'bot_storage', userId).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The rows named by `keys`, or every row with no keys or an empty list; a key not stored fails all of it. */
function named(tables: Pick<RealmState, 'bot_storage'>, userId: number, keys: readonly string[] | undefined): BotStorageRow[] {
  if (keys === undefined || keys.length === 0) return entriesOf(tables, userId);
  return [...new Set(keys)].map((key) => {
    const row = tables.bot_storage[rowKey(userId, key)];
    if (!row) throw botStorageKeyMissing();
    return row;
  });
}

/** GET /bot_storage: key → value of the entries asked for. */
export function readBotStorage(
  tables: Pick<RealmState, 'bot_storage'>,
  userId: number,
  keys: readonly string[] | undefined,
): Record<string, string> {
  return Object.fromEntries(named(tables, userId, keys).map((row) => [row.key, row.value]));
}

/**
 * PUT /bot_storage: sets every entry or none. The size check counts the storage as it would be after
 * the request (an entry replaced counts with its new value only), as the reference server does.
 */
export function doUpdateBotStorage(tx: Tx, actor: ActorContext, params: ParamsOf<'update-bot-storage'>): void {
  const userId = actor.user.user_id;
  const entries = params.storage;
  let size = 0;
  for (const row of entriesOf(tx.tables, userId)) size += entrySize(row);
  for (const [key, value] of Object.entries(entries)) {
    const old = tx.tables.bot_storage[rowKey(userId, key)];
    size += characters(key) + characters(value) - (old ? entrySize(old) : 0);
  }
  if (size > BOT_STORAGE_LIMIT) throw botStorageOverLimit(size - BOT_STORAGE_LIMIT, BOT_STORAGE_LIMIT);
  for (const [key, value] of Object.entries(entries)) tx.put('bot_storage', rowKey(userId, key), { user_id: userId, key, value });
}

/** DELETE /bot_storage: removes the entries named (all with no keys); a key not stored removes nothing. */
export function doRemoveBotStorage(tx: Tx, actor: ActorContext, params: ParamsOf<'remove-bot-storage'>): void {
  const userId = actor.user.user_id;
  for (const row of named(tx.tables, userId, params.keys)) tx.delete('bot_storage', rowKey(userId, row.key));
}
