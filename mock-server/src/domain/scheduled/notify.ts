import type { Tx } from '../../store/store.js';
import type { MessageRow, UserRow } from '../../store/state.js';
import { truncate } from '../markdown/syntax.js';
import { MAX_MESSAGE_LENGTH, sendMessage, type SendContext } from '../messages/send.js';

/**
 * Direct messages from the realm's Notification Bot (RealmRow.notification_bot_id) to one user: the
 * notices of failed scheduled messages and reminders (reference §4.1 "Delivery", §4.19). They go
 * through sendMessage like any message, so the user's unread state and queues follow.
 */
export function notifyUser(tx: Tx, ctx: SendContext, user: UserRow, content: string): MessageRow | null {
  const bot = tx.tables.users[String(ctx.realm.notification_bot_id)];
  // A deactivated user reads nothing; a realm without the bot (an odd import) sends nothing.
  if (!bot || !user.is_active) return null;
  return sendMessage(tx, ctx, {
    sender: bot,
    recipient: { type: 'private', users: [user] },
    content: truncate(content, MAX_MESSAGE_LENGTH),
    client: 'Internal',
    readBySender: true,
  });
}
