import { ownedRows } from '../../store/indexes.js';
import type { SchemaOf } from '../../contract/operation-types.js';
import type { RealmState, ReminderRow } from '../../store/state.js';
import type { Tx } from '../../store/store.js';
import { byDeliveryTime } from '../scheduled/present.js';

/**
 * The reminder object (spec §2.12, C3) and its events: the spec's four fields, plus the reference's
 * compatible extras (type, to, failed, reminder_target_message_id). The register snapshot, the list
 * operation and the `reminders` events all present rows through here.
 */
export function presentReminder(row: ReminderRow): SchemaOf<'Reminder'> {
  return {
    reminder_id: row.reminder_id,
    message_id: row.message_id,
    scheduled_delivery_timestamp: row.scheduled_delivery_timestamp,
    note: row.note,
    type: 'private',
    to: [row.user_id],
    failed: row.failed,
    reminder_target_message_id: row.message_id,
  };
}

/**
 * A user's reminders still to come, by delivery time. Delivered and failed ones are gone: there is no
 * `reminders` / `update` event (reference "Event payloads") and no way to edit a reminder, so one that
 * cannot be delivered leaves the list with `reminders` / `remove`, as a delivered one does.
 */
export function pendingReminders(tables: Pick<RealmState, 'reminders'>, userId: number): ReminderRow[] {
  return ownedRows(tables, 'reminders', userId)
    .filter((r) => r.delivered_message_id === null && !r.failed)
    .sort(byDeliveryTime((r) => r.reminder_id));
}

/** To every queue of the user (reference §6: per-user events). */
export function emitReminderAdd(tx: Tx, row: ReminderRow): void {
  tx.emit({ type: 'reminders', op: 'add', reminders: [presentReminder(row)] }, [row.user_id]);
}

export function emitReminderRemove(tx: Tx, row: ReminderRow): void {
  tx.emit({ type: 'reminders', op: 'remove', reminder_id: row.reminder_id }, [row.user_id]);
}
