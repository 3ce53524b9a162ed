import type { Features } from '../../config/features.js';
import { indexOf, topicMessages } from '../../store/indexes.js';
import type { ChannelRow, GroupSettingValue, RealmState, UserRow } from '../../store/state.js';
import { channelWildcardNotAllowed, topicWildcardNotAllowed } from '../errors.js';
import { mayMentionManyUsers } from '../permissions.js';
import { systemGroupId } from '../present/channels.js';

/**
 * Wildcard mentions refused by the organization's policy (companion tier; reference send-message and
 * update-message). A wildcard mention is refused only where it would notify many people: a channel wildcard
 * (`@**all**`, `@**everyone**`, `@**channel**`, `@**stream**`) in a channel with more than
 * WILDCARD_MENTION_THRESHOLD active subscribers, a topic wildcard (`@**topic**`) in a topic with more than
 * that many participants. There the sender needs the realm's can_mention_many_users_group (below feature
 * level 352 the realm's wildcard_mention_policy, which names the same system groups).
 *
 * By level (reference changelog, feature level 229): from 229 the refusals have codes of their own and topic
 * wildcards are refused too; before it only channel wildcards were refused, as BAD_REQUEST.
 */

/** The reference's threshold: 15 people may always be notified at once. */
export const WILDCARD_MENTION_THRESHOLD = 15;

type Tables = Pick<RealmState, 'realm' | 'users' | 'user_groups' | 'subscriptions' | 'messages' | 'user_messages'>;

/** Reference default for a new organization: administrators (wildcard_mention_policy 5, role:administrators). */
const DEFAULT_GROUP = 'role:administrators';

const NOBODY: GroupSettingValue = { direct_members: [], direct_subgroups: [] };

/** The realm's can_mention_many_users_group, with the reference's default when never set. */
export function mentionManySetting(tables: Pick<RealmState, 'realm' | 'user_groups'>): GroupSettingValue {
  return tables.realm.realm.can_mention_many_users_group ?? systemGroupId(tables, DEFAULT_GROUP) ?? NOBODY;
}

/**
 * The legacy wildcard_mention_policy values (reference, before level 352) and the system group each names.
 * 4 (channel administrators) was dropped by the reference at level 133, before any level this server emulates.
 */
export const WILDCARD_MENTION_POLICIES: ReadonlyMap<number, string> = new Map([
  [1, 'role:everyone'],
  [2, 'role:members'],
  [3, 'role:fullmembers'],
  [5, 'role:administrators'],
  [6, 'role:nobody'],
  [7, 'role:moderators'],
]);

/**
 * realm_wildcard_mention_policy as register shows it: the policy whose group is the setting, or (a setting the
 * old values cannot say, as the reference does from level 352) the smallest policy that includes everyone
 * the setting allows: owners read as administrators, any other group as everyone.
 */
export function wildcardMentionPolicy(tables: Pick<RealmState, 'realm' | 'user_groups'>): number {
  const value = mentionManySetting(tables);
  const group = typeof value === 'number' ? tables.user_groups[String(value)] : undefined;
  if (!group?.is_system_group) return 1;
  if (group.name === 'role:owners') return 5;
  for (const [policy, name] of WILDCARD_MENTION_POLICIES) if (name === group.name) return policy;
  return 1;
}

/** What a rendering found (domain/markdown.ts Mentions): a channel wildcard, and a topic wildcard beside it or alone. */
export interface Wildcards {
  wildcard: 'channel' | 'topic' | null;
  topicWildcard: boolean;
}

/**
 * Refuses the channel message's wildcard mentions the sender may not use (send-message, and update-message
 * when the content changes), the channel wildcard first as the reference checks it. Topic participants are
 * the people who sent or reacted to a message of the topic (topics compare case-insensitively), plus the
 * sender, whose message the topic is about to hold.
 */
export function checkWildcardMentions(
  tables: Tables,
  features: Features,
  sender: UserRow,
  channel: ChannelRow,
  topic: string,
  mentions: Wildcards,
): void {
  const channelWildcard = mentions.wildcard === 'channel';
  const topicWildcard = mentions.topicWildcard && features.has('wildcard_mention_error_codes');
  if (!channelWildcard && !topicWildcard) return;
  const allowed = () => mayMentionManyUsers(tables, sender, mentionManySetting(tables));
  if (channelWildcard && indexOf(tables).people.subscriberCount(channel.stream_id) > WILDCARD_MENTION_THRESHOLD && !allowed())
    throw channelWildcardNotAllowed(features);
  if (topicWildcard && topicParticipantCount(tables, channel.stream_id, topic, sender.user_id) > WILDCARD_MENTION_THRESHOLD && !allowed())
    throw topicWildcardNotAllowed();
}

/** Senders and reactors of the topic's messages, with `senderId`; stops counting past the threshold. */
function topicParticipantCount(tables: Tables, streamId: number, topic: string, senderId: number): number {
  const people = new Set<number>([senderId]);
  for (const id of topicMessages(tables, streamId, topic) ?? []) {
    const message = tables.messages[String(id)];
    if (!message) continue;
    people.add(message.sender_id);
    for (const r of message.reactions) people.add(r.user_id);
    if (people.size > WILDCARD_MENTION_THRESHOLD) break;
  }
  return people.size;
}

/** The register keys of type `realm` for the policy (reference names): the group setting only from level 352. */
export function mentionRealmKeys(tables: Pick<RealmState, 'realm' | 'user_groups'>, features: Features): Record<string, unknown> {
  return {
    realm_wildcard_mention_policy: wildcardMentionPolicy(tables),
    ...(features.has('can_mention_many_users_group') ? { realm_can_mention_many_users_group: mentionManySetting(tables) } : {}),
  };
}
