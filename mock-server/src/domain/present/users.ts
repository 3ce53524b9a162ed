import { canSeeDeliveryEmail, emailVisibleTo, isGuest, isRealmAdmin } from '../access.js';
import type { RealmState, UserRow } from '../../store/state.js';
import { avatarUrlOf } from './messages.js';
import { ROLE } from '../../contract/roles.js';
import type { SchemaOf } from '../../contract/operation-types.js';
import type { StoredPerson } from '../../contract/event-types.js';
import { unshaped, type ShapingKeys, type Unshaped } from './shaping.js';

/**
 * The user object. The spec does not show it (§2.8 "Other fields of the user object: not shown"), so
 * the fields are the reference server's ("Event payloads", realm_user / add), which stock clients read.
 * One presenter for the register snapshot, GET /users, GET /users/{id}, GET /users/me and the
 * realm_user events, so they cannot drift apart.
 */

/** How one reader sees users: who they are (delivery_email, avatar_url depend on it) and client_gravatar. */
export interface UserView {
  viewer: UserRow | null;
  clientGravatar: boolean;
}

/**
 * avatar_url (§4.21 client_gravatar): null for Gravatar users when the client computes Gravatar URLs
 * itself, which it can only do knowing the real email; otherwise a URL (of the API email's Gravatar
 * when the reader may not see the real one).
 */
export function userAvatarUrl(tables: Pick<RealmState, 'realm'>, user: UserRow, view: UserView): string | null {
  const visible = canSeeDeliveryEmail(view.viewer, user);
  if (user.avatar_source === 'G' && view.clientGravatar && visible) return null;
  return avatarUrlOf(tables, user, visible ? user.delivery_email : user.email);
}

export function presentUser(tables: Pick<RealmState, 'realm'>, user: UserRow, view: UserView): SchemaOf<'User'> {
  return viewPerson(personFields(tables, user), view);
}

/**
 * The user object before it knows its reader: both avatar URLs and the real email travel in `_` keys,
 * and `viewPerson` keeps what the reader may see. Events are built once per change and shaped per
 * queue (events/shape.ts), as message events are.
 */
export function personFields(tables: Pick<RealmState, 'realm'>, user: UserRow): StoredPerson {
  const out: StoredPerson = {
    user_id: user.user_id,
    email: user.email,
    delivery_email: user.delivery_email,
    full_name: user.full_name,
    role: user.role,
    is_admin: isRealmAdmin(user),
    is_owner: user.role === ROLE.owner,
    is_guest: isGuest(user),
    is_bot: user.is_bot,
    is_active: user.is_active,
    is_imported_stub: false,
    avatar_url: avatarUrlOf(tables, user, user.email),
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
  return Object.assign(out, emailShaping(tables, user));
}

/**
 * The `_` keys that let a per-reader view decide delivery_email and avatar_url: which user, their
 * email_address_visibility, whether they use Gravatar, and the URL of their real email's Gravatar.
 * Any event object carrying `delivery_email` or `avatar_url` of a user adds them (realm_user add and
 * update), so that no reader learns an email they may not see.
 */
export function emailShaping(tables: Pick<RealmState, 'realm'>, user: UserRow): ShapingKeys {
  return {
    _owner_id: user.user_id,
    _email_visibility: user.settings.email_address_visibility,
    _gravatar: user.avatar_source === 'G',
    _private_avatar_url: avatarUrlOf(tables, user, user.delivery_email),
  };
}

/** What one reader sees of a person object built by `personFields` (or a realm_user update carrying emailShaping). */
export function viewPerson<P extends Record<string, unknown>>(person: P, view: UserView): Unshaped<P> {
  // Only delivery_email (to null, which the User schema allows) and avatar_url (to another URL or null)
  // change, so the result keeps the person's type less its `_` keys.
  const out: Record<string, unknown> = { ...person };
  if ('_owner_id' in out) {
    const visible = emailVisibleTo(view.viewer, out._owner_id as number, out._email_visibility as number);
    if ('delivery_email' in out && !visible) out.delivery_email = null;
    if ('avatar_url' in out && visible) out.avatar_url = out._gravatar === true && view.clientGravatar ? null : out._private_avatar_url;
  }
  return unshaped(out) as Unshaped<P>;
}
