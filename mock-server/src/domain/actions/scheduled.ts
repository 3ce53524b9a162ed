import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { clientName } from '../messages/send-request.js';
import { createScheduledMessage } from '../scheduled/create.js';
import { deleteScheduledMessage } from '../scheduled/delete.js';
import { editScheduledMessage } from '../scheduled/edit.js';

/** POST /scheduled_messages (§4.1): the new scheduled message's ID (below level 184 possibly an edit, §9). */
export function doCreateScheduledMessage(tx: Tx, actor: ActorContext, params: ParamsOf<'create-scheduled-message'>): number {
  return createScheduledMessage(tx, actor, params, clientName(actor.userAgent));
}

/** PATCH /scheduled_messages/{scheduled_message_id} (§4.2). */
export function doUpdateScheduledMessage(tx: Tx, actor: ActorContext, params: ParamsOf<'update-scheduled-message'>): void {
  editScheduledMessage(tx, actor, params);
}

export function doDeleteScheduledMessage(tx: Tx, actor: ActorContext, params: ParamsOf<'delete-scheduled-message'>): void {
  deleteScheduledMessage(tx, actor.user, params.scheduled_message_id);
}
