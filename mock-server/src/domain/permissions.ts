import type {
  ChannelRow,
  GroupSettingValue,
  MessageRow,
  RealmEditingSettings,
  RealmRow,
  RealmState,
  RoleCode,
  UserRow,
} from '../store/state.js';
import { channelContentAccess, isGuest, isMember, isRealmAdmin, isSubscribed } from './access.js';
import { ROLE } from '../contract/roles.js';
import { messageListable } from './messages/visibility.js';

/**
 * Every permission rule of the service in one place (ARCHITECTURE rule 6; Outline's policies): pure
 * predicates over the tables, each citing the spec section it encodes. Actions ask these and choose the
 * error; nothing else decides who may do what. Visibility (content and metadata access) lives in
 * access.ts, since listings and events need it as much as actions do.
 */

type Tables = Pick<RealmState, 'users' | 'user_groups' | 'subscriptions'>;

const holds = (tables: Tables, user: UserRow, value: GroupSettingValue | undefined): boolean =>
  value !== undefined && isMember(tables, user.user_id, value);

/** §4.15 include_all_active: "Deprecated; administrators only" (C16). */
export function mayUseIncludeAllActive(user: UserRow): boolean {
  return isRealmAdmin(user);
}

/**
 * §2.2 can_administer_channel_group: "Who may administer the channel. Organization administrators always
 * may." Guests never administer a channel, whatever group they are put in (the reference server refuses
 * groups that contain them for this setting, see group-settings.ts).
 */
export function mayAdministerChannel(tables: Tables, user: UserRow, channel: ChannelRow): boolean {
  if (isRealmAdmin(user)) return true;
  return !isGuest(user) && holds(tables, user, channel.can_administer_channel_group);
}

/**
 * §4.16 "A private channel's permissions can only be changed by an administrator who is subscribed to it"
 * (C18): a privacy change (is_private, history_public_to_subscribers, is_web_public) of a private channel
 * needs a subscription on top of the right to administer it.
 */
export function mayChangePrivateChannelPrivacy(tables: Tables, user: UserRow, channel: ChannelRow): boolean {
  return !channel.invite_only || isSubscribed(tables, user.user_id, channel.stream_id);
}

/** Reference §4.16 step 3: making a channel private or public needs the realm's right to create such channels. */
export function mayCreatePrivateChannel(tables: Tables, realm: RealmRow, user: UserRow): boolean {
  return holds(tables, user, realm.can_create_private_channel_group);
}
export function mayCreatePublicChannel(tables: Tables, realm: RealmRow, user: UserRow): boolean {
  return !isGuest(user) && holds(tables, user, realm.can_create_public_channel_group);
}

/** §4.16 is_web_public: "the caller in can_create_web_public_channel_group" (server and realm settings are checked by the action). */
export function mayCreateWebPublicChannel(tables: Tables, realm: RealmRow, user: UserRow): boolean {
  return !isGuest(user) && holds(tables, user, realm.can_create_web_public_channel_group);
}

/** Reference §4.16 step 5: topics_policy needs the realm's topics-policy permission. */
export function maySetTopicsPolicy(tables: Tables, realm: RealmRow, user: UserRow): boolean {
  return holds(tables, user, realm.can_set_topics_policy_group);
}

/** Reference §4.16 step 9 (§9 level 407): the channel-level delete groups need the realm's delete-policy permission. */
export function maySetDeleteMessagePolicy(tables: Tables, realm: RealmRow, user: UserRow): boolean {
  return holds(tables, user, realm.can_set_delete_message_policy_group);
}

/** §4.16 is_default_stream (reference step 6): the realm's default-channel managers, administrators when unset. */
export function mayManageDefaultChannels(tables: Tables, realm: RealmRow, user: UserRow): boolean {
  return realm.can_manage_default_streams_group === undefined
    ? isRealmAdmin(user)
    : holds(tables, user, realm.can_manage_default_streams_group);
}

