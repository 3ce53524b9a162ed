import type { MessageRow, RealmState, UserRow } from '../../store/state.js';
import type { Tx } from '../../store/store.js';
import { invalidMessage } from '../errors.js';
import { accessibleMessage } from '../messages/visibility.js';

/**
 * The caller's copy of a message (their `user_messages` flags), as the companion operations of this area
 * need it: a message they may access but never received (a shared channel history from before they
 * subscribed, or a public channel they never joined) first gets a `historical` copy, as the reference
 * server creates one when a user reacts to or flags such a message. A copy starts read: the user never
 * had it unread. The copy then makes the message theirs for later events about it (reactions, flags).
 */
export const HISTORICAL_FLAGS: readonly string[] = ['read', 'historical'];

/** The message and the user's flags on it (not yet written when `created`). */
export interface Copy {
  message: MessageRow;
  flags: readonly string[];
  created: boolean;
}

/**
 * The user's copy of a message they have access to (messages/visibility.ts messageAccess, as reactions and
 * read receipts need); `Invalid message(s)` for one they may not access or that does not exist.
 */
export function copyOf(tables: RealmState, user: UserRow, messageId: number): Copy {
  const message = accessibleMessage(tables, user, messageId);
  if (!message) throw invalidMessage();
  const flags = tables.user_messages[String(messageId)]?.flags[String(user.user_id)];
  return flags === undefined ? { message, flags: HISTORICAL_FLAGS, created: true } : { message, flags, created: false };
}

/**
 * The copy a flag change by ID works on (reference do_update_message_flags): a copy the user already
 * holds is changed without an access check, so someone who left a channel can still star or mark read
 * what they received there; only a message without a copy needs access, to get its historical one.
 */
export function flagCopyOf(tables: RealmState, user: UserRow, messageId: number): Copy {
  const message = tables.messages[String(messageId)];
  const flags = tables.user_messages[String(messageId)]?.flags[String(user.user_id)];
  if (message && flags !== undefined) return { message, flags, created: false };
  return copyOf(tables, user, messageId);
}

/** Writes the user's flags on a message (creating the historical copy if there was none). */
export function writeFlags(tx: Tx, userId: number, messageId: number, flags: string[]): void {
  const row = tx.tables.user_messages[String(messageId)] ?? { message_id: messageId, flags: {} };
  tx.put('user_messages', messageId, { ...row, flags: { ...row.flags, [String(userId)]: flags } });
}
