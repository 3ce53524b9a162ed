import type { RealmState, RoleCode, UserRow } from '../../store/state.js';
import { isGuest } from '../access.js';
import { badRequest, insufficientPermission, mustBeOwner } from '../errors.js';
import * as may from '../permissions.js';
import { activeOwners, targetUser } from './lookup.js';
import { emailInUse, isEmailAddress } from './emails.js';
import { checkFullName } from './names.js';
import { planProfileChanges, type ProfileDataItem, type ProfileFieldChange } from './profile-fields.js';
import { ROLE } from '../../contract/roles.js';

/**
 * PATCH /users/{user_id} (spec §4.7), checking half: every rule runs in the reference server's order
 * (reference §4.7 "Checks") and nothing is written, so a refused request changes nothing (the reference
 * server runs the whole update in one transaction). The result says what changes; update.ts applies it.
 */

export interface UpdateUserParams {
  user_id: number;
  /** Already stripped (the document's x-strip). */
  full_name?: string;
  new_email?: string;
  profile_data?: ProfileDataItem[];
  role?: RoleCode;
}

export interface UserUpdatePlan {
  target: UserRow;
  /** The new role, or null when none was asked for or it is the current one (a no-op, reference). */
  role: RoleCode | null;
  fullName: string | null;
  /** Only fields whose value really changes. */
  profile: ProfileFieldChange[];
  /** The new delivery email and, when it follows, the new API email (see `followsDeliveryEmail`). */
  email: { delivery: string; api: string | null } | null;
}

type Tables = Pick<RealmState, 'users' | 'realm' | 'custom_profile_fields' | 'messages' | 'user_messages' | 'subscriptions'>;

export function planUserUpdate(tables: Tables, caller: UserRow, p: UpdateUserParams): UserUpdatePlan {
  // 1. The target: bots and deactivated users are valid targets (reference §4.7), system bots are not
  //    users of the realm. Administrators only, even for a bot the caller owns (spec §4.7, C7).
  const target = targetUser(tables, p.user_id, { bots: true, deactivated: true });
  if (!may.mayAdministerUsers(caller)) throw insufficientPermission();

  // 2. Any new_email needs an owner holding can_change_user_emails (spec §4.7, §5; C9).
  if (p.new_email !== undefined && !may.mayChangeUserEmails(caller)) throw badRequest('User not authorized to change user emails');

  // 3. The role, when it changes (the same role is a no-op, reference §4.7).
  const role = p.role !== undefined && p.role !== target.role ? p.role : null;
  if (role !== null) checkRoleChange(tables, caller, target, role);

  // 4. The name: whitespace only (empty once stripped) is ignored silently (reference §4.7).
  const fullName =
    p.full_name !== undefined && p.full_name !== '' && p.full_name !== target.full_name
      ? checkFullName(tables, p.full_name, target.user_id)
      : null;

  // 5. Custom profile fields.
  const profile = p.profile_data === undefined ? [] : planProfileChanges(tables, target, p.profile_data);

  // 6. The email, when it differs from the current delivery email.
  const email = p.new_email !== undefined && p.new_email !== target.delivery_email ? planEmail(tables, target, p.new_email) : null;

  return { target, role, fullName, profile, email };
}

/**
 * Spec §4.7: "Only owners may add or remove the owner role" (C10: BAD_REQUEST with the reference's text);
 * "The owner role cannot be removed from the only owner" (the only active human owner, as for
 * deactivation); "Guests cannot be organization administrators" (C8: role 200, or 100 since owners are
 * administrators too, for a user who is a guest now; the text is ours, the reference has no such rule).
 */
function checkRoleChange(tables: Tables, caller: UserRow, target: UserRow, role: RoleCode): void {
  if (!may.mayChangeOwnerRole(caller, target, role)) throw mustBeOwner();
  if (target.role === ROLE.owner && isOnlyOwner(tables, target))
    throw badRequest('The owner permission cannot be removed from the only organization owner.');
  if (isGuest(target) && role <= ROLE.administrator) throw badRequest('Guests cannot be organization administrators.');
}

export function isOnlyOwner(tables: Pick<RealmState, 'users'>, user: UserRow): boolean {
  const owners = activeOwners(tables);
  return owners.length === 1 && owners[0]!.user_id === user.user_id;
}

/**
 * new_email (reference §4.7 check 6): a malformed address, then one already used by another account of
 * the realm, as its API email or its delivery email, compared without case (an address names one
 * mailbox whatever its case). The target's own addresses do not count: changing only the case of one's
 * address is a change, not a collision.
 */
function planEmail(tables: Tables, target: UserRow, email: string): UserUpdatePlan['email'] {
  if (!isEmailAddress(email)) throw badRequest('Invalid new email address.');
  if (emailInUse(tables, email, target.user_id)) throw badRequest('New email value error: Email is already in use.');
  return { delivery: email, api: followsDeliveryEmail(target) ? email : null };
}

/**
 * Whether the API email (the `email` every user sees, and the Basic-auth user name, §5) changes with the
 * delivery email. The spec does not say. In the fixtures both addresses are equal, and delivery_email is
 * shown only to those email_address_visibility allows (domain/access.ts). The reference server's API
 * email is the real address only when the real address is visible to everyone (visibility 1); otherwise
 * it is a stable address that reveals nothing. So the API email follows exactly when visibility is 1:
 * following it otherwise would show the new real address, through `email`, to users the owner of the
 * address hides it from. (The API email then keeps the old address; the account still authenticates.)
 */
export function followsDeliveryEmail(user: UserRow): boolean {
  return user.settings.email_address_visibility === 1;
}
