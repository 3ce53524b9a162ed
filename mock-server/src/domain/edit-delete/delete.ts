import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { deleteTimeLimitPassed, invalidMessage, mayNotDeleteMessage } from '../errors.js';
import { messageAudience, accessibleMessage } from '../messages/visibility.js';
import { mayDeleteAnyMessage, mayDeleteOwnMessage, mayModifyMessageInChannel } from '../permissions.js';
import { detachMessage } from '../live/uploads.js';
import { emitDeletion, refreshFirstMessageId } from './audience.js';
import { editingSettings } from './settings.js';

/**
 * DELETE /messages/{message_id} (companion tier, area edit-delete; reference validate_can_delete_message):
 * whoever may delete any message deletes it at any time; otherwise it must be the caller's own (or their
 * bot's), they must be allowed to delete their own messages, and the organization's delete time limit
 * (none by default) must not have passed. The message and its receipts go; everyone who could see it
 * receives `delete_message` (spec §4.21: one message at a time without bulk_message_deletion). Its
 * attachments no longer list it (area live).
 */
export function doDeleteMessage(tx: Tx, actor: ActorContext, params: ParamsOf<'delete-message'>): void {
  const { user, now } = actor;
  const message = accessibleMessage(tx.tables, user, params.message_id);
  // An archived channel's messages stay readable but are no longer deleted (reference access_message).
  const current = message?.stream_id == null ? undefined : tx.tables.channels[String(message.stream_id)];
  if (!message || !mayModifyMessageInChannel(current)) throw invalidMessage();
  const settings = editingSettings(tx.tables);
  // The channel's own delete groups exist from level 407 (§9); below it only the organization's count.
  const channel =
    message.stream_id === null || !actor.features.has('channel_delete_permission_groups')
      ? undefined
      : tx.tables.channels[String(message.stream_id)];
  if (!mayDeleteAnyMessage(tx.tables, settings, user, channel)) {
    if (!mayDeleteOwnMessage(tx.tables, settings, user, channel, message)) throw mayNotDeleteMessage();
    const limit = settings.message_content_delete_limit_seconds;
    if (limit !== null && now - message.timestamp > limit) throw deleteTimeLimitPassed();
  }
  // The reference always tells the user who deleted it too (a non-subscriber administrator, say).
  const audience = messageAudience(tx.tables, message).add(user.user_id);
  detachMessage(tx, message);
  tx.delete('messages', message.id);
  tx.delete('user_messages', message.id);
  emitDeletion(tx, [message], audience);
  if (message.stream_id !== null) refreshFirstMessageId(tx, actor, message.stream_id);
}
