import type { ChannelRow, GroupSettingValue, RealmState, UserRow } from '../store/state.js';
import { ROLE } from '../contract/roles.js';

/**
 * Who may see what: the pure predicates behind channel listings, the register snapshot and the
 * "Invalid channel ID" checks (reference "Shared access checks"). Everything reads the tables it is
 * given and nothing else, so a caller can evaluate them inside or outside a transaction.
 */

type Tables = Pick<RealmState, 'users' | 'user_groups' | 'subscriptions'>;

/**
 * Spec §1 "Group-setting value": a group ID, or an anonymous group of direct members and subgroups.
 * Resolution follows `direct_subgroup_ids` recursively (the system role groups nest, reference §2);
 * a deactivated group grants nothing, and only active users count, since a deactivated account holds
 * no permission. The visited set makes a cyclic nesting harmless.
 */
export function groupMembers(tables: Pick<Tables, 'users' | 'user_groups'>, value: GroupSettingValue): Set<number> {
  const ids = new Set<number>();
  const visited = new Set<number>();
  const addUser = (id: number): void => {
    if (tables.users[String(id)]?.is_active) ids.add(id);
  };
  const addGroup = (groupId: number): void => {
    if (visited.has(groupId)) return;
    visited.add(groupId);
    const group = tables.user_groups[String(groupId)];
    if (!group || group.deactivated) return;
    group.members.forEach(addUser);
    group.direct_subgroup_ids.forEach(addGroup);
  };
  if (typeof value === 'number') addGroup(value);
  else {
    value.direct_members.forEach(addUser);
    value.direct_subgroups.forEach(addGroup);
  }
  return ids;
}

/** Spec §1 group-setting value: does the user hold the permission it grants? */
export function isMember(tables: Pick<Tables, 'users' | 'user_groups'>, userId: number, value: GroupSettingValue): boolean {
  return groupMembers(tables, value).has(userId);
}

/** Spec §2.8: owners (100) and administrators (200) are organization administrators. */
export function isRealmAdmin(user: Pick<UserRow, 'role'>): boolean {
  return user.role <= ROLE.administrator;
}

/** Spec §2.8: role 600. */
export function isGuest(user: Pick<UserRow, 'role'>): boolean {
  return user.role === ROLE.guest;
}

/** Spec §2.3: an active subscription row (inactive rows only remember a past subscription). */
export function isSubscribed(tables: Pick<Tables, 'subscriptions'>, userId: number, streamId: number): boolean {
  return tables.subscriptions[`${userId}:${streamId}`]?.active === true;
}

/**
 * Content access (reading messages), spec §3 channel privacy with the reference's granting groups
 * (reference "Shared access checks", C18):
 * - web-public: everyone, spectators (null user) included, since §2.2 grants even unauthenticated
 *   history access (guests too: what a spectator may read cannot be hidden from an account);
 * - a subscriber always;
 * - guests otherwise never (§2.3 can_subscribe_group: public channels are open "except guests";
 *   reference §4.15: guests see no public channel they are not subscribed to);
 * - public channels: any other user;
 * - private channels: members of can_add_subscribers_group or can_subscribe_group (those who may
 *   join or add people may read, as the reference grants). can_administer_channel_group gives
 *   metadata access only (below): administering a channel's settings is not reading its messages.
 */
export function channelContentAccess(tables: Tables, user: UserRow | null, channel: ChannelRow): boolean {
  if (channel.is_web_public) return true;
  if (user === null) return false;
  if (isSubscribed(tables, user.user_id, channel.stream_id)) return true;
  if (isGuest(user)) return false;
  if (!channel.invite_only) return true;
  return isMember(tables, user.user_id, channel.can_add_subscribers_group) || isMember(tables, user.user_id, channel.can_subscribe_group);
}

/**
 * Metadata access (knowing the channel exists, its name and settings), spec §2.2 and reference
 * §4.15/§4.16: content access, or organization administrators ("may administer" every channel,
 * §2.2 can_administer_channel_group), or members of the channel's can_administer_channel_group.
 */
export function channelMetadataAccess(tables: Tables, user: UserRow | null, channel: ChannelRow): boolean {
  if (channelContentAccess(tables, user, channel)) return true;
  if (user === null || isGuest(user)) return false;
  return isRealmAdmin(user) || isMember(tables, user.user_id, channel.can_administer_channel_group);
}

/**
 * Spec §2.3 `subscribers`: "Empty array when the caller may not know the subscribers". Those who may:
 * anyone with metadata access (an administrator of a private channel manages its membership); never
 * spectators, for whom include_subscribers true is an error anyway (§5).
 */
export function canKnowSubscribers(tables: Tables, user: UserRow | null, channel: ChannelRow): boolean {
  if (user === null) return false;
  return channelMetadataAccess(tables, user, channel);
}

/**
 * Whether the viewer may see a user's real (delivery) email. The spec leaves the user object unshown
 * (§2.8); the levels follow the reference server's email_address_visibility: 1 everyone, 2 members
 * (no guests), 3 administrators, 4 nobody, 5 moderators. Oneself always.
 */
export function canSeeDeliveryEmail(viewer: UserRow | null, user: UserRow): boolean {
  return emailVisibleTo(viewer, user.user_id, user.settings.email_address_visibility);
}

/** The same rule, from the owner's ID and email_address_visibility (carried by message events). */
export function emailVisibleTo(viewer: UserRow | null, ownerId: number, visibility: number): boolean {
  if (viewer === null) return false;
  if (viewer.user_id === ownerId) return true;
  switch (visibility) {
    case 1:
      return true;
    case 2:
      return !isGuest(viewer);
    case 3:
      return isRealmAdmin(viewer);
    case 5:
      return viewer.role <= ROLE.moderator;
    default:
      return false;
  }
}
