import type { MessageRow, RealmState, UserRow } from '../../store/state.js';
import { channelContentAccess } from '../access.js';
import { activeSubscriberIds } from '../channels/subscribers.js';

type Tables = Pick<RealmState, 'channels' | 'users' | 'user_groups' | 'subscriptions' | 'user_messages'>;

/** The caller's flags on a message they received, or undefined when they never received it. */
export function receivedFlags(tables: Pick<RealmState, 'user_messages'>, user: UserRow, messageId: number): string[] | undefined {
  return tables.user_messages[String(messageId)]?.flags[String(user.user_id)];
}

/**
 * Whether a user may read a message (§4.3 "not visible to the caller"; reference §4.3, §4.13, §4.19:
 * the same rule everywhere a message is named by ID): a message they received, always; otherwise a
 * channel message whose history is shared with subscribers (history_public_to_subscribers) in a channel
 * whose content they may access (access.ts: public channels for non-guests, web-public for everyone,
 * private ones by subscription or a granting group). Protected history and other people's direct
 * messages stay invisible. Messages of archived channels remain readable (reference §4.3).
 */
export function messageVisibleTo(tables: Tables, user: UserRow, message: MessageRow): boolean {
  if (receivedFlags(tables, user, message.id) !== undefined) return true;
  if (message.type !== 'stream' || message.stream_id === null) return false;
  const channel = tables.channels[String(message.stream_id)];
  if (!channel || !channel.history_public_to_subscribers) return false;
  return channelContentAccess(tables, user, channel);
}

/** The message with this ID when the user may read it; undefined answers exactly like a missing one. */
export function visibleMessage(tables: Tables & Pick<RealmState, 'messages'>, user: UserRow, messageId: number): MessageRow | undefined {
  const message = tables.messages[String(messageId)];
  return message && messageVisibleTo(tables, user, message) ? message : undefined;
}

/**
 * Who hears of a change to a message (companion tier: edits, moves, deletions, reactions): the reference server tells the
 * users who received it and, for a channel whose history is shared, its current subscribers; here both
 * only while they may still see the message (the rule of messageVisibleTo above), so an event
 * never reaches someone who could not fetch the message. Users who are neither (a non-subscriber who
 * could read a public channel's history) learn of it when they next fetch, as with new messages.
 */
export function messageAudience(tables: RealmState, message: MessageRow): Set<number> {
  const candidates = new Set<number>();
  for (const id in tables.user_messages[String(message.id)]?.flags ?? {}) candidates.add(Number(id));
  if (message.stream_id !== null) for (const id of activeSubscriberIds(tables, message.stream_id)) candidates.add(id);
  const out = new Set<number>();
  for (const id of candidates) {
    const user = tables.users[String(id)];
    if (user?.is_active && !user.is_system_bot && messageVisibleTo(tables, user, message)) out.add(id);
  }
  return out;
}
