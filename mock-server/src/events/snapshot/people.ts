import { isGuest, isRealmAdmin } from '../../domain/access.js';
import { userGroupList } from '../../domain/compat-lookups/user-groups.js';
import { presentUser as presentUserFor, userAvatarUrl } from '../../domain/present/users.js';
import { presentUserStatus } from '../../domain/users/status.js';
import { presenceLastUpdateId } from '../../domain/live/presence.js';
import type { UserRow } from '../../store/state.js';
import type { SnapshotContext } from './context.js';
import { ROLE } from '../../contract/roles.js';

const DAY = 86_400;

const presentUser = (ctx: SnapshotContext, user: UserRow) =>
  presentUserFor(ctx.tables, user, { viewer: ctx.viewer, clientGravatar: ctx.options.clientGravatar });

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
      is_owner: viewer.role === ROLE.owner,
      is_moderator: viewer.role === ROLE.moderator,
      is_guest: isGuest(viewer),
      role: viewer.role,
      avatar_url: userAvatarUrl(ctx.tables, viewer, { viewer, clientGravatar: ctx.options.clientGravatar }),
    });
  }
  return out;
}

/**
 * Type `realm_user_groups` (§4.21): deactivated groups only for clients declaring include_deactivated_groups.
 * One presenter with GET /user_groups (domain/compat-lookups/user-groups.ts).
 */
export function userGroupKeys(ctx: SnapshotContext): Record<string, unknown> {
  return { realm_user_groups: userGroupList(ctx.tables, ctx.options.client.include_deactivated_groups) };
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
    // One presenter with GET /users/{user_id}/status (domain/users/status.ts).
    const status = presentUserStatus(ctx.tables, user);
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
  // presence_last_update_id (area live): the newest change's ID, the starting point of update-presence's last_update_id.
  return { presences, server_timestamp: options.now, presence_last_update_id: presenceLastUpdateId(tables) };
}