/**
 * §4.8 "Who may unsubscribe another user": an organization administrator (any user, any channel); a user
 * for a bot they own (any channel they can access); a user with access to the channel who belongs to its
 * can_remove_subscribers_group. Members of can_administer_channel_group alone may not (C12). The caller
 * themself is not "another user": anyone may leave.
 */
export function mayUnsubscribe(tables: Tables, actor: UserRow, target: UserRow, channel: ChannelRow): boolean {
  if (target.user_id === actor.user_id) return true;
  if (isRealmAdmin(actor)) return true;
  const access = channelContentAccess(tables, actor, channel);
  if (target.is_bot && target.bot_owner_id === actor.user_id) return access;
  return access && holds(tables, actor, channel.can_remove_subscribers_group);
}

/** Reference §4.8: "unsubscribing others" means any target that is neither the caller nor a bot the caller owns. */
export function isUnsubscribingOthers(actor: UserRow, target: UserRow): boolean {
  return target.user_id !== actor.user_id && !(target.is_bot && target.bot_owner_id === actor.user_id);
}

/**
 * §2.2 can_add_subscribers_group "Who may add subscribers" (with content access, §4.16), plus the people
 * who administer the channel, organization administrators first (§2.2 "always may").
 */
export function mayAddSubscribers(tables: Tables, actor: UserRow, channel: ChannelRow): boolean {
  if (mayAdministerChannel(tables, actor, channel)) return true;
  return !isGuest(actor) && channelContentAccess(tables, actor, channel) && holds(tables, actor, channel.can_add_subscribers_group);
}

/**
 * §2.3 can_subscribe_group: "Who may subscribe themselves; anyone except guests may subscribe to any
 * public channel regardless." Those who may add subscribers may add themselves too.
 */
export function maySubscribeSelf(tables: Tables, user: UserRow, channel: ChannelRow): boolean {
  // Already in: joining again is a no-op answered as already_subscribed, guests included.
  if (isSubscribed(tables, user.user_id, channel.stream_id)) return true;
  if (!isGuest(user) && !channel.invite_only) return true;
  if (!isGuest(user) && holds(tables, user, channel.can_subscribe_group)) return true;
  return mayAddSubscribers(tables, user, channel);
}

/**
 * Posting to a channel (reference §4.1 check 5; send-message). Two questions, two errors:
 * - may the sender reach the channel at all: a public channel for anyone but guests; otherwise a
 *   subscription, or for a bot its owner's subscription, or the realm's system bot (notification bot);
 * - is the sender in the channel's can_send_message_group (§2.3 "Who may post"; a bot counts through its
 *   owner too, as on the reference server).
 */
export function mayReachChannelForSending(tables: Tables, sender: UserRow, channel: ChannelRow): boolean {
  if (sender.is_system_bot) return true;
  if (!channel.invite_only && !isGuest(sender)) return true;
  if (isSubscribed(tables, sender.user_id, channel.stream_id)) return true;
  return sender.is_bot && sender.bot_owner_id !== null && isSubscribed(tables, sender.bot_owner_id, channel.stream_id);
}

export function mayPostToChannel(tables: Tables, sender: UserRow, channel: ChannelRow): boolean {
  if (sender.is_system_bot) return true;
  if (holds(tables, sender, channel.can_send_message_group)) return true;
  const owner = sender.is_bot && sender.bot_owner_id !== null ? tables.users[String(sender.bot_owner_id)] : undefined;
  return owner !== undefined && holds(tables, owner, channel.can_send_message_group);
}

/**
 * Starting a new topic (reference can_create_topic_group, feature level 441): the realm's system bots
 * always; otherwise members of the channel's can_create_topic_group, a bot through its owner too.
 */
export function mayCreateTopic(tables: Tables, user: UserRow, channel: ChannelRow): boolean {
  if (user.is_system_bot || holds(tables, user, channel.can_create_topic_group)) return true;
  const owner = user.is_bot && user.bot_owner_id !== null ? tables.users[String(user.bot_owner_id)] : undefined;
  return owner !== undefined && holds(tables, owner, channel.can_create_topic_group);
}

