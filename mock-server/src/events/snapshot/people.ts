import { canSeeDeliveryEmail, isGuest, isRealmAdmin } from '../../domain/access.js';
import { avatarUrlOf } from '../../domain/present/messages.js';
import type { UserRow } from '../../store/state.js';
import type { SnapshotContext } from './context.js';

const DAY = 86_400;

/**
 * avatar_url (§2.5, §4.21 client_gravatar): null for Gravatar users when the client computes Gravatar
 * URLs itself, which it can only do knowing the real email; otherwise a URL.
 */
export function avatarUrl(ctx: SnapshotContext, user: UserRow): string | null {
  const visible = canSeeDeliveryEmail(ctx.viewer, user);
  if (user.avatar_source === 'G' && ctx.options.clientGravatar && visible) return null;
  return avatarUrlOf(ctx.tables, user, visible ? user.delivery_email : user.email);
}

/** The user object (OpenAPI `User`; §2.8 roles, the rest as the reference server sends it). */
export function presentUser(ctx: SnapshotContext, user: UserRow): Record<string, unknown> {
  const out: Record<string, unknown> = {
    user_id: user.user_id,
    email: user.email,
    delivery_email: canSeeDeliveryEmail(ctx.viewer, user) ? user.delivery_email : null,
    full_name: user.full_name,
    role: user.role,
    is_admin: isRealmAdmin(user),
    is_owner: user.role === 100,
    is_guest: isGuest(user),
    is_bot: user.is_bot,
    is_active: user.is_active,
    is_imported_stub: false,
    avatar_url: avatarUrl(ctx, user),
    avatar_version: user.avatar_version,
    timezone: user.timezone,
    date_joined: user.date_joined,
  };
  if (user.is_bot) {
    out.bot_type = user.bot_type;
    out.bot_owner_id = user.bot_owner_id;
    if (user.is_system_bot) out.is_system_bot = true;
  } else {
    out.profile_data = user.profile_data;
  }
  return out;
}

/**
 * Type `realm_user` (§4.21): active users and bots, deactivated ones, the system bots apart (they live
 * outside the user list, reference cross_realm_bots), and the viewer's own identity fields.
 */
export function realmUserKeys(ctx: SnapshotContext): Record<string, unknown> {
  const { tables, viewer } = ctx;
  const users = Object.values(tables.users).sort((a, b) => a.user_id - b.user_id);
  const out: Record<string, unknown> = {
    realm_users: users.filter((u) => u.is_active && !u.is_system_bot).map((u) => presentUser(ctx, u)),
    realm_non_active_users: users.filter((u) => !u.is_active && !u.is_system_bot).map((u) => presentUser(ctx, u)),
    cross_realm_bots: users.filter((u) => u.is_system_bot).map((u) => presentUser(ctx, u)),
  };
  if (viewer !== null) {
    Object.assign(out, {
      user_id: viewer.user_id,
      email: viewer.email,
      delivery_email: viewer.delivery_email,
      full_name: viewer.full_name,
      is_admin: isRealmAdmin(viewer),
      is_owner: viewer.role === 100,
      is_moderator: viewer.role === 300,
      is_guest: isGuest(viewer),
      role: viewer.role,
      avatar_url: avatarUrl(ctx, viewer),
    });
  }
  return out;
}

/** Type `realm_user_groups` (§4.21): deactivated groups only for clients declaring include_deactivated_groups. */
export function userGroupKeys(ctx: SnapshotContext): Record<string, unknown> {
  const withDeactivated = ctx.options.client.include_deactivated_groups;
  return {
    realm_user_groups: Object.values(ctx.tables.user_groups)
      .filter((g) => withDeactivated || !g.deactivated)
      .sort((a, b) => a.id - b.id)
      .map((g) => ({
        id: g.id,
        name: g.name,
        description: g.description,
        members: [...g.members].sort((a, b) => a - b),
        direct_subgroup_ids: [...g.direct_subgroup_ids].sort((a, b) => a - b),
        is_system_group: g.is_system_group,
        deactivated: g.deactivated,
        creator_id: g.creator_id,
        date_created: g.date_created,
        can_manage_group: g.can_manage_group,
        can_mention_group: g.can_mention_group,
      })),
  };
}

/**
 * Type `user_status` (§2.7, reference §2): keyed by user ID as a string, only non-default fields,
 * `away` only when true (the inverse of presence_enabled). Users with nothing to say are left out.
 */
export function userStatusKeys(ctx: SnapshotContext): Record<string, unknown> {
  const map: Record<string, Record<string, unknown>> = {};
  if (ctx.viewer === null) return { user_status: map };
  const users = Object.values(ctx.tables.users)
    .filter((u) => u.is_active && !u.is_system_bot)
    .sort((a, b) => a.user_id - b.user_id);
  for (const user of users) {
    const status: Record<string, unknown> = {};
    const row = ctx.tables.user_statuses[String(user.user_id)];
    if (row?.status_text) status.status_text = row.status_text;
    if (row?.emoji_name) Object.assign(status, { emoji_name: row.emoji_name, emoji_code: row.emoji_code, reaction_type: row.reaction_type });
    if (user.settings.presence_enabled === false) status.away = true;
    if (Object.keys(status).length > 0) map[String(user.user_id)] = status;
  }
  return { user_status: map };
}

/**
 * Type `presence` (§4.21 slim_presence, presence_history_limit_days): `presences` keyed by user ID
 * (slim) or by email in the legacy `{aggregated: {status, timestamp, client}}` form, only for users
 * seen within the limit and who share their presence (presence_enabled); plus `server_timestamp`.
 */
export function presenceKeys(ctx: SnapshotContext): Record<string, unknown> {
  const { tables, viewer, options } = ctx;
  const presences: Record<string, unknown> = {};
  const since = options.now - options.presenceHistoryLimitDays * DAY;
  if (viewer !== null) {
    const rows = Object.values(tables.presence).sort((a, b) => a.user_id - b.user_id);
    for (const row of rows) {
      const user = tables.users[String(row.user_id)];
      if (!user?.is_active || user.is_system_bot || user.settings.presence_enabled === false) continue;
      const last = Math.max(row.active_timestamp, row.idle_timestamp);
      if (last < since) continue;
      if (options.slimPresence) {
        presences[String(user.user_id)] = { active_timestamp: row.active_timestamp, idle_timestamp: row.idle_timestamp };
      } else {
        const status = row.active_timestamp >= row.idle_timestamp ? 'active' : 'idle';
        presences[user.email] = { aggregated: { status, timestamp: last, client: 'website' } };
      }
    }
  }
  return { presences, server_timestamp: options.now };
}
