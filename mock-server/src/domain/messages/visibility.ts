import type { ChannelRow, MessageRow, RealmState, UserRow } from '../../store/state.js';
import { channelContentAccess, isGuest } from '../access.js';
import { activeSubscriberIds } from '../channels/subscribers.js';

type Tables = Pick<RealmState, 'channels' | 'users' | 'user_groups' | 'subscriptions' | 'user_messages'>;

/**
 * Two rules decide what a user sees of a message, and they differ for someone who left a channel:
 * - access by ID (messageAccess): what GET /messages/{id}, reactions, edits, moves, deletions, edit
 *   history, reports, reminders, read receipts, `with` narrows and Markdown topic links check. It needs
 *   access to the channel as it is now, so leaving a private channel (or, for a guest, a public one)
 *   takes it away even for the messages the user received there;
 * - listing (messageListable): what GET /messages can find for the user, and what an uploaded file's
 *   readers are judged by. The user's own copies (user_messages rows) stay when they unsubscribe, so a
 *   message they received stays listable; their feed still shows it after they left.
 */

/** The caller's flags on a message they received, or undefined when they never received it. */
export function receivedFlags(tables: Pick<RealmState, 'user_messages'>, user: UserRow, messageId: number): string[] | undefined {
  return tables.user_messages[String(messageId)]?.flags[String(user.user_id)];
}

function channelOf(tables: Pick<RealmState, 'channels'>, message: MessageRow): ChannelRow | undefined {
  return message.type === 'stream' && message.stream_id !== null ? tables.channels[String(message.stream_id)] : undefined;
}

/**
 * Access to a message named by its ID (§4.3 "not visible to the caller"; reference has_message_access):
 * - a direct message: only one the user received;
 * - a public channel's message: every user who may read public channels, i.e. not a guest;
 * - protected history (history_public_to_subscribers false): received AND content access now
 *   (access.ts: a subscription, or a granting group), so a former subscriber loses what they received;
 * - shared history: content access now (web-public for everyone, a subscription, a granting group).
 * Choice (newer reference level): messages of archived channels stay readable; changing them is refused
 * separately (permissions.ts mayModifyMessageInChannel).
 */
export function messageAccess(tables: Tables, user: UserRow, message: MessageRow): boolean {
  const received = receivedFlags(tables, user, message.id) !== undefined;
  if (message.type !== 'stream') return received;
  const channel = channelOf(tables, message);
  if (!channel) return false;
  if (!channel.invite_only && !isGuest(user)) return true;
  if (!channel.history_public_to_subscribers) return received && channelContentAccess(tables, user, channel);
  return channelContentAccess(tables, user, channel);
}

/**
 * Whether GET /messages can list a message for the user (reference: narrows are answered from the
 * user's own copies, plus a channel's whole history when the narrow names a channel whose history the
 * user may read, can_access_stream_history): a message they received, even in a channel they left since;
 * otherwise a channel message of shared history whose content they may access. Uploaded files follow the
 * same rule (reference validate_attachment_request: whoever received a message that links the file).
 */
export function messageListable(tables: Tables, user: UserRow, message: MessageRow): boolean {
  if (receivedFlags(tables, user, message.id) !== undefined) return true;
  const channel = channelOf(tables, message);
  return channel !== undefined && channel.history_public_to_subscribers && channelContentAccess(tables, user, channel);
}

/** The message with this ID when the user has access to it; undefined answers exactly like a missing one. */
export function accessibleMessage(tables: Tables & Pick<RealmState, 'messages'>, user: UserRow, messageId: number): MessageRow | undefined {
  const message = tables.messages[String(messageId)];
  return message && messageAccess(tables, user, message) ? message : undefined;
}

/**
 * Who hears of a change to a message (companion tier: edits, moves, deletions, reactions; reference
 * event_recipient_ids_for_action_on_messages, which follows has_message_access): for a direct message,
 * those who received it; for protected history, the current subscribers who received it; for a private
 * channel with shared history, its current subscribers; for a public channel, its current subscribers
 * and the non-guests who hold a copy (a former subscriber, a user who starred or reacted). Anyone who
 * lost access hears nothing. Like the reference, users who could read a public channel without a copy
 * (and members of a granting group who never subscribed) learn of the change when they next fetch.
 * Deactivated users and system bots have no queues to tell.
 */
export function messageAudience(tables: RealmState, message: MessageRow): Set<number> {
  const holders = Object.keys(tables.user_messages[String(message.id)]?.flags ?? {}).map(Number);
  const channel = channelOf(tables, message);
  let ids: number[];
  if (message.type !== 'stream') ids = holders;
  else if (!channel) ids = [];
  else {
    const subscribers = new Set(activeSubscriberIds(tables, channel.stream_id));
    if (!channel.history_public_to_subscribers) ids = holders.filter((id) => subscribers.has(id));
    else if (channel.invite_only) ids = [...subscribers];
    else ids = [...subscribers, ...holders.filter((id) => !subscribers.has(id) && !isGuestId(tables, id))];
  }
  const out = new Set<number>();
  for (const id of ids) {
    const user = tables.users[String(id)];
    if (user?.is_active && !user.is_system_bot) out.add(id);
  }
  return out;
}

function isGuestId(tables: Pick<RealmState, 'users'>, id: number): boolean {
  const user = tables.users[String(id)];
  return user === undefined || isGuest(user);
}
