import { features } from '../../config/features.js';
import type { Tx } from '../../store/store.js';
import type { MessageRow, RealmState, ReminderRow } from '../../store/state.js';
import type { SendContext } from '../messages/send.js';
import { messageAccess } from '../messages/visibility.js';
import type { DeliveryOptions } from '../scheduled/deliver.js';
import { LATE_REASON } from '../scheduled/deliver.js';
import { conversationLink, messageLink, quote, silentMention } from '../markdown/syntax.js';
import { notifyUser } from '../scheduled/notify.js';
import { emitReminderRemove } from './present.js';

/**
 * Delivering a reminder (spec §4.19 "Schedules a reminder to the current user that links the message";
 * reference §4.19): at its time the Notification Bot sends the user a direct message linking the
 * message and quoting the note, and the reminder leaves the list (`reminders` / `remove`).
 *
 * It fails when the user can no longer see the message (or it is gone), or when start-up found it more
 * than ten minutes overdue (the rule of scheduled messages, reference §4.1 "Delivery"). A failed
 * reminder is kept with `failed` true but leaves the list with `reminders` / `remove` too (no update
 * event exists for reminders, and nothing can revive one); the Notification Bot says it could not be
 * delivered, without showing or linking the message. A deactivated user is told nothing.
 */
export function deliverReminder(tx: Tx, id: number, options: DeliveryOptions): void {
  const row = tx.tables.reminders[String(id)];
  if (!row || row.failed || row.delivered_message_id !== null) return;
  const realm = tx.tables.realm.realm;
  const ctx: SendContext = { realm, features: features(realm.feature_level), now: row.scheduled_delivery_timestamp };
  const user = tx.tables.users[String(row.user_id)];
  const message = tx.tables.messages[String(row.message_id)];
  if (options.late || !user?.is_active || !message || !messageAccess(tx.tables, user, message)) {
    const failed: ReminderRow = { ...row, failed: true };
    tx.put('reminders', id, failed);
    emitReminderRemove(tx, failed);
    const reason = options.late ? LATE_REASON : 'The message is no longer visible to you.';
    if (user)
      notifyUser(
        tx,
        { ...ctx, now: options.late ? options.now : ctx.now },
        user,
        withNote(`I couldn't deliver a reminder you asked for. Reason: ${reason}`, row.note),
      );
    return;
  }
  const sent = notifyUser(tx, ctx, user, reminderContent(tx.tables, message, row.note));
  const delivered: ReminderRow = { ...row, delivered_message_id: sent?.id ?? null, failed: sent === null };
  tx.put('reminders', id, delivered);
  emitReminderRemove(tx, delivered);
}

/** The reminder's text (ours): a link to the message, who sent it and where, then the note quoted. */
export function reminderContent(tables: Pick<RealmState, 'channels' | 'users'>, message: MessageRow, note: string): string {
  const sender = tables.users[String(message.sender_id)];
  const who = sender ? silentMention(sender) : `user ${message.sender_id}`;
  const channel = message.stream_id === null ? undefined : tables.channels[String(message.stream_id)];
  const where = channel ? ` in ${conversationLink(channel, message.subject)}` : '';
  return withNote(`Here is the reminder you asked for: [this message](${messageLink(tables, message)}) from ${who}${where}.`, note);
}

function withNote(text: string, note: string): string {
  return note === '' ? text : `${text}\n\n${quote(note)}`;
}
