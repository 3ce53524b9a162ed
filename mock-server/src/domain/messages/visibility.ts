import type { MessageRow, RealmState, UserRow } from '../../store/state.js';
import { channelContentAccess } from '../access.js';

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