/**
 * §4.16 message_retention_days: "An organization administrator may edit any property" (C17: the
 * reference server wants an owner; the spec wins). Channel administrators who are not organization
 * administrators may not: retention deletes history, an organization-level decision.
 */
export function mayManageRetention(user: UserRow): boolean {
  return isRealmAdmin(user);
}

/** Archiving a channel (companion of §3): whoever may administer it (§2.2 can_administer_channel_group). */
export const mayArchiveChannel = mayAdministerChannel;

/**
 * Mentioning a user group by name (`@*group*`, a notification to all its members): the group's
 * can_mention_group decides (the spec does not show user groups, §2.8; reference server's rule). Silent
 * mentions notify nobody and need no permission. The notification bot posts as the system.
 */
export function mayMentionGroup(tables: Tables, user: UserRow, group: RealmState['user_groups'][string]): boolean {
  return user.is_system_bot || holds(tables, user, group.can_mention_group);
}

/**
 * A wildcard mention in a large channel or topic (reference send-message, update-message): the realm's
 * can_mention_many_users_group (wildcard_mention_policy below level 352, the same system groups).
 */
export function mayMentionManyUsers(tables: Tables, user: UserRow, setting: GroupSettingValue): boolean {
  return user.is_system_bot || holds(tables, user, setting);
}

/**
 * §5 "Administrator-only operations": update user status (administrator, §4.4), update a user (§4.7),
 * create a user (§4.10), deactivate a user (§4.17). Owners are administrators too (§2.8). A bot
 * owner may not update their own bot (C7).
 */
export function mayAdministerUsers(user: UserRow): boolean {
  return isRealmAdmin(user);
}

/** §4.10, §5 "Creating users needs can_create_users" (on top of being an administrator). */
export function mayCreateUsers(user: UserRow): boolean {
  return isRealmAdmin(user) && user.can_create_users;
}

/** §4.7, §5 "changing a user's email needs an owner with can_change_user_emails" (C9: an administrator is not enough). */
export function mayChangeUserEmails(user: UserRow): boolean {
  return user.role === ROLE.owner && user.can_change_user_emails;
}

/**
 * §4.7 "Only owners may add or remove the owner role": a change to or from role 100 needs an owner
 * caller (refused with `Must be an organization owner`, C10).
 */
export function mayChangeOwnerRole(caller: UserRow, target: UserRow, role: RoleCode): boolean {
  return (role !== ROLE.owner && target.role !== ROLE.owner) || caller.role === ROLE.owner;
}

/** Reference §4.17 (the spec is silent): only an owner may deactivate an owner (C10 for the code). */
export function mayDeactivateUser(caller: UserRow, target: UserRow): boolean {
  return target.role !== ROLE.owner || caller.role === ROLE.owner;
}

/**
 * Linkifiers (§4.18 and companions; C19): the spec states no rule, so the reference server's holds:
 * organization administrators only.
 */
export function mayManageLinkifiers(user: UserRow): boolean {
  return isRealmAdmin(user);
}

/**
 * §4.4, §4.5 (reference §5 "Other gates"): the status operations do not accept bot requests; a bot
 * has no status of its own to set and may not set anyone else's.
 */
export function mayUpdateStatuses(user: UserRow): boolean {
  return !user.is_bot;
}

/**
 * GET /user_groups (companion; reference get-user-groups): only members, moderators and administrators,
 * the reference's member-or-administrator gate. Which of the two refusals applies: `userGroupsRefusal`.
 */
export function mayListUserGroups(user: UserRow): boolean {
  return !isGuest(user) && !user.is_bot;
}

/**
 * §4.21 all_public_streams (reference §4.21): a guest may not ask for every public channel's events, since
 * guests see only the channels they are subscribed to.
 */
export function mayRegisterForAllPublicChannels(user: UserRow): boolean {
  return !isGuest(user);
}

/* ---- Area live (companion tier: typing, presence, uploads) ---------------------------------------- */

