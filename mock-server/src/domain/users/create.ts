import type { ParamsOf } from '../../contract/operation-types.js';
import { randomBytes } from 'node:crypto';
import type { Tx } from '../../store/store.js';
import type { UserRow } from '../../store/state.js';
import { userRow } from '../../store/user-row.js';
import type { ActorContext } from '../actor.js';
import { addSubscribers } from '../subscriptions/membership.js';
import { badRequest, insufficientPermission } from '../errors.js';
import { hashPassword } from '../passwords.js';
import * as may from '../permissions.js';
import { personFields } from '../present/users.js';
import { newApiKey } from './api-key.js';
import { activeUserIds } from './lookup.js';
import { emailInUse, isEmailAddress } from './emails.js';
import { checkFullName } from './names.js';
import { placeInRoleGroup } from './role-groups.js';

/**
 * POST /users (spec §4.10): an administrator holding can_create_users creates a member account. The
 * spec names only the duplicate-email error; the other checks, their order and texts are the
 * reference server's (reference §4.10).
 */

/**
 * The reference server's minimum password length (its PASSWORD_MIN_LENGTH). It also rejects passwords
 * its strength estimator (zxcvbn) guesses too easily; that estimator is not reproduced here, so length
 * is the only rule.
 */
const MIN_PASSWORD_LENGTH = 6;

/** The gate before parsing (reference "Order of checks" 1, C10): only administrators may try. */
export function checkUserCreationGate(user: UserRow): void {
  if (!may.mayAdministerUsers(user)) throw insufficientPermission();
}

export function doCreateUser(tx: Tx, actor: ActorContext, p: ParamsOf<'create-user'>): { user_id: number } {
  const { tables } = tx;
  // §4.10, §5: the extra permission.
  if (!may.mayCreateUsers(actor.user)) throw badRequest('User not authorized to create users');
  const fullName = checkFullName(tables, p.full_name);
  if (!isEmailAddress(p.email)) throw badRequest('Bad name or username');
  // The reference server's domain rules (allowed domains, disposable addresses, `+` in addresses) are
  // realm settings this realm does not model (no allowed-domains or similar setting), so none applies.
  // §4.10 "already in use": any account of the realm, by API or real email, case-insensitively; system
  // bots included, since their addresses share the realm's domain and a twin would make user names
  // ambiguous for fetch_api_key.
  if (emailInUse(tables, p.email)) throw badRequest(`Email '${p.email}' already in use`);
  if ([...p.password].length < MIN_PASSWORD_LENGTH) throw badRequest('The password is too weak.');

  const user = newMember(tx, actor.now, normalizeEmail(p.email), fullName, p.password);
  const audience = activeUserIds(tables);
  tx.emit({ type: 'realm_user', op: 'add', person: personFields(tables, user) }, audience);
  // Role groups decide group-setting permissions (access.ts): the new member joins theirs.
  placeInRoleGroup(tx, user, actor.now);
  // The realm's default channels (§4.15 include_default), as joining them would: subscription rows,
  // and peer_add to whoever may know their subscribers.
  const ctx = { tx, features: actor.features, now: actor.now };
  for (const id of [...tables.realm.realm.default_stream_ids].sort((a, b) => a - b)) {
    const channel = tables.channels[String(id)];
    if (channel && !channel.is_archived) addSubscribers(ctx, channel, [user], false);
  }
  return { user_id: user.user_id };
}

/** As the reference server stores it: the domain part lower-cased, the local part as typed. */
function normalizeEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return email.slice(0, at) + email.slice(at).toLowerCase();
}

/**
 * The new row: a member (§2.8 role 400), active, human, with a fresh API key (usable at once: the key
 * index follows the users table) and the password hashed with a random salt.
 */
function newMember(tx: Tx, now: number, email: string, fullName: string, password: string): UserRow {
  const userId = tx.nextId('users');
  const user = userRow({
    user_id: userId,
    email,
    full_name: fullName,
    api_key: newApiKey(),
    password_hash: hashPassword(password, randomBytes(16).toString('hex')),
    date_joined: now,
    recipient_id: tx.nextId('recipients'),
  });
  tx.put('users', userId, user);
  return user;
}
