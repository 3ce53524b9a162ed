import type { RealmState, UserMessagesRow } from './state.js';

/**
 * One shared, frozen array per distinct flag list (issue 17, memory per message). A receipt row holds
 * a flag list per recipient, nearly all of them `[]` or `['read']`: sharing them saves an array per
 * message and recipient. Rows are immutable (every change is a new row through `tx.put`), so sharing
 * is safe, and freezing makes a stray in-place change throw instead of changing every message at once.
 * The pool is small and bounded: there are few flags, and lists beyond the bound are left as they are.
 */
const MAX_SHARED_LISTS = 512;
const shared = new Map<string, readonly string[]>();

function sharedList(flags: string[]): string[] {
  if (Object.isFrozen(flags)) return flags;
  const key = flags.join('\u0000');
  let list = shared.get(key);
  if (!list) {
    if (shared.size >= MAX_SHARED_LISTS) return flags;
    list = Object.freeze([...flags]);
    shared.set(key, list);
  }
  return list as string[];
}

/** Replaces the row's flag lists by the shared ones (same contents; the row is about to be stored). */
export function shareFlagLists(row: UserMessagesRow): void {
  for (const user in row.flags) row.flags[user] = sharedList(row.flags[user]!);
}

export function shareRealmFlagLists(tables: RealmState): void {
  for (const key in tables.user_messages) shareFlagLists(tables.user_messages[key]!);
}
