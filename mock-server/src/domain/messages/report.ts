import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { MessageRow, UserRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { badRequest, invalidMessage } from '../errors.js';
import { conversationLink, fenced, quote, silentMention, truncate } from '../markdown/syntax.js';
import { MAX_TOPIC_LENGTH } from '../topics.js';
import { MAX_MESSAGE_LENGTH, sendMessage } from './send.js';
import { accessibleMessage } from './visibility.js';

/** §4.13 report_type values and the reference server's labels for them. */
const LABELS: Record<string, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate content',
  norms: 'Violates community norms',
  other: 'Other reason',
};

/**
 * POST /messages/{id}/report (spec §4.13; checks and their order from reference §4.13): `other` needs an
 * explanation, the organization needs a moderation request channel, the message must be visible to the
 * reporter (public-channel messages can be reported without subscribing), and the report must be sent.
 * The Notification Bot posts it in the moderation request channel under `{reported user} moderation`;
 * the only events are that post's message events.
 */
export function doReportMessage(tx: Tx, actor: ActorContext, params: ParamsOf<'report-message'>): void {
  const { realm, user } = actor;
  const { message_id: messageId, report_type: reportType, description } = params;
  if (reportType === 'other' && description.trim() === '') throw badRequest('An explanation is required.');
  const channel =
    realm.moderation_request_channel_id === null ? undefined : tx.tables.channels[String(realm.moderation_request_channel_id)];
  if (!channel) throw badRequest('Message reporting is not enabled in this organization.');
  const message = accessibleMessage(tx.tables, user, messageId);
  if (!message) throw invalidMessage();
  const bot = tx.tables.users[String(realm.notification_bot_id)];
  const sender = tx.tables.users[String(message.sender_id)];
  // The reference answers this when its internal send fails; here that is an archived channel or no bot.
  if (!bot || !sender || channel.is_archived) throw badRequest('Failed to send the message report.');
  const topic = truncate(`${sender.full_name} moderation`, MAX_TOPIC_LENGTH);
  const content = reportText(tx, user, sender, message, LABELS[reportType]!, description, actor.now);
  sendMessage(tx, actor, {
    sender: bot,
    recipient: { type: 'stream', channel, topic },
    content,
    client: 'Internal',
    readBySender: false,
  });
}

/**
 * Room for the reported message in the post (reference: the post must stay within max_message_length,
 * leaving room for the description and the surrounding text); longer messages are cut and marked.
 */
const REPORTED_CONTENT_LIMIT = MAX_MESSAGE_LENGTH - 1000 - 500;

/**
 * The report's text (ours; the reference's shape): who reported whose message and when, the reason as a
 * quote, and the original message in a spoiler so that moderators choose to read it.
 */
function reportText(
  tx: Tx,
  reporter: UserRow,
  sender: UserRow,
  message: MessageRow,
  label: string,
  description: string,
  now: number,
): string {
  const when = new Date(now * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  const channel = message.type === 'stream' ? tx.tables.channels[String(message.stream_id)] : undefined;
  const where = channel ? `a message in ${conversationLink(channel, message.subject)}` : 'a direct message';
  const reason = description.trim() === '' ? `**${label}**.` : `**${label}**. ${description.trim()}`;
  const original =
    [...message.content].length > REPORTED_CONTENT_LIMIT
      ? `${truncate(message.content, REPORTED_CONTENT_LIMIT)}\n[message truncated]`
      : message.content;
  return [
    `${silentMention(reporter)} reported ${where} sent by ${silentMention(sender)} at ${when}.`,
    '',
    quote(reason),
    '',
    fenced('spoiler Original message', original),
  ].join('\n');
}
