import type { Tx } from '../../store/store.js';
import type { MessageRow, UserRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { badRequest, invalidMessage } from '../errors.js';
import { MAX_TOPIC_LENGTH } from '../topics.js';
import { sendMessage } from './send.js';
import { visibleMessage } from './visibility.js';

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
export function reportMessage(tx: Tx, actor: ActorContext, messageId: number, reportType: string, description: string): MessageRow {
  const { realm, user } = actor;
  if (reportType === 'other' && description.trim() === '') throw badRequest('An explanation is required.');
  const channel = realm.moderation_request_channel_id === null ? undefined : tx.tables.channels[String(realm.moderation_request_channel_id)];
  if (!channel) throw badRequest('Message reporting is not enabled in this organization.');
  const message = visibleMessage(tx.tables, user, messageId);
  if (!message) throw invalidMessage();
  const bot = tx.tables.users[String(realm.notification_bot_id)];
  const sender = tx.tables.users[String(message.sender_id)];
  // The reference answers this when its internal send fails; here that is an archived channel or no bot.
  if (!bot || !sender || channel.is_archived) throw badRequest('Failed to send the message report.');
  const topic = [...`${sender.full_name} moderation`].slice(0, MAX_TOPIC_LENGTH).join('');
  const content = reportText(tx, user, sender, message, LABELS[reportType]!, description, actor.now);
  return sendMessage(tx, actor, { sender: bot, recipient: { type: 'stream', channel, topic }, content, client: 'Internal', readBySender: false });
}

/** Silent mentions (no notification to either party), `|ID` so that equal names stay unambiguous. */
const silent = (u: UserRow) => `@_**${u.full_name}|${u.user_id}**`;

/**
 * The report's text (ours; the reference's shape): who reported whose message and when, the reason as a
 * quote, and the original message in a spoiler so that moderators choose to read it.
 */
function reportText(tx: Tx, reporter: UserRow, sender: UserRow, message: MessageRow, label: string, description: string, now: number): string {
  const when = new Date(now * 1000).toISOString().replace(/\.\d+Z$/, 'Z');
  const where =
    message.type === 'stream'
      ? `a message in #**${tx.tables.channels[String(message.stream_id)]?.name ?? ''}>${message.subject}**`
      : 'a direct message';
  const reason = description.trim() === '' ? `**${label}**.` : `**${label}**. ${description.trim()}`;
  // A fence longer than any backtick run inside, so quoted text cannot close it early.
  const fence = '`'.repeat(Math.max(3, ...[...`${message.content}\n${reason}`.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return [
    `${silent(reporter)} reported ${where} sent by ${silent(sender)} at ${when}.`,
    '',
    `${fence}quote`,
    reason,
    fence,
    '',
    `${fence}spoiler Original message`,
    message.content,
    fence,
  ].join('\n');
}
