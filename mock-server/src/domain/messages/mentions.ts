import { topicMessages } from '../../store/indexes.js';
import type { MessageRow, RealmState, UserRow } from '../../store/state.js';
import { groupMembers } from '../access.js';
import { badRequest } from '../errors.js';
import { mayMentionGroup } from '../permissions.js';

/** What the renderer found (domain/markdown.ts `Mentions`): non-silent mentions only. */
export interface MentionData {
  userIds: number[];
  groupIds: number[];
  wildcard: 'channel' | 'topic' | null;
  /** A non-silent `@**topic**`, also when a channel wildcard takes `wildcard`. */
  topicWildcard: boolean;
}

/** Reference server: a non-silent group mention needs the group's can_mention_group (checked before sending). */
export function checkGroupMentions(
  tables: Pick<RealmState, 'users' | 'user_groups' | 'subscriptions'>,
  sender: UserRow,
  mentions: MentionData,
): void {
  for (const id of mentions.groupIds) {
    const group = tables.user_groups[String(id)];
    if (group && !mayMentionGroup(tables, sender, group)) throw badRequest(`You are not allowed to mention user group '${group.name}'.`);
  }
}

/**
 * The mention flags of spec §2.5 for each receiver of a new message. `mentioned`: named directly or as a
 * member of a mentioned group (subgroups included). Channel wildcards (`@**all**`, `@**channel**`, …)
 * give every receiver `stream_wildcard_mentioned`; `@**topic**` gives `topic_wildcard_mentioned` to the
 * topic's participants, the people who already posted in it (reference server's rule); either adds the
 * legacy `wildcard_mentioned` (§2.5). Wildcards only apply to channel messages.
 */
export function mentionFlags(
  tables: Pick<RealmState, 'users' | 'user_groups' | 'messages' | 'user_messages' | 'subscriptions'>,
  message: MessageRow,
  mentions: MentionData,
): (userId: number) => string[] {
  const direct = new Set(mentions.userIds);
  for (const groupId of mentions.groupIds) for (const id of groupMembers(tables, groupId)) direct.add(id);
  const isStream = message.type === 'stream';
  const participants = isStream && mentions.wildcard === 'topic' ? topicParticipants(tables, message) : new Set<number>();
  return (userId) => {
    const flags: string[] = [];
    if (direct.has(userId)) flags.push('mentioned');
    if (isStream && mentions.wildcard === 'channel') flags.push('stream_wildcard_mentioned', 'wildcard_mentioned');
    else if (participants.has(userId)) flags.push('topic_wildcard_mentioned', 'wildcard_mentioned');
    return flags;
  };
}

/** Senders of earlier messages in the message's topic (topics compare case-insensitively). */
function topicParticipants(
  tables: Pick<RealmState, 'users' | 'messages' | 'user_messages' | 'subscriptions'>,
  message: MessageRow,
): Set<number> {
  const out = new Set<number>();
  if (message.stream_id === null) return out;
  for (const id of topicMessages(tables, message.stream_id, message.subject) ?? []) {
    if (id !== message.id) out.add(tables.messages[String(id)]!.sender_id);
  }
  return out;
}
