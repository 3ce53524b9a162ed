import type { ParamsOf } from '../../contract/operation-types.js';
import type { MessageRow } from '../../store/state.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { reportMessage } from '../messages/report.js';
import { clientName, defaultReadBySender, readRecipient } from '../messages/send-request.js';
import { checkChannelSend, readContent, sendMessage } from '../messages/send.js';
import { markTopicAsRead } from '../messages/topic-ops.js';

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

/** POST /messages/{message_id}/report (§4.3 companion). */
export function doReportMessage(tx: Tx, actor: ActorContext, params: ParamsOf<'report-message'>): void {
  reportMessage(tx, actor, params.message_id, params.report_type, params.description);
}

/** POST /mark_topic_as_read. */
export function doMarkTopicAsRead(tx: Tx, actor: ActorContext, params: ParamsOf<'mark-topic-as-read'>): void {
  markTopicAsRead(tx, actor.user, params.stream_id, params.topic_name, actor.features);
}
