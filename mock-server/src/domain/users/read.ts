import type { SchemaOf } from '../../contract/operation-types.js';
import { indexOf } from '../../store/indexes.js';
import type { RealmState, UserRow } from '../../store/state.js';
import { presentUser } from '../present/users.js';
import { targetUser, userIdInPath } from './lookup.js';

/**
 * Reading users: GET /users, GET /users/{id}, GET /users/me. The spec shows none of them (§2.8 "Other
 * fields of the user object: not shown"), so they follow the reference server. Every user object comes
 * from presentUser, the presenter of the register snapshot and the realm_user events, so a client sees
 * one user the same way whichever way it asked.
 */

type Tables = Pick<RealmState, 'realm' | 'users' | 'user_messages' | 'messages' | 'subscriptions'>;

export interface ReadOptions {
  /** §4.21 client_gravatar: avatar_url null for Gravatar users whose real email the reader may see. */
  clientGravatar: boolean;
  /** profile_data only when asked for (the document's include_custom_profile_fields, default false). */
  includeCustomProfileFields: boolean;
}

function present(tables: Tables, viewer: UserRow, user: UserRow, options: ReadOptions): SchemaOf<'User'> {
  const out = presentUser(tables, user, { viewer, clientGravatar: options.clientGravatar });
  if (!options.includeCustomProfileFields) delete out.profile_data;
  return out;
}

/**
 * GET /users: every account of the realm, deactivated users and bots included (the document: "bots and
 * deactivated users included"; the reference server lists every account of the realm and lets is_active
 * tell them apart). System bots are left out: they live outside the realm's user list, as the reference
 * server's cross-realm bots do (register carries them apart, in cross_realm_bots). The realm models no
 * restriction of which users a guest may see, so every caller sees every account. Ascending IDs, the
 * order of the register snapshot's lists.
 */
export function listUsers(tables: Tables, viewer: UserRow, options: ReadOptions): SchemaOf<'User'>[] {
  return Object.values(tables.users)
    .filter((u) => !u.is_system_bot)
    .sort((a, b) => a.user_id - b.user_id)
    .map((u) => present(tables, viewer, u, options));
}

/**
 * GET /users/{id}: one account, bots and deactivated users included (the reference server takes both
 * here); an unknown ID or a system bot is `No such user` (lookup.ts, reference "Shared access checks").
 */
export function getUser(tables: Tables, viewer: UserRow, userId: number, options: ReadOptions): SchemaOf<'User'> {
  return present(tables, viewer, targetUser(tables, userId, { bots: true, deactivated: true }), options);
}

/**
 * GET /users/{user_id} and GET /users/{email} (companion tier, compat-lookups): the two are one path
 * template, so the segment names an ID when it is all digits and an API email otherwise (an email is
 * never all digits: it has an @). The email is matched in any letter case, as the reference server's
 * lookup does; an unknown email answers as an unknown ID does.
 */
export function getUserByIdOrEmail(tables: Tables, viewer: UserRow, idOrEmail: string, options: ReadOptions): SchemaOf<'User'> {
  return getUser(tables, viewer, userIdInPath(tables, idOrEmail) ?? -1, options);
}

/**
 * GET /users/me: the caller's own user object with its fields at the top level, plus max_message_id.
 * The operation takes no parameters; as on the reference server the caller's avatar_url is always a URL
 * (it is answered as with client_gravatar false) and profile_data is included.
 */
export function ownUser(tables: Tables, viewer: UserRow): SchemaOf<'User'> & { max_message_id: number } {
  const user = present(tables, viewer, viewer, { clientGravatar: false, includeCustomProfileFields: true });
  return {
    ...user,
    max_message_id: newestReceived(tables, viewer.user_id),
  };
}

/**
 * ID of the newest message the user received (has a user_messages entry for), -1 for none: the same
 * number register's max_message_id gives for this user (spec §4.21).
 */
function newestReceived(tables: Tables, userId: number): number {
  return indexOf(tables).receipts.of(userId).received.last ?? -1;
}
