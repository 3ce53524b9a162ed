import { ROLE } from '../contract/roles.js';
import type { UserRow, UserSettings } from './state.js';

/**
 * The one factory of user rows: the demo realm's people (fixtures/people.ts), accounts made through
 * POST /users (domain/users/create.ts) and the rows of unit tests all start here, so a column added to
 * UserRow gets its default in one place.
 */

/** What only the caller can know; every other column has the default of a new human member. */
export type UserRowInput = Pick<UserRow, 'user_id' | 'email' | 'full_name' | 'api_key' | 'recipient_id' | 'date_joined'> & Partial<UserRow>;

/**
 * Settings of a new human account, as the demo realm's humans have them (its exceptions, the owner's
 * stricter email visibility and the moderator's hidden presence, are scenarios rather than defaults).
 * email_address_visibility 1 means everyone may see the real email, so the API email is the real one.
 */
export const NEW_USER_SETTINGS: Readonly<UserSettings> = {
  presence_enabled: true,
  enable_drafts_synchronization: true,
  email_address_visibility: 1,
};

/**
 * A user row: an active human member (§2.8 role 400) unless `input` says otherwise, with the reference
 * server's defaults for an account made through the API: no time zone yet, no uploaded picture (the
 * Gravatar of the email, version 1), no extra permissions, and recently active since it joined (the
 * reference server marks no new account long-term idle). The columns keep the order the demo realm's
 * JSON has always had (the keys last), so a generated realm stays byte-identical.
 */
export function userRow(input: UserRowInput): UserRow {
  return {
    user_id: input.user_id,
    email: input.email,
    delivery_email: input.delivery_email ?? input.email,
    full_name: input.full_name,
    role: input.role ?? ROLE.member,
    is_active: input.is_active ?? true,
    is_bot: input.is_bot ?? false,
    bot_type: input.bot_type ?? null,
    bot_owner_id: input.bot_owner_id ?? null,
    is_system_bot: input.is_system_bot ?? false,
    password_hash: input.password_hash ?? null,
    date_joined: input.date_joined,
    timezone: input.timezone ?? '',
    avatar_source: input.avatar_source ?? 'G',
    avatar_version: input.avatar_version ?? 1,
    can_create_users: input.can_create_users ?? false,
    can_change_user_emails: input.can_change_user_emails ?? false,
    profile_data: input.profile_data ?? {},
    settings: input.settings ?? { ...NEW_USER_SETTINGS },
    last_active: input.last_active ?? input.date_joined,
    api_key: input.api_key,
    recipient_id: input.recipient_id,
  };
}
