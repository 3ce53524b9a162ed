import type { ParamsOf, SchemaOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import type { RealmState, UserRow } from '../../store/state.js';
import { editableScheduledMessage } from './edit.js';
import { emitScheduledRemove, LIST_VIEW, presentScheduledMessage, undeliveredScheduledMessages } from './present.js';

/**
 * DELETE /scheduled_messages/{id} (companion of §4.2, reference §4.2 "Related"): the caller's own,
 * pending or failed; 404 for anyone else's. A message already sent is refused as an edit of it is
 * (the reference server would delete its record silently; ours keeps delivered rows as history).
 */
export function doDeleteScheduledMessage(tx: Tx, actor: ActorContext, params: ParamsOf<'delete-scheduled-message'>): void {
  const id = params.scheduled_message_id;
  const row = editableScheduledMessage(tx, actor.user.user_id, id);
  tx.delete('scheduled_messages', id);
  emitScheduledRemove(tx, row);
}

/** GET /scheduled_messages (companion): pending and failed, by delivery time (reference §2). */
export function listScheduledMessages(tables: RealmState, user: UserRow): SchemaOf<'ScheduledMessage'>[] {
  return undeliveredScheduledMessages(tables, user.user_id).map((row) => presentScheduledMessage(row, LIST_VIEW));
}
