import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { applyEdit, checkChangeAllLimit, messagesToMove } from '../edit-delete/apply-edit.js';
import { checkEdit } from '../edit-delete/check-edit.js';
import { deleteMessage } from '../edit-delete/delete.js';
import { postMoveNotices } from '../edit-delete/notices.js';
import { updateEditingSettings } from '../edit-delete/update-settings.js';

/**
 * PATCH /messages/{message_id} (companion tier, area edit-delete): check everything first (the request,
 * permissions, time limits, and for change_all the age of every message that would move), then change
 * the messages and post the notification bot's notices. Returns the reference's answer fields; this
 * server keeps no upload references, so no upload is ever detached.
 */
export function doUpdateMessage(tx: Tx, actor: ActorContext, params: ParamsOf<'update-message'>): { detached_uploads: never[] } {
  const mode = params.propagate_mode;
  const plan = checkEdit(tx, actor, {
    messageId: params.message_id,
    propagateMode: mode,
    notifyOldThread: params.send_notification_to_old_thread,
    notifyNewThread: params.send_notification_to_new_thread,
    ...(params.stream_id !== undefined ? { streamId: params.stream_id } : {}),
    ...(params.topic !== undefined ? { topic: params.topic } : {}),
    ...(params.content !== undefined ? { content: params.content } : {}),
    ...(params.prev_content_sha256 !== undefined ? { prevContentSha256: params.prev_content_sha256 } : {}),
  });
  const isMove = plan.topic !== undefined || plan.destination !== undefined;
  const moved = isMove ? messagesToMove(tx.tables, actor.user, plan.message, mode) : [plan.message];
  // Resolving is exempt from the change_all limit (reference).
  if (isMove && mode === 'change_all' && !plan.resolving) checkChangeAllLimit(plan, actor.user, actor.now, moved);
  const after = applyEdit(tx, actor, plan, moved, mode);
  postMoveNotices(tx, actor, plan, after, {
    mode,
    notifyOldThread: params.send_notification_to_old_thread,
    notifyNewThread: params.send_notification_to_new_thread,
  });
  return { detached_uploads: [] };
}

/** DELETE /messages/{message_id} (companion tier, area edit-delete). */
export function doDeleteMessage(tx: Tx, actor: ActorContext, params: ParamsOf<'delete-message'>): void {
  deleteMessage(tx, actor, params.message_id);
}

/** PATCH /realm (companion tier, area edit-delete): the organization's editing settings; answers what changed. */
export function doUpdateRealm(tx: Tx, actor: ActorContext, params: ParamsOf<'update-realm'>): Record<string, unknown> {
  return updateEditingSettings(tx, actor, params);
}
