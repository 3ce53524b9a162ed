import type { Features } from '../config/features.js';
import type { ClientView } from '../contract/client-view.js';
import { topicMessages, type IndexedTables } from '../store/indexes.js';
import type { ChannelRow, RealmRow, RealmState, TopicsPolicy, UserRow } from '../store/state.js';
import { badRequest, mayNotCreateTopic } from './errors.js';
import { mayCreateTopic } from './permissions.js';

/**
 * Topic rules of spec §1 and §3, in one module for every operation that reads or shows a topic
 * (sending, scheduled messages, drafts, topic lists, fetches, events). Messages that the spec and the
 * reference doc leave unconfirmed are ours and say so.
 */

/** realm_empty_topic_display_name (reference §1 "Topics"). */
export const EMPTY_TOPIC_DISPLAY_NAME = 'general chat';
/** Reference §8: max_topic_length. Longer topics are truncated, not refused (reference §1, likely). */
export const MAX_TOPIC_LENGTH = 60;
const NO_TOPIC = '(no topic)';

/** Responses and events: clients without empty-topic support see the display name instead of "" (§1, §4.21). */
export function presentTopic(topic: string, client: Pick<ClientView, 'empty_topic_name'>): string {
  return topic === '' && !client.empty_topic_name ? EMPTY_TOPIC_DISPLAY_NAME : topic;
}

/**
 * What a topic parameter means (§1): surrounding whitespace stripped, truncated to the limit; the
 * realm's display name is the empty topic; `(no topic)` too from feature level 370 (§9). A NUL byte is
 * refused (reference §4.6).
 */
export function readTopic(raw: string, features: Features): string {
  if (raw.includes('\u0000')) throw badRequest('Topic must not contain null bytes');
  const topic = raw.trim();
  if (topic === EMPTY_TOPIC_DISPLAY_NAME) return '';
  if (topic === NO_TOPIC && features.has('no_topic_reads_as_empty')) return '';
  return [...topic].slice(0, MAX_TOPIC_LENGTH).join('');
}

/** A channel's policy with `inherit` resolved to the realm's default (§2.2, §3). */
export function effectiveTopicsPolicy(
  channel: Pick<ChannelRow, 'topics_policy'>,
  realm: Pick<RealmRow, 'topics_policy'>,
): Exclude<TopicsPolicy, 'inherit'> {
  return channel.topics_policy === 'inherit' ? realm.topics_policy : channel.topics_policy;
}

/**
 * Whether a channel message may use this (already read) topic (§1 "where a topic is required", read
 * through topics_policy as the reference doc says; §3). Before level 334 the empty topic does not exist.
 */
export function checkChannelTopic(
  topic: string,
  channel: Pick<ChannelRow, 'topics_policy'>,
  realm: Pick<RealmRow, 'topics_policy'>,
  features: Features,
): void {
  const policy = effectiveTopicsPolicy(channel, realm);
  if (topic === '') {
    // Texts ours (the reference marks them unconfirmed).
    if (!features.has('empty_topic_name')) throw badRequest("Topic can't be empty!");
    if (policy === 'disable_empty_topic')
      throw badRequest(`Sending messages to the ${EMPTY_TOPIC_DISPLAY_NAME} is not allowed in this channel.`);
  } else if (policy === 'empty_topic_only') {
    throw badRequest(`Only the ${EMPTY_TOPIC_DISPLAY_NAME} topic is allowed in this channel.`);
  }
}

/**
 * §3 transition: a channel may move to `empty_topic_only` only when every message it holds is already
 * in the empty topic.
 */
export function checkEmptyTopicOnlyTransition(topicsOfChannel: Iterable<string>): void {
  for (const topic of topicsOfChannel) {
    if (topic !== '')
      throw badRequest(`To allow only the ${EMPTY_TOPIC_DISPLAY_NAME} topic, move every message of this channel to it first.`);
  }
}

/**
 * Messages arriving in a topic with no message yet (sending, moving) start it: from level 441 that needs
 * the channel's can_create_topic_group (reference check_for_can_create_topic_group_violation). Whether the
 * topic exists counts every message of it, seen by the caller or not, as on the reference server; when the
 * group is everyone nothing is asked.
 */
export function checkTopicCreation(
  tables: RealmState & IndexedTables,
  features: Features,
  user: UserRow,
  channel: ChannelRow,
  topic: string,
): void {
  if (!features.has('can_create_topic_group')) return;
  if ((topicMessages(tables, channel.stream_id, topic)?.size ?? 0) > 0) return;
  if (!mayCreateTopic(tables, user, channel)) throw mayNotCreateTopic();
}
