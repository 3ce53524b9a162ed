import type { Tx } from '../../store/store.js';
import type { UserRow } from '../../store/state.js';
import { activeUserIds } from './lookup.js';
import { ROLE } from '../../contract/roles.js';

/**
 * Role groups (spec §2.8 roles; reference §2, the system groups that group-setting permissions name):
 * each user is a direct member of the group of their role, as the fixtures model it. Creating a user
 * (§4.10) and changing a role (§4.7) both place the user here, so the rule exists once.
 */
const ROLE_GROUP_NAMES = ['role:owners', 'role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone'];
const DAY = 86_400;

/**
 * The group a user of this role belongs to directly: members past the realm's waiting period
 * (waiting_period_threshold days since joining) are full members, others plain members; guests are in
 * role:everyone only.
 */
function roleGroupName(user: UserRow, waitingDays: number, now: number): string {
  switch (user.role) {
    case ROLE.owner:
      return 'role:owners';
    case ROLE.administrator:
      return 'role:administrators';
    case ROLE.moderator:
      return 'role:moderators';
    case ROLE.guest:
      return 'role:everyone';
    default:
      return user.date_joined + waitingDays * DAY <= now ? 'role:fullmembers' : 'role:members';
  }
}

/**
 * Puts the user in their role's group and out of the other role groups, with the reference server's
 * `user_group` remove_members / add_members events to everyone who follows the user list.
 */
export function placeInRoleGroup(tx: Tx, user: UserRow, now: number): void {
  const wanted = roleGroupName(user, tx.tables.realm.realm.waiting_period_threshold, now);
  const everyone = activeUserIds(tx.tables);
  const groups = Object.values(tx.tables.user_groups).filter((g) => g.is_system_group && ROLE_GROUP_NAMES.includes(g.name));
  for (const group of groups) {
    if (group.name === wanted || !group.members.includes(user.user_id)) continue;
    tx.put('user_groups', group.id, { ...group, members: group.members.filter((id) => id !== user.user_id) });
    tx.emit({ type: 'user_group', op: 'remove_members', group_id: group.id, user_ids: [user.user_id] }, everyone);
  }
  const target = groups.find((g) => g.name === wanted);
  if (target && !target.members.includes(user.user_id)) {
    tx.put('user_groups', target.id, { ...target, members: [...target.members, user.user_id].sort((a, b) => a - b) });
    tx.emit({ type: 'user_group', op: 'add_members', group_id: target.id, user_ids: [user.user_id] }, everyone);
  }
}
