import type { ParamsOf } from '../../contract/operation-types.js';
import type { MessageRow } from '../../store/state.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { applyEdit, checkChangeAllLimit, messagesToMove } from '../edit-delete/apply-edit.js';
import { checkEdit, unresolvedName } from '../edit-delete/check-edit.js';
import { checkTopicCreation } from '../topics.js';
import { topicMoveOf } from '../edit-delete/move-policies.js';
import { postMoveNotices } from '../edit-delete/notices.js';
import { clientName, defaultReadBySender, readRecipient } from '../messages/send-request.js';
import { checkChannelSend, readContent, sendMessage } from '../messages/send.js';

/**
 * The actions where several areas meet: a message's recipient, the channel's posting and topic rules, the
 * content and the message written (send-message); an edit's checks, the move across channels and topics,
 * the messages re-rendered and the notices posted as messages (update-message). Every other action lives in
 * its area (`domain/<area>/`, `do<Operation>`), next to the rules it runs; an action belongs here only when
 * it joins steps from more than one area.
 */

/**
 * POST /messages (companion): the recipient (and, for a channel, the posting and topic rules of §1, §2.3
 * and §3), then the content, in the reference server's order; the new message.
 */
export function doSendMessage(tx: Tx, actor: ActorContext, params: ParamsOf<'send-message'>): MessageRow {
  const client = clientName(actor.userAgent);
  const recipient = readRecipient(tx.tables, actor.user, params.type, params.to, params.topic, actor.features);
  if (recipient.type === 'stream') checkChannelSend(tx, actor, actor.user, recipient.channel, recipient.topic);
  const content = readContent(params.content);
  const readBySender = params.read_by_sender ?? defaultReadBySender(client, actor.user, recipient);
  return sendMessage(tx, actor, { sender: actor.user, recipient, content, client, readBySender });
}

/**
 * PATCH /messages/{message_id} (companion tier, area edit-delete): check everything first (the request,
 * permissions, time limits, and for change_all the age of every message that would move), then change
 * the messages (topic visibility policies follow a whole-topic move) and post the notification bot's notices. Returns the reference's answer fields; this
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
  // Moving into a topic that does not exist starts it (level 441); resolving or unresolving does not.
  const pureResolve = plan.resolving && unresolvedName(plan.topic ?? '') === unresolvedName(plan.message.subject);
  if (isMove && plan.channel && !pureResolve)
    checkTopicCreation(tx.tables, actor.features, actor.user, plan.destination ?? plan.channel, plan.topic ?? plan.message.subject);
  const topicMove =
    isMove && plan.channel
      ? topicMoveOf(
          tx.tables,
          plan.message,
          { streamId: plan.destination?.stream_id ?? plan.channel.stream_id, topic: plan.topic ?? plan.message.subject },
          moved,
        )
      : undefined;
  const after = applyEdit(tx, actor, plan, moved, mode, topicMove);
  postMoveNotices(tx, actor, plan, after, {
    mode,
    notifyOldThread: params.send_notification_to_old_thread,
    notifyNewThread: params.send_notification_to_new_thread,
  });
  return { detached_uploads: [] };
}