/**
 * Reading an uploaded file (reference "Upload a file"; validate_attachment_request): its uploader, and
 * anyone who may list a message that referenced it when sent (messages/visibility.ts messageListable:
 * received, even in a channel left since, or shared channel history the reader has content access to).
 * A message since deleted grants nothing.
 */
export function mayReadAttachment(
  tables: Tables & Pick<RealmState, 'channels' | 'messages' | 'user_messages'>,
  user: UserRow,
  attachment: { owner_id: number; message_ids: readonly number[] },
): boolean {
  if (attachment.owner_id === user.user_id) return true;
  return attachment.message_ids.some((id) => {
    const message = tables.messages[String(id)];
    return message !== undefined && messageListable(tables, user, message);
  });
}

/**
 * A file anyone may read, credentials or not (reference: attachments of web-public channels): a message
 * that still exists in a web-public channel references it. Whether the realm lets spectators in at all is
 * the caller's question (routes/uploaded-files.ts).
 */
export function webPublicAttachment(
  tables: Pick<RealmState, 'channels' | 'messages'>,
  attachment: { message_ids: readonly number[] },
): boolean {
  return attachment.message_ids.some((id) => {
    const message = tables.messages[String(id)];
    const channel = message?.stream_id == null ? undefined : tables.channels[String(message.stream_id)];
    return channel?.is_web_public === true;
  });
}

/** Deleting an attachment (reference "Delete an attachment"): its uploader only, whatever the role. */
export function mayDeleteAttachment(user: UserRow, attachment: { owner_id: number }): boolean {
  return attachment.owner_id === user.user_id;
}

/* ---- Companion tier, area flags-reactions (reference server: update-message-flags) ---------------- */

/** The flags a user may add or remove themselves; the others describe the message and the server sets them. */
const USER_EDITABLE_FLAGS: ReadonlySet<string> = new Set(['read', 'starred', 'collapsed']);

/** Reference update-message-flags: only read, starred and collapsed are the user's to change. */
export function mayEditFlag(flag: string): boolean {
  return USER_EDITABLE_FLAGS.has(flag);
}

/**
 * Reference update-message-flags: a channel message may be marked unread only while the user is subscribed
 * (the reference keeps every unread channel message in a subscribed channel); others are skipped, not refused.
 */
export function mayMarkUnreadInChannel(tables: Pick<RealmState, 'subscriptions'>, user: UserRow, streamId: number): boolean {
  return isSubscribed(tables, user.user_id, streamId);
}

/**
 * Reference access_message with is_modifying_message (add/remove reaction, update_message,
 * delete_message): messages of an archived channel stay readable but can no longer be changed, by any
 * role; the reference refuses them as `Invalid message(s)`. Direct messages (no channel) always can.
 */
export function mayModifyMessageInChannel(channel: ChannelRow | undefined): boolean {
  return channel?.is_archived !== true;
}

/* ---- Message history (companion tier, area: history) ---- */

/**
 * GET /messages (reference can_access_stream_history): whether a narrow to this channel also finds the
 * messages the user never received, i.e. its whole history. Only when the channel shares its history
 * with subscribers (history_public_to_subscribers; protected history stays limited to what each one
 * received) and the user may read its content (access.ts: web-public for everyone, public for
 * non-guests, private by subscription or a granting group; a spectator, null, web-public only).
 */
export function mayReadChannelHistory(tables: Tables, user: UserRow | null, channel: ChannelRow): boolean {
  return channel.history_public_to_subscribers && channelContentAccess(tables, user, channel);
}

/** GET /messages `channels:public` (reference can_access_public_streams): every public channel's history, never for guests. */
export function mayReadAllPublicHistory(user: UserRow): boolean {
  return !isGuest(user);
}

/* ---- Companion tier, area edit-delete: editing, moving and deleting messages (reference server) ---- */

/** Content edits: only the sender edits what a message says (reference "update message"). */
export function mayEditContent(user: UserRow, message: MessageRow): boolean {
  return message.sender_id === user.user_id;
}

