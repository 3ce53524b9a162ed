import type { SchemaOf } from '../../contract/operation-types.js';
import type { RealmState, UserGroupRow, UserRow } from '../../store/state.js';
import { isGuest } from '../access.js';
import { botRefused, guestRefused } from '../errors.js';
import { mayListUserGroups } from '../permissions.js';

const ascending = (a: number, b: number) => a - b;

/**
 * A user group as register's `realm_user_groups`, the user group events and GET /user_groups present it
 * (the reference server's fields; spec §2.8 does not show them).
 */
export function presentUserGroup(g: UserGroupRow): SchemaOf<'UserGroup'> {
  return {
    id: g.id,
    name: g.name,
    description: g.description,
    members: [...g.members].sort(ascending),
    direct_subgroup_ids: [...g.direct_subgroup_ids].sort(ascending),
    is_system_group: g.is_system_group,
    deactivated: g.deactivated,
    creator_id: g.creator_id,
    date_created: g.date_created,
    can_manage_group: g.can_manage_group,
    can_mention_group: g.can_mention_group,
  };
}

/**
 * GET /user_groups before its parameters (reference get-user-groups: bots and guests cannot use it; its
 * member-or-administrator gate asks about guests first). register's `realm_user_groups` has no such gate.
 */
export function refuseUserGroupsCaller(user: UserRow): void {
  if (mayListUserGroups(user)) return;
  throw isGuest(user) ? guestRefused() : botRefused();
}

/**
 * The realm's groups by ID, system groups included. Deactivated groups only on request: register takes
 * that from the include_deactivated_groups client capability, GET /user_groups from its parameter of the
 * same name. Whoever may read them sees every group.
 */
export function userGroupList(tables: Pick<RealmState, 'user_groups'>, withDeactivated: boolean): SchemaOf<'UserGroup'>[] {
  return Object.values(tables.user_groups)
    .filter((g) => withDeactivated || !g.deactivated)
    .sort((a, b) => a.id - b.id)
    .map(presentUserGroup);
}
