import type { MessageRow, RealmState, UserMessagesRow } from './state.js';

/**
 * Identical immutable values stored once, to keep memory per message low. Rows are immutable: every
 * change is a new row through `tx.put`, never an edit in place. So the store can let equal parts of
 * rows share one frozen object: the flag list of a recipient (nearly all are `[]` or `['read']`), a
 * receipt row's whole flag map (messages of a channel mostly have the same recipients in the same
 * state: all read, or unread by all but the sender), and a new message's empty edit history,
 * reactions and submessages. Freezing turns a stray in-place change into an error instead of a
 * change to every message at once. The pools are bounded and start afresh when full (values already
 * shared stay shared); they belong to the process, like the flag vocabulary they hold.
 */
const MAX_LISTS = 512;
const MAX_MAP_KEY_CHARS = 1 << 20;

const lists = new Map<string, readonly string[]>();
/** Number of each shared list, for short keys of flag maps. */
const listNumbers = new WeakMap<readonly string[], number>();
const maps = new Map<string, Readonly<Record<string, string[]>>>();
let mapKeyChars = 0;

const EMPTY: readonly never[] = Object.freeze([]);

function sharedList(flags: string[]): string[] {
  if (Object.isFrozen(flags)) return flags;
  const key = flags.join('\u0000');
  let list = lists.get(key);
  if (!list) {
    if (lists.size >= MAX_LISTS) return flags;
    list = Object.freeze([...flags]);
    lists.set(key, list);
    listNumbers.set(list, lists.size);
  }
  return list as string[];
}

/** The row with its flag lists and flag map replaced by shared ones of the same contents. */
export function shareFlags(row: UserMessagesRow): void {
  if (Object.isFrozen(row.flags)) return;
  let key = '';
  for (const user in row.flags) {
    const list = (row.flags[user] = sharedList(row.flags[user]!));
    const number = listNumbers.get(list);
    if (number === undefined) return; // a list outside the pool: keep this map to itself
    key += `${user}=${number},`;
  }
  let map = maps.get(key);
  if (!map) {
    if (mapKeyChars + key.length > MAX_MAP_KEY_CHARS) {
      maps.clear();
      mapKeyChars = 0;
    }
    map = Object.freeze(compactCopy(row.flags));
    maps.set(key, map);
    mapKeyChars += key.length;
  }
  row.flags = map as Record<string, string[]>;
}

/**
 * The map with its user-ID keys stored sparsely. Built key by key in ascending order (as sending builds it),
 * V8 gives such a map an element store as long as its largest user ID: ~6 KB in a 1,000-user realm, where a
 * parsed one takes ~100 bytes. JSON.parse builds the sparse form; the shared lists go back in.
 */
function compactCopy(flags: Record<string, string[]>): Record<string, string[]> {
  const copy = JSON.parse(JSON.stringify(flags)) as Record<string, string[]>;
  for (const user in copy) copy[user] = flags[user]!;
  return copy;
}

/** A message row's empty lists replaced by one shared empty list. */
export function shareEmptyLists(row: MessageRow): void {
  if (row.edit_history.length === 0) row.edit_history = EMPTY as never[];
  if (row.reactions.length === 0) row.reactions = EMPTY as never[];
  if (row.submessages.length === 0) row.submessages = EMPTY as never[];
}

/** Every receipt and message row of a realm entering the store (loaded, created, replaced). */
export function shareRealmValues(tables: RealmState): void {
  for (const key in tables.user_messages) shareFlags(tables.user_messages[key]!);
  for (const key in tables.messages) shareEmptyLists(tables.messages[key]!);
}
