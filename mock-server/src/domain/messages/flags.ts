import type { Tx } from '../../store/store.js';

/**
 * Message flags per user (spec §2.5 `flags`; §4.9). Stored in `user_messages` rows keyed by message ID,
 * one flag list per user who received the message.
 */

/**
 * Adds `read` for one user to those of `messageIds` they received and had not read, and tells their
 * clients with `update_message_flags` / `add` (reference "Event payloads"), only when something changed.
 * Returns the IDs that changed, ascending.
 */
export function markRead(tx: Tx, userId: number, messageIds: Iterable<number>): number[] {
  const me = String(userId);
  const changed: number[] = [];
  for (const id of messageIds) {
    const row = tx.tables.user_messages[String(id)];
    const flags = row?.flags[me];
    if (!row || !flags || flags.includes('read')) continue;
    tx.put('user_messages', id, { ...row, flags: { ...row.flags, [me]: [...flags, 'read'] } });
    changed.push(id);
  }
  changed.sort((a, b) => a - b);
  if (changed.length > 0) {
    tx.emit({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: changed, all: false }, [userId]);
  }
  return changed;
}
