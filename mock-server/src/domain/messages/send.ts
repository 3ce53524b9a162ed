import type { Features } from '../../config/features.js';
import { appendTo } from '../lists.js';
import { indexOf } from '../../store/indexes.js';
import type { Tx } from '../../store/store.js';
import type { ChannelRow, MessageRow, RealmRow, UserRow } from '../../store/state.js';
import { emitStreamUpdate, metadataAudience } from '../channels/events.js';
import { activeSubscriberIds } from '../channels/subscribers.js';
import { badRequest } from '../errors.js';
import { renderMessage } from '../markdown.js';
import { mayPostToChannel, mayReachChannelForSending } from '../permissions.js';
import { presentMessage } from '../present/messages.js';
import { checkChannelTopic, checkTopicCreation } from '../topics.js';
import { claimAttachments } from '../live/uploads.js';
import { contentFlags } from './content-flags.js';
import { checkGroupMentions } from './mentions.js';
import { checkWildcardMentions } from './wildcard-mentions.js';

/**
 * Creating a message: the one path for sending now (send-message), for scheduled
 * delivery and notification-bot posts. Checks the sender's right to post, stores the message and who
 * received it with which flags, and emits the `message` events (spec §6.4; event convention of
 * events/shape.ts).
 */

/** Reference §8: max_message_length; longer content is truncated, not refused (reference §1, likely). */
export const MAX_MESSAGE_LENGTH = 10_000;

export type Recipient = { type: 'stream'; channel: ChannelRow; topic: string } | { type: 'private'; users: UserRow[] };

export interface SendInput {
  sender: UserRow;
  recipient: Recipient;
  content: string;
  /** Sending client's name (§2.5 `client`). */
  client: string;
  readBySender: boolean;
}

export interface SendContext {
  realm: RealmRow;
  features: Features;
  now: number;
}

/** Posting rules for a channel (reference §4.1 check 5) and its topic rules (§1, §3). */
export function checkChannelSend(tx: Tx, ctx: SendContext, sender: UserRow, channel: ChannelRow, topic: string): void {
  if (channel.is_archived || !mayReachChannelForSending(tx.tables, sender, channel))
    throw badRequest(`Not authorized to send to channel '${channel.name}'`);
  if (!mayPostToChannel(tx.tables, sender, channel)) throw badRequest('You do not have permission to post in this channel.');
  checkChannelTopic(topic, channel, ctx.realm, ctx.features);
  checkTopicCreation(tx.tables, ctx.features, sender, channel, topic);
}

/**
 * What render-message renders (§4.20: no blank or length check): the content cut where sending would cut
 * it, so the preview is the HTML a sent message gets and one request renders at most MAX_MESSAGE_LENGTH
 * characters (a megabyte of pathological Markdown held every other client for seconds).
 */
export function previewContent(raw: string): string {
  if (raw.length <= MAX_MESSAGE_LENGTH) return raw;
  let end = 0;
  for (let n = 0; n < MAX_MESSAGE_LENGTH && end < raw.length; n++) end += raw.codePointAt(end)! > 0xffff ? 2 : 1;
  return raw.slice(0, end);
}

/** Reference §4.1: content must not be empty once stripped, and longer content is truncated. */
export function readContent(raw: string): string {
  if (raw.includes('\u0000')) throw badRequest('Message must not contain null bytes');
  if (raw.trim() === '') throw badRequest('Message must not be empty');
  const chars = [...raw.trimEnd()];
  return chars.length > MAX_MESSAGE_LENGTH ? chars.slice(0, MAX_MESSAGE_LENGTH).join('') : chars.join('');
}

