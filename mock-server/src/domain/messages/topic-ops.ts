import type { ParamsOf } from '../../contract/operation-types.js';
import { indexOf } from '../../store/indexes.js';
import { topicKey } from '../../store/index-messages.js';
import type { SortedList } from '../../store/sorted-ids.js';
import type { Tx } from '../../store/store.js';
import type { ChannelRow, RealmState, UserRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { channelById } from '../channels/lookup.js';
import { badRequest } from '../errors.js';
import { EMPTY_TOPIC_DISPLAY_NAME, readTopic } from '../topics.js';
import { markRead } from './flags.js';

/** Whether the user received the message (has flags for it). */
const received = (tables: Pick<RealmState, 'user_messages'>, me: string, id: number) =>
  tables.user_messages[String(id)]?.flags[me] !== undefined;

/**
 * The newest message of a topic (its IDs, ascending) that the user may see, spec §4.11: with protected
 * history (history_public_to_subscribers false) only those the user received, that is those sent while
 * subscribed (for a bot, the bot's own subscription); otherwise every message of the channel.
 */
function newestVisible(tables: RealmState, user: UserRow, channel: ChannelRow, ids: SortedList): number | undefined {
  if (channel.history_public_to_subscribers) return ids.last;
  const me = String(user.user_id);
  for (const id of ids.descending()) if (received(tables, me, id)) return id;
  return undefined;
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
  const latest: { name: string; max_id: number }[] = [];
  for (const ids of indexOf(tables).messages.channel(channel.stream_id)?.topics.values() ?? []) {
    const id = newestVisible(tables, user, channel, ids);
    // The topic's name is that of its newest message (a later message may differ in letter case).
    if (id !== undefined) latest.push({ name: tables.messages[String(id)]!.subject, max_id: id });
  }
  return latest
    .sort((a, b) => b.max_id - a.max_id)
    .map((t) => ({ name: t.name === '' && !allowEmptyTopicName ? EMPTY_TOPIC_DISPLAY_NAME : t.name, max_id: t.max_id }));
}

/**
 * POST /mark_topic_as_read (spec §4.9): every unread message of the topic becomes read for the caller.
 * The empty topic (also named by the display name or, from level 370, `(no topic)`) marks only its own
 * messages, never the whole channel (C13), and needs no message to exist; a named topic in which the
 * caller has no message is `No such topic` (reference §4.9).
 */
export function doMarkTopicAsRead(tx: Tx, actor: ActorContext, params: ParamsOf<'mark-topic-as-read'>): void {
  const { user } = actor;
  const topicName = params.topic_name;
  const channel = channelById(tx.tables, user, params.stream_id, { access: 'content', archived: false });
  const topic = readTopic(topicName, actor.features);
  const me = String(user.user_id);
  const index = indexOf(tx.tables);
  const inTopic = index.messages.topic(channel.stream_id, topic);
  let any = false;
  for (const id of inTopic?.descending() ?? []) if ((any = received(tx.tables, me, id))) break;
  if (topic !== '' && !any) throw badRequest(`No such topic '${topicName}'`);
  if (!inTopic) return;
  // Only unread messages change: walk the shorter of the topic and the caller's unread messages (copies,
  // as marking changes the index).
  const unread = index.receipts.of(user.user_id).unread;
  const key = topicKey(topic);
  const ids =
    unread.size < inTopic.size
      ? unread.toArray().filter((id) => {
          const m = tx.tables.messages[String(id)];
          return m !== undefined && m.stream_id === channel.stream_id && topicKey(m.subject) === key;
        })
      : inTopic.toArray();
  markRead(tx, user.user_id, ids);
}
