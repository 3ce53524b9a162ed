import type { ClientView } from '../../contract/client-view.js';
import type { ParamsOf } from '../../contract/operation-types.js';
import type { EventOf } from '../../contract/event-types.js';
import { ownedRows } from '../../store/indexes.js';
import type { RealmState, UserRow, UserTopicRow } from '../../store/state.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { channelById, invalidChannelId } from '../channels/lookup.js';
import { presentTopic, readTopic } from '../topics.js';

/**
 * Topic visibility policies (reference: POST /user_topics; register's user_topics and legacy
 * muted_topics). Each user sets their own, so there is no permission rule beyond channel access. A topic
 * is matched in any letter case, as the reference server matches it; the row keeps the spelling last
 * sent. Policy 0 means no row.
 */
export type VisibilityPolicy = 0 | 1 | 2 | 3;
const MUTED = 1;
const FOLLOWED = 3;

const rowKey = (userId: number, streamId: number, topic: string) => `${userId}:${streamId}:${topic.toLowerCase()}`;

const UNMUTED = 2;

/** The user's policy for a topic (0: none), matched in any letter case. */
function policyOf(tables: Pick<RealmState, 'user_topics'>, userId: number, streamId: number, topic: string): number {
  return tables.user_topics[rowKey(userId, streamId, topic)]?.visibility_policy ?? 0;
}

/** Whether the user follows this topic (policy 3): GET /messages `is:followed`. */
export function followsTopic(tables: Pick<RealmState, 'user_topics'>, userId: number, streamId: number, topic: string): boolean {
  return policyOf(tables, userId, streamId, topic) === FOLLOWED;
}

/**
 * Whether muting hides a channel message from the user (reference exclude_muting_conditions, for
 * `in:home` and the first unread message): a muted topic always; in a muted channel every topic the
 * user did not unmute or follow.
 */
export function hiddenByMuting(
  tables: Pick<RealmState, 'user_topics'>,
  userId: number,
  streamId: number,
  topic: string,
  channelMuted: boolean,
): boolean {
  const policy = policyOf(tables, userId, streamId, topic);
  return channelMuted ? policy !== UNMUTED && policy !== FOLLOWED : policy === MUTED;
}

/** A user's rows, by channel then topic (a stable order for the snapshot). */
export function userTopicsOf(tables: Pick<RealmState, 'user_topics'>, userId: number): UserTopicRow[] {
  return ownedRows(tables, 'user_topics', userId).sort(
    (a, b) => a.stream_id - b.stream_id || (a.topic_name.toLowerCase() < b.topic_name.toLowerCase() ? -1 : 1),
  );
}

/** register's user_topics: every policy of the user. */
export function presentUserTopics(tables: Pick<RealmState, 'user_topics'>, userId: number, client: Pick<ClientView, 'empty_topic_name'>) {
  return userTopicsOf(tables, userId).map((row) => ({
    stream_id: row.stream_id,
    topic_name: presentTopic(row.topic_name, client),
    last_updated: row.last_updated,
    visibility_policy: row.visibility_policy,
  }));
}

/** register's and the legacy event's muted_topics: [channel name, topic, time muted] of each muted topic. */
export function mutedTopics(
  tables: Pick<RealmState, 'user_topics' | 'channels'>,
  userId: number,
  client: Pick<ClientView, 'empty_topic_name'>,
): [string, string, number][] {
  return userTopicsOf(tables, userId)
    .filter((row) => row.visibility_policy === MUTED && tables.channels[String(row.stream_id)] !== undefined)
    .map((row) => [tables.channels[String(row.stream_id)]!.name, presentTopic(row.topic_name, client), row.last_updated]);
}

/**
 * POST /user_topics. Setting a policy needs content access to the channel (archived channels included:
 * muting a topic there harms nobody); removing one only that the channel exists, so a user who lost
 * access can still clear it (the reference server's rule). Events to the user's queues only (writePolicy).
 */
export function setUserTopicPolicy(
  tx: Tx,
  user: UserRow,
  now: number,
  p: { streamId: number; topic: string; policy: VisibilityPolicy },
): void {
  if (p.policy === 0) {
    if (!tx.tables.channels[String(p.streamId)]) throw invalidChannelId();
  } else {
    channelById(tx.tables, user, p.streamId, { access: 'content', archived: true });
  }
  writePolicy(tx, user.user_id, now, { streamId: p.streamId, topic: p.topic, policy: p.policy }, true);
}

/**
 * Writes one user's policy for a topic (0: the row goes) and tells that user's queues: the legacy
 * `muted_topics` with the whole muted list (shaped per client in events/shape.ts) unless `mutedEvent` is
 * false, then `user_topic`.
 */
export function writePolicy(
  tx: Tx,
  userId: number,
  now: number,
  p: { streamId: number; topic: string; policy: VisibilityPolicy },
  mutedEvent: boolean,
): void {
  const key = rowKey(userId, p.streamId, p.topic);
  if (p.policy === 0) {
    if (tx.tables.user_topics[key]) tx.delete('user_topics', key);
  } else {
    tx.put('user_topics', key, {
      user_id: userId,
      stream_id: p.streamId,
      topic_name: p.topic,
      last_updated: now,
      visibility_policy: p.policy,
    });
  }
  if (mutedEvent) {
    // Both forms now (the rows as of this change); each queue gets the one its empty_topic_name asks for.
    const muted = {
      named: mutedTopics(tx.tables, userId, { empty_topic_name: true }),
      shown: mutedTopics(tx.tables, userId, { empty_topic_name: false }),
    };
    tx.emit({ type: 'muted_topics', muted_topics: muted.named }, [userId], (client) => ({
      type: 'muted_topics',
      muted_topics: client.empty_topic_name ? muted.named : muted.shown,
    }));
  }
  const event: EventOf<'user_topic'> = {
    type: 'user_topic',
    stream_id: p.streamId,
    topic_name: p.topic,
    last_updated: now,
    visibility_policy: p.policy,
  };
  tx.emit(event, [userId], (client) => ({ ...event, topic_name: presentTopic(p.topic, client) }));
}

/** Each user's policy for one topic (users without one left out), looked up per user by the row's key. */
export function topicPolicies(
  tables: Pick<RealmState, 'user_topics' | 'users'>,
  streamId: number,
  topic: string,
): Map<number, VisibilityPolicy> {
  const out = new Map<number, VisibilityPolicy>();
  for (const id of Object.keys(tables.users)) {
    const row = tables.user_topics[rowKey(Number(id), streamId, topic)];
    if (row) out.set(row.user_id, row.visibility_policy as VisibilityPolicy);
  }
  return out;
}

/** POST /user_topics (companion tier): the topic read as topics are everywhere (§1). */
export function doUpdateUserTopic(tx: Tx, actor: ActorContext, params: ParamsOf<'update-user-topic'>): void {
  const topic = readTopic(params.topic, actor.features);
  setUserTopicPolicy(tx, actor.user, actor.now, {
    streamId: params.stream_id,
    topic,
    policy: params.visibility_policy as VisibilityPolicy,
  });
}