export function sendMessage(tx: Tx, ctx: SendContext, input: SendInput): MessageRow {
  const { sender, recipient } = input;
  // Rendered as the sender sees the realm: mentions, channel links they may know, linkifiers, emoji.
  // Checked before anything is written, so a refusal leaves nothing behind even if a caller catches it.
  const rendered = renderMessage(input.content, { tables: tx.tables, author: sender });
  if (recipient.type === 'stream')
    checkWildcardMentions(tx.tables, ctx.features, sender, recipient.channel, recipient.topic, rendered.mentions);
  checkGroupMentions(tx.tables, sender, rendered.mentions);
  const id = tx.nextId('messages');
  const isStream = recipient.type === 'stream';
  const dmUsers =
    recipient.type === 'private' ? [...new Set([sender.user_id, ...recipient.users.map((u) => u.user_id)])].sort((a, b) => a - b) : null;
  const message: MessageRow = {
    id,
    sender_id: sender.user_id,
    type: recipient.type,
    stream_id: isStream ? recipient.channel.stream_id : null,
    dm_user_ids: dmUsers,
    recipient_id: isStream ? recipient.channel.recipient_id : directRecipientId(tx, sender, dmUsers!),
    subject: isStream ? recipient.topic : '',
    content: input.content,
    rendered_content: rendered.html,
    timestamp: ctx.now,
    client: input.client,
    is_me_message: rendered.isMeMessage,
    edit_history: [],
    last_edit_timestamp: null,
    last_moved_timestamp: null,
    reactions: [],
    submessages: [],
  };
  const firstInChannel = recipient.type === 'stream' && !channelHasMessages(tx, recipient.channel);
  tx.put('messages', id, message);
  if (firstInChannel)
    tx.put('channels', recipient.channel.stream_id, { ...tx.tables.channels[String(recipient.channel.stream_id)]!, first_message_id: id });

  // Who receives it: the channel's active subscribers, or the participants; the sender always.
  const receivers = new Set(isStream ? activeSubscriberIds(tx.tables, recipient.channel.stream_id) : dmUsers!);
  receivers.add(sender.user_id);
  const flags: Record<string, string[]> = {};
  const contentOf = contentFlags(tx.tables, message, rendered.mentions);
  for (const userId of [...receivers].sort((a, b) => a - b)) {
    const user = tx.tables.users[String(userId)];
    if (!user || !user.is_active) continue;
    // §2.5 flags: the sender's own copy is read when read_by_sender says so; mentions apply to everyone.
    flags[String(userId)] = [...(userId === sender.user_id && input.readBySender ? ['read'] : []), ...contentOf(userId)];
  }
  tx.put('user_messages', id, { message_id: id, flags });
  // Links to uploads open the files to the message's readers (area live), after its receivers are known.
  claimAttachments(tx, message);

  const wire = presentMessage(tx.tables, message);
  // Receivers grouped by their flags, one event each.
  const byFlags = new Map<string, number[]>();
  for (const [userId, list] of Object.entries(flags)) appendTo(byFlags, list.join(','), Number(userId));
  // all_public_streams queues (§4.21) get messages of channels that are public now, at emit time.
  const publicChannel = recipient.type === 'stream' && !recipient.channel.invite_only;
  for (const [key, userIds] of byFlags) {
    tx.emit(
      { type: 'message', message: wire, flags: key === '' ? [] : key.split(','), ...(publicChannel ? { _public_channel: true } : {}) },
      userIds,
    );
  }

  // §2.2 first_message_id: the channel's first message changes it for everyone who sees the channel.
  if (firstInChannel && recipient.type === 'stream') {
    const channel = recipient.channel;
    emitStreamUpdate(
      { tx, features: ctx.features, now: ctx.now },
      channel,
      metadataAudience(tx, channel).map((u) => u.user_id),
      'first_message_id',
      id,
    );
  }
  return message;
}

/** Whether the channel has a message: its first_message_id, or the index for rows written before that field. */
function channelHasMessages(tx: Tx, channel: ChannelRow): boolean {
  const known = tx.tables.channels[String(channel.stream_id)]?.first_message_id;
  if (known !== undefined) return known !== null;
  return (indexOf(tx.tables).messages.channel(channel.stream_id)?.ids.size ?? 0) > 0;
}

/**
 * Recipient of a direct message (reference model): a one-to-one or self conversation is addressed to the
 * other participant's personal recipient; three or more people share a direct-message group.
 */
function directRecipientId(tx: Tx, sender: UserRow, users: number[]): number {
  if (users.length <= 2) {
    const other = users.find((u) => u !== sender.user_id) ?? sender.user_id;
    return tx.tables.users[String(other)]!.recipient_id;
  }
  const existing = Object.values(tx.tables.direct_message_groups).find((g) => String(g.user_ids) === String(users));
  if (existing) return existing.recipient_id;
  const id = tx.nextId('direct_message_groups');
  const recipientId = tx.nextId('recipients');
  tx.put('direct_message_groups', id, { id, user_ids: users, recipient_id: recipientId });
  return recipientId;
}
