import { appendTo } from '../../domain/lists.js';
import { presentTopic } from '../../domain/topics.js';
import { indexOf } from '../../store/indexes.js';
import { byNumber, visibleChannel } from './context.js';
import type { SnapshotContext } from './context.js';

/** Spec §2.13 / §8: unread_msgs covers at most the 50000 most recent unread messages. */
export const MAX_UNREAD_MESSAGES = 50_000;

/** The wildcard flags of §2.5 (wildcard_mentioned is the legacy union of the other two). */
const WILDCARD_FLAGS = ['wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

/**
 * Type `message` (§4.21): the newest message the viewer received; -1 when there is none. A spectator
 * gets the newest message of a web-public channel it may see (one that has receipts, as every sent
 * message does).
 */
export function maxMessageId(ctx: SnapshotContext): number {
  const { tables, viewer } = ctx;
  const index = indexOf(tables);
  if (viewer) return index.receipts.of(viewer.user_id).received.last ?? -1;
  let max = -1;
  for (const channel of Object.values(tables.channels)) {
    if (!channel.is_web_public || !visibleChannel(ctx, channel)) continue;
    for (const id of index.messages.channel(channel.stream_id)?.ids.descending() ?? []) {
      if (id <= max) break;
      if (tables.user_messages[String(id)] !== undefined) {
        max = id;
        break;
      }
    }
  }
  return max;
}

/**
 * Spec §2.13 unread_msgs for the viewer. Channel messages count only while the viewer is subscribed
 * (an unsubscribed channel's unread messages are not shown, as on the reference server) and the
 * channel is visible to the client (§4.21 archived_channels). `count` leaves out muted channels but
 * `streams` keeps them; `mentions` holds direct mentions and wildcard mentions outside muted channels.
 */
export function unreadMsgs(ctx: SnapshotContext): Record<string, unknown> {
  const { tables, viewer, options } = ctx;
  const empty = { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: false };
  if (viewer === null) return empty;
  const me = String(viewer.user_id);
  // Keep the most recent 50000 (§8), in ascending order: the tail of the viewer's unread index.
  const unread = indexOf(tables).receipts.of(viewer.user_id).unread;
  const kept: number[] = [];
  for (let i = Math.max(0, unread.size - MAX_UNREAD_MESSAGES); i < unread.size; i++) kept.push(unread.at(i));

  let count = 0;
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const mentions: number[] = [];
  for (const id of kept) {
    const m = tables.messages[String(id)];
    if (!m) continue;
    const flags = tables.user_messages[String(id)]!.flags[me]!;
    let muted = false;
    if (m.type === 'private') {
      const users = m.dm_user_ids ?? [];
      if (users.length <= 2) appendTo(pms, users.find((u) => u !== viewer.user_id) ?? viewer.user_id, id);
      else appendTo(huddles, [...users].sort(byNumber).join(','), id);
      count++;
    } else {
      const channel = m.stream_id !== null ? tables.channels[String(m.stream_id)] : undefined;
      const sub = channel ? tables.subscriptions[`${me}:${channel.stream_id}`] : undefined;
      if (!visibleChannel(ctx, channel) || !sub?.active) continue;
      muted = sub.is_muted;
      const topic = presentTopic(m.subject, options.client);
      const key = `${channel.stream_id}\u0000${topic}`;
      const entry = streams.get(key) ?? { stream_id: channel.stream_id, topic, unread_message_ids: [] };
      entry.unread_message_ids.push(id);
      streams.set(key, entry);
      if (!muted) count++;
    }
    if (flags.includes('mentioned') || (!muted && WILDCARD_FLAGS.some((f) => flags.includes(f)))) mentions.push(id);
  }
  return {
    count,
    pms: [...pms.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
    streams: [...streams.values()].sort((a, b) => a.stream_id - b.stream_id || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0)),
    huddles: [...huddles.entries()]
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
    mentions,
    old_unreads_missing: false,
  };
}

/**
 * Type `recent_private_conversations` (§2.13, §4.21): one entry per set of other participants, newest
 * first by max_message_id; `user_ids` leaves out the viewer, so a self-conversation has `[]`.
 */
export function recentPrivateConversations(ctx: SnapshotContext): unknown[] {
  const { tables, viewer } = ctx;
  if (viewer === null) return [];
  const latest: { max_message_id: number; user_ids: number[] }[] = [];
  for (const [key, ids] of indexOf(tables).messages.conversations(viewer.user_id)) {
    latest.push({ max_message_id: ids.last!, user_ids: key === '' ? [] : key.split(',').map(Number) });
  }
  return latest.sort((a, b) => b.max_message_id - a.max_message_id);
}
