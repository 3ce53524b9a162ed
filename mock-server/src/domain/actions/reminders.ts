import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { createReminder, deleteReminder } from '../reminders/create.js';

/** POST /reminders (§4.19): the new reminder's ID. */
export function doCreateMessageReminder(tx: Tx, actor: ActorContext, params: ParamsOf<'create-message-reminder'>): number {
  return createReminder(tx, actor, params);
}

export function doDeleteReminder(tx: Tx, actor: ActorContext, params: ParamsOf<'delete-reminder'>): void {
  deleteReminder(tx, actor.user, params.reminder_id);
}