/**
 * Moving messages within a channel, per channel (reference can_move_messages_within_channel): those who
 * administer it (organization administrators included) or its can_move_messages_within_channel_group.
 */
function mayMoveWithinChannel(tables: Tables, user: UserRow, channel: ChannelRow): boolean {
  return mayAdministerChannel(tables, user, channel) || holds(tables, user, channel.can_move_messages_within_channel_group);
}

/**
 * Moving messages to another topic (reference can_edit_topic): the organization's
 * can_move_messages_between_topics_group, or the right to move within the original channel, or within
 * the destination channel when the move also changes the channel.
 */
export function mayMoveBetweenTopics(
  tables: Tables,
  settings: RealmEditingSettings,
  user: UserRow,
  channel: ChannelRow,
  target: ChannelRow = channel,
): boolean {
  if (holds(tables, user, settings.can_move_messages_between_topics_group) || mayMoveWithinChannel(tables, user, channel)) return true;
  return target.stream_id !== channel.stream_id && mayMoveWithinChannel(tables, user, target);
}

/**
 * Resolving or unresolving a topic (the ✔ prefix alone; reference can_resolve_topics, level 367 on):
 * the organization's can_resolve_topics_group, or the original or destination channel's own group. The
 * right to move topics does not include it any more.
 */
export function mayResolveTopics(
  tables: Tables,
  settings: RealmEditingSettings,
  user: UserRow,
  channel: ChannelRow,
  target: ChannelRow = channel,
): boolean {
  return (
    holds(tables, user, settings.can_resolve_topics_group) ||
    holds(tables, user, channel.can_resolve_topics_group) ||
    (target.stream_id !== channel.stream_id && holds(tables, user, target.can_resolve_topics_group))
  );
}

/**
 * Moving messages out of a channel (reference can_move_messages_out_of_channel): organization
 * administrators, the organization's can_move_messages_between_channels_group, those who administer the
 * channel, or its can_move_messages_out_of_channel_group.
 */
export function mayMoveBetweenChannels(tables: Tables, settings: RealmEditingSettings, user: UserRow, channel: ChannelRow): boolean {
  return (
    holds(tables, user, settings.can_move_messages_between_channels_group) ||
    mayAdministerChannel(tables, user, channel) ||
    holds(tables, user, channel.can_move_messages_out_of_channel_group)
  );
}

/** Administrators and moderators move messages of any age (the move time limits are not theirs, reference). */
export function ignoresMoveTimeLimits(user: UserRow): boolean {
  return user.role <= ROLE.moderator;
}

/** Deleting anyone's message at any time: can_delete_any_message_group of the organization or (level 407) of the channel. */
export function mayDeleteAnyMessage(
  tables: Tables,
  settings: RealmEditingSettings,
  user: UserRow,
  channel: ChannelRow | undefined,
): boolean {
  return (
    holds(tables, user, settings.can_delete_any_message_group) ||
    (channel !== undefined && holds(tables, user, channel.can_delete_any_message_group))
  );
}

/**
 * Deleting one's own message (sent by the user or by a bot they own, reference): can_delete_own_message_group
 * of the organization or of the channel; the delete time limit is checked by the action.
 */
export function mayDeleteOwnMessage(
  tables: Tables,
  settings: RealmEditingSettings,
  user: UserRow,
  channel: ChannelRow | undefined,
  message: MessageRow,
): boolean {
  const sender = tables.users[String(message.sender_id)];
  const own = message.sender_id === user.user_id || (sender?.is_bot === true && sender.bot_owner_id === user.user_id);
  if (!own) return false;
  return (
    holds(tables, user, settings.can_delete_own_message_group) ||
    (channel !== undefined && holds(tables, user, channel.can_delete_own_message_group))
  );
}

/** The organization's editing settings (update-realm): organization administrators, as every realm setting of the reference. */
export function mayChangeEditingSettings(user: UserRow): boolean {
  return isRealmAdmin(user);
}
