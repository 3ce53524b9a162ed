import type { Tx } from '../../store/store.js';
import type { UserRow } from '../../store/state.js';
import { badRequest, deliveryNotInFuture, streamIdDoesNotExist } from '../errors.js';
import { senderKnowsChannel } from '../messages/send-request.js';
import { renderMessage } from '../markdown.js';
import { checkGroupMentions } from '../messages/mentions.js';
import { checkChannelSend, readContent, type Recipient, type SendContext } from '../messages/send.js';
import { readTopic } from '../topics.js';

/**
 * What a scheduled message must satisfy to be stored or sent: spec §4.1 with the reference's checks
 * (reference §4.1 "Checks" 2–5), in its order. Creation, editing (§4.2 step 8) and delivery (reference
 * §4.1 "Delivery", where a refusal becomes the failure reason) all run these same checks, so a message
 * that was accepted fails at delivery time only because something changed since.
 *
 * This is not send-message's reader (send-request.ts): scheduled messages take a channel by ID only,
 * user IDs only, and refuse the other shapes with their own texts.
 */

/** Spec §2.1 `type` values; direct and channel are stored as private and stream (reference §2). */
export type ScheduledType = 'stream' | 'private';
export const canonicalType = (type: string): ScheduledType => (type === 'stream' || type === 'channel' ? 'stream' : 'private');

export interface ScheduledDraft {
  type: ScheduledType;
  /** As parsed: a channel ID, or a list of user IDs (the pipeline guarantees one of the two). */
  to: number | number[];
  /** The topic parameter as sent (or as stored); undefined when absent. Ignored for direct messages. */
  topic: string | undefined;
  content: string;
}

export interface CheckedMessage {
  type: ScheduledType;
  /** Channel ID, or the user IDs without duplicates, ascending (reference §4.1). */
  to: number | number[];
  /** "" for direct messages (reference §4.1: the topic is ignored there). */
  topic: string;
  content: string;
  /** The content rendered as the sender sees the realm now (rendered once: its mentions are checked too). */
  rendered_content: string;
  recipient: Recipient;
}

/** Reference §4.1 check 1 (and §4.2 step 4, §4.19): only the future will do. */
export function checkFuture(timestamp: number | undefined, now: number): asserts timestamp is number {
  if (timestamp === undefined || timestamp <= now) throw deliveryNotInFuture();
}

/** Reference §4.1 checks 2–5 for the sender as they are now. Throws the first refusal. */
export function checkScheduledMessage(tx: Tx, ctx: SendContext, sender: UserRow, draft: ScheduledDraft): CheckedMessage {
  // Check 2: the shape of `to` must suit the type.
  if (draft.type === 'stream' && typeof draft.to !== 'number') throw badRequest('Invalid data type for channel ID');
  if (draft.type === 'private' && !Array.isArray(draft.to)) throw badRequest('Invalid data type for recipients');

  if (draft.type === 'stream') {
    const streamId = draft.to as number;
    // Check 3: a channel the sender may not know is not told apart from a missing one (no leak).
    const channel = tx.tables.channels[String(streamId)];
    if (!channel || !senderKnowsChannel(tx.tables, sender, channel)) throw streamIdDoesNotExist(streamId);
    // Check 5, in the reference's order: topic, content, then the channel's posting and topic rules.
    if (draft.topic === undefined) throw badRequest('Missing topic');
    const topic = readTopic(draft.topic, ctx.features);
    const content = readContent(draft.content);
    checkChannelSend(tx, ctx, sender, channel, topic);
    const rendered_content = renderChecked(tx, sender, content);
    return { type: 'stream', to: streamId, topic, content, rendered_content, recipient: { type: 'stream', channel, topic } };
  }

  // Check 4: every user exists and is active. Duplicates are dropped and the list kept sorted.
  const ids = [...new Set(draft.to as number[])].sort((a, b) => a - b);
  // The text is ours (the reference's message layer refuses an empty recipient list so).
  if (ids.length === 0) throw badRequest('Message must have recipients');
  const users: UserRow[] = [];
  for (const id of ids) {
    const user = tx.tables.users[String(id)];
    if (!user) throw badRequest(`Invalid user ID ${id}`);
    // Same text as send-message (reference server's message layer).
    if (!user.is_active) throw badRequest(`'${user.email}' is no longer using Zulip.`);
    users.push(user);
  }
  const content = readContent(draft.content);
  const rendered_content = renderChecked(tx, sender, content);
  return { type: 'private', to: ids, topic: '', content, rendered_content, recipient: { type: 'private', users } };
}

/** The content's HTML; group mentions the sender may not make are refused as sending refuses them (mentions.ts). */
function renderChecked(tx: Tx, sender: UserRow, content: string): string {
  const rendered = renderMessage(content, { tables: tx.tables, author: sender });
  checkGroupMentions(tx.tables, sender, rendered.mentions);
  return rendered.html;
}
