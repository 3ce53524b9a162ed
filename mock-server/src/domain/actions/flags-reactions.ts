import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { checkFlagRequest, markAllAsRead, markChannelAsRead, updateMessageFlags, type FlagsResult } from '../flags-reactions/flags.js';
import { updateFlagsForNarrow, type FlagsNarrowResult } from '../flags-reactions/flags-narrow.js';
import { addReaction, removeReaction } from '../flags-reactions/reactions.js';

/** Companion tier, area flags-reactions: one action per state-changing operation. */

/** POST /messages/{message_id}/reactions. */
export function doAddReaction(tx: Tx, actor: ActorContext, params: ParamsOf<'add-reaction'>): void {
  addReaction(tx, actor.user, params.message_id, params);
}

/** DELETE /messages/{message_id}/reactions. */
export function doRemoveReaction(tx: Tx, actor: ActorContext, params: ParamsOf<'remove-reaction'>): void {
  removeReaction(tx, actor.user, params.message_id, params);
}

/** POST /messages/flags. */
export function doUpdateMessageFlags(tx: Tx, actor: ActorContext, params: ParamsOf<'update-message-flags'>): FlagsResult {
  const op = checkFlagRequest(params.op, params.flag);
  return updateMessageFlags(tx, actor.user, params.messages, op, params.flag);
}

/** POST /mark_all_as_read. */
export function doMarkAllAsRead(tx: Tx, actor: ActorContext): { complete: true } {
  return markAllAsRead(tx, actor.user);
}

/** POST /mark_stream_as_read. */
export function doMarkStreamAsRead(tx: Tx, actor: ActorContext, params: ParamsOf<'mark-stream-as-read'>): void {
  markChannelAsRead(tx, actor.user, params.stream_id);
}

/** POST /messages/flags/narrow. */
export function doUpdateMessageFlagsForNarrow(
  tx: Tx,
  actor: ActorContext,
  params: ParamsOf<'update-message-flags-for-narrow'>,
): FlagsNarrowResult {
  return updateFlagsForNarrow(tx, actor.user, params);
}
