import { indexOf, type IndexedTables } from '../../store/indexes.js';
import type { SubscriptionRow, UserRow } from '../../store/state.js';
import { badRequest } from '../errors.js';

/**
 * Users named by ID or API email (spec §4.8 principals: "User IDs (preferred) or API emails"), checked as
 * the reference doc's "Users by a list of IDs or emails": any unknown → `No such user`, then each
 * deactivated one → `User is deactivated`. `refuse` lets an operation turn these into its own error
 * (§4.8 below level 208: 403 UNAUTHORIZED_PRINCIPAL). Duplicates collapse; the request order stays.
 */
/** A user by API email or real email, compared without regard to letter case (reference server). */
export function userByEmail(tables: IndexedTables, email: string): UserRow | undefined {
  const people = indexOf(tables).people;
  // The lowest user ID among both kinds of address, as a walk over the users in ID order would find.
  const id = Math.min(people.withEmail(email)[0] ?? Infinity, people.withDeliveryEmail(email)[0] ?? Infinity);
  return id === Infinity ? undefined : tables.users[String(id)];
}

export function resolvePrincipals(
  tables: IndexedTables,
  principals: readonly (number | string)[],
  refuse: (msg: string) => Error = badRequest,
): UserRow[] {
  const found: UserRow[] = [];
  for (const principal of principals) {
    const user = typeof principal === 'number' ? tables.users[String(principal)] : userByEmail(tables, principal);
    if (!user || user.is_system_bot) throw refuse('No such user');
    if (!found.includes(user)) found.push(user);
  }
  for (const user of found) if (!user.is_active) throw refuse('User is deactivated');
  return found;
}

/**
 * A new subscription row (§2.3 personal settings at their defaults: not muted, not pinned, every
 * notification setting null = inherit the user's default). Used by subscribing and by the fixtures.
 */
export function newSubscriptionRow(userId: number, streamId: number, color: string, subscribedAfterMessageId: number): SubscriptionRow {
  return {
    user_id: userId,
    stream_id: streamId,
    active: true,
    color,
    is_muted: false,
    pin_to_top: false,
    desktop_notifications: null,
    email_notifications: null,
    wildcard_mentions_notify: null,
    push_notifications: null,
    audible_notifications: null,
    subscribed_after_message_id: subscribedAfterMessageId,
  };
}

/** The colours the reference web app assigns to new subscriptions, taken in turn by channel ID. */
const PALETTE = [
  '#76ce90',
  '#fae589',
  '#a6c7e5',
  '#e79ab5',
  '#bfd56f',
  '#f4ae55',
  '#b0a5fd',
  '#addfe5',
  '#f5ce6e',
  '#c2726a',
  '#94c849',
  '#bd86e5',
];
export function defaultColor(streamId: number): string {
  return PALETTE[streamId % PALETTE.length]!;
}
