import type { Features } from '../../config/features.js';
import type { Tx } from '../../store/store.js';
import type { ChannelRow, RealmState, UserRow } from '../../store/state.js';
import { channelById } from '../channels/lookup.js';
import { badRequest } from '../errors.js';
import { EMPTY_TOPIC_DISPLAY_NAME, readTopic } from '../topics.js';
import { markRead } from './flags.js';

/** Topic names compare case-insensitively on the reference server ("Castle" and "castle" are one topic). */
const sameTopic = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The channel messages a user may see, spec §4.11: with protected history (history_public_to_subscribers
 * false) only those the user received, that is those sent while subscribed (for a bot, the bot's own
 * subscription); otherwise every message of the channel.
 */
function visibleMessageIds(tables: RealmState, user: UserRow, channel: ChannelRow): number[] {
  const me = String(user.user_id);
  return Object.values(tables.messages)
    .filter(
      (m) =>
        m.stream_id === channel.stream_id &&
        (channel.history_public_to_subscribers || tables.user_messages[String(m.id)]?.flags[me] !== undefined),
    )
    .map((m) => m.id);
}

/**
 * GET /users/me/{stream_id}/topics (spec §4.11): one entry per topic with its newest message, most recent
 * first. Without allow_empty_topic_name the empty topic shows as the display name (§1).
 */
export function channelTopics(
  tables: RealmState,
  user: UserRow,
  streamId: number,
  allowEmptyTopicName: boolean,
): { name: string; max_id: number }[] {
  const channel = channelById(tables, user, streamId, { access: 'content', archived: false });
  const latest = new Map<string, { name: string; max_id: number }>();
  for (const id of visibleMessageIds(tables, user, channel)) {
    const m = tables.messages[String(id)]!;
    const key = m.subject.toLowerCase();
    const entry = latest.get(key);
    // The topic's name is that of its newest message (a later message may differ in letter case).
    if (!entry || id > entry.max_id) latest.set(key, { name: m.subject, max_id: id });
  }
  return [...latest.values()]
    .sort((a, b) => b.max_id - a.max_id)
    .map((t) => ({ name: t.name === '' && !allowEmptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : t.name, max_id: t.max_id }));
}

/**
 * POST /mark_topic_as_read (spec §4.9): every unread message of the topic becomes read for the caller.
 * The empty topic (also named by the display name or, from level 370, `(no topic)`) marks only its own
 * messages, never the whole channel (C13), and needs no message to exist; a named topic in which the
 * caller has no message is `No such topic` (reference §4.9).
 */
export function markTopicAsRead(tx: Tx, user: UserRow, streamId: number, topicName: string, features: Features): void {
  const channel = channelById(tx.tables, user, streamId, { access: 'content', archived: false });
  const topic = readTopic(topicName, features);
  const me = String(user.user_id);
  const ids = Object.values(tx.tables.messages)
    .filter(
      (m) =>
        m.stream_id === channel.stream_id && sameTopic(m.subject, topic) && tx.tables.user_messages[String(m.id)]?.flags[me] !== undefined,
    )
    .map((m) => m.id);
  if (topic !== '' && ids.length === 0) throw badRequest(`No such topic '${topicName}'`);
  markRead(tx, user.user_id, ids);
}
