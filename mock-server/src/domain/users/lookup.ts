import { indexOf, type IndexedTables } from '../../store/indexes.js';
import type { RealmState, UserRow } from '../../store/state.js';
import { badRequest } from '../errors.js';
import { ROLE } from '../../contract/roles.js';

/** Which targets an operation takes (reference "Shared access checks": user by ID). */
export interface TargetRules {
  /** Bots are valid targets (§4.7 update a user); otherwise a bot is `No such user`. */
  bots: boolean;
  /** Deactivated users are valid targets (§4.7); otherwise `User is deactivated`. */
  deactivated: boolean;
}

/**
 * A user named by ID in the path, checked in the reference server's order: not in the realm (system
 * bots live outside the user list, so they count as absent) → `No such user`; a bot where the
 * operation takes none → `No such user`; deactivated where the operation takes none → `User is
 * deactivated`. The caller's own permission is checked after this, by the action.
 */
export function targetUser(tables: Pick<RealmState, 'users'>, userId: number, rules: TargetRules): UserRow {
  const user = tables.users[String(userId)];
  if (!user || user.is_system_bot) throw badRequest('No such user');
  if (user.is_bot && !rules.bots) throw badRequest('No such user');
  if (!user.is_active && !rules.deactivated) throw badRequest('User is deactivated');
  return user;
}

/** Everyone who follows the realm's user list (realm_user, user_status events): active accounts, bots included. */
export function activeUserIds(tables: Pick<RealmState, 'users'>): number[] {
  return Object.values(tables.users)
    .filter((u) => u.is_active && !u.is_system_bot)
    .map((u) => u.user_id);
}

/** The realm's active human owners (§4.7 "the only owner", §4.17). */
export function activeOwners(tables: Pick<RealmState, 'users'>): UserRow[] {
  return Object.values(tables.users).filter((u) => u.is_active && !u.is_bot && u.role === ROLE.owner);
}

/**
 * The user ID a path segment names where the reference takes an ID or an email in one place
 * (GET /users/{user_id_or_email}, its presence): all digits is an ID (an email always has an @),
 * anything else an API email in any letter case, found through the people index, never a scan of the
 * users. Undefined for an unknown email; an unknown ID is the caller's to refuse.
 */
export function userIdInPath(tables: IndexedTables, segment: string): number | undefined {
  if (/^[0-9]+$/.test(segment)) return Number(segment);
  return indexOf(tables).people.withEmail(segment)[0];
}
