import type { ParamsOf, SchemaOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { RealmState, ReminderRow, UserRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { badRequest, invalidMessage, missingResource } from '../errors.js';
import { accessibleMessage } from '../messages/visibility.js';
import { checkFuture } from '../scheduled/validate.js';
import { emitReminderAdd, emitReminderRemove, pendingReminders, presentReminder } from './present.js';

/** Reference §4.19: the note's limit, advertised by register as max_reminder_note_length. */
export const MAX_REMINDER_NOTE_LENGTH = 1000;

/**
 * POST /reminders (spec §4.19). Every parameter is optional (C20), so a missing one is answered by the
 * check it fails: no time is not a future time, no message is no visible message. Checks in the
 * reference's order: the time (before the message is looked up), the message (visible to the caller,
 * one text for missing and invisible so nothing leaks), then the note (text ours; the reference leaves
 * it unconfirmed). Reminders take their IDs from the scheduled-message sequence (state.ts).
 */
export function doCreateMessageReminder(tx: Tx, actor: ActorContext, p: ParamsOf<'create-message-reminder'>): number {
  checkFuture(p.scheduled_delivery_timestamp, actor.now);
  const message = p.message_id === undefined ? undefined : accessibleMessage(tx.tables, actor.user, p.message_id);
  if (!message) throw invalidMessage();
  if ([...p.note].length > MAX_REMINDER_NOTE_LENGTH)
    throw badRequest(`Maximum reminder note length: ${MAX_REMINDER_NOTE_LENGTH} characters`);
  const id = tx.nextId('scheduled_messages');
  const row: ReminderRow = {
    reminder_id: id,
    user_id: actor.user.user_id,
    message_id: message.id,
    scheduled_delivery_timestamp: p.scheduled_delivery_timestamp,
    note: p.note,
    failed: false,
    delivered_message_id: null,
  };
  tx.put('reminders', id, row);
  emitReminderAdd(tx, row);
  return id;
}

/**
 * DELETE /reminders/{id} (companion, reference §4.19 "Related"): only the caller's pending reminders;
 * anyone else's, one already delivered or failed, and a scheduled message's ID are all 404 (text ours).
 */
export function doDeleteReminder(tx: Tx, actor: ActorContext, params: ParamsOf<'delete-reminder'>): void {
  const id = params.reminder_id;
  const row = tx.tables.reminders[String(id)];
  if (!row || row.user_id !== actor.user.user_id || row.delivered_message_id !== null || row.failed)
    throw missingResource('Reminder does not exist');
  tx.delete('reminders', id);
  emitReminderRemove(tx, row);
}

/** GET /reminders (companion): `{reminders}`, by delivery time. */
export function listReminders(tables: RealmState, user: UserRow): SchemaOf<'Reminder'>[] {
  return pendingReminders(tables, user.user_id).map(presentReminder);
}
