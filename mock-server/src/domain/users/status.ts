import type { ParamsOf, SchemaOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { EventOf } from '../../contract/event-types.js';
import type { PresenceRow, RealmState, UserRow, UserStatusRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import type { Emoji } from '../emoji.js';
import { badRequest, insufficientPermission } from '../errors.js';
import { mayAdministerUsers, mayUpdateStatuses } from '../permissions.js';
import { activeUserIds, targetUser } from './lookup.js';
import { resolveStatusEmoji, NO_EMOJI, type StatusEmojiParams } from './status-emoji.js';

/**
 * User statuses (spec §2.7, §4.4, §4.5 and the companion GET /users/{user_id}/status). A status is a
 * text (at most 60 characters, §8) and an emoji, one row per user in `user_statuses`. `away` is not
 * stored there: it is the inverse of the user's presence_enabled setting (§2.7), so it lives in the
 * settings (setAway below).
 */

/** Parameters of §4.5 (the pipeline has parsed them: status_text stripped and at most 60). §4.4 has no `away` (C5). */
export interface StatusParams extends StatusEmojiParams {
  away?: boolean;
  status_text?: string;
}

/**
 * §4.4, §4.5 (reference §5 "Other gates"): bots may not call the status operations. Checked before the
 * parameters are read (reference "Order of checks" 1), so a bot gets this answer even for malformed input.
 */
export function refuseBotCallers(user: UserRow | undefined): void {
  if (user && !mayUpdateStatuses(user)) throw badRequest('This endpoint does not accept bot requests.');
}

/** POST /users/me/status (spec §4.5): the caller's own status, `away` included. */
export function doUpdateStatus(tx: Tx, actor: ActorContext, p: ParamsOf<'update-status'>): void {
  applyStatus(tx, actor, actor.user, p);
}

/**
 * POST /users/{user_id}/status (spec §4.4): the target checks of reference "Shared access checks" (a
 * bot or an unknown user is `No such user`, a deactivated one `User is deactivated`), then the caller
 * must administer users (§5), then the rules of §4.5 apply to the target. The parameters carry no
 * `away`: the document has none for this operation, so one sent is ignored and reported in
 * ignored_parameters_unsupported (C5) and never reaches this function.
 */
export function doUpdateStatusForUser(tx: Tx, actor: ActorContext, params: ParamsOf<'update-status-for-user'>): void {
  const { user_id: userId, ...p } = params;
  const target = targetUser(tx.tables, userId, { bots: false, deactivated: false });
  if (!mayAdministerUsers(actor.user)) throw insufficientPermission();
  applyStatus(tx, actor, target, p);
}

/**
 * The rules of §4.5 in the reference order, for `user`, then the changes. Every check runs before
 * anything is written; a throw inside the transaction would roll back anyway.
 * 1. None of away, status_text, emoji_name present → `Client did not pass any new values.`. "New" means
 *    "present": sending the current value again is a change and emits (reference §4.5 check 1), and an
 *    emoji_code or reaction_type alone gets this text rather than the emoji_name one (reference,
 *    "Readings that are not conflicts").
 * 2.–5. The emoji (status-emoji.ts).
 * Only the fields sent change; the others stay.
 */
function applyStatus(tx: Tx, actor: ActorContext, user: UserRow, p: StatusParams): void {
  if (p.away === undefined && p.status_text === undefined && p.emoji_name === undefined)
    throw badRequest('Client did not pass any new values.');
  const emoji = resolveStatusEmoji(tx.tables, p);
  if (p.away !== undefined) setAway(tx, actor, user, p.away);
  if (p.status_text !== undefined || emoji !== undefined) writeStatus(tx, user.user_id, p.status_text, emoji);
  emitUserStatus(tx, user.user_id, p.away, p.status_text, emoji);
}

function writeStatus(tx: Tx, userId: number, statusText: string | undefined, emoji: Emoji | undefined): void {
  const current: UserStatusRow = tx.tables.user_statuses[String(userId)] ?? { user_id: userId, status_text: '', ...NO_EMOJI };
  const row: UserStatusRow = { ...current };
  if (statusText !== undefined) row.status_text = statusText;
  if (emoji !== undefined) Object.assign(row, emoji);
  tx.put('user_statuses', userId, row);
}

/**
 * Reference "Event payloads": `user_status` with the user's ID and only what was sent, the emoji
 * completed (a name sent alone arrives with the code and type it resolved to; a cleared emoji with code
 * "" and type unicode_emoji), to every active account of the realm (statuses are public within the
 * realm: the register snapshot shows everyone's), the user's own queues included (reference §6).
 */
function emitUserStatus(tx: Tx, userId: number, away: boolean | undefined, statusText: string | undefined, emoji: Emoji | undefined): void {
  const event: EventOf<'user_status'> = {
    type: 'user_status',
    user_id: userId,
    ...(away !== undefined ? { away } : {}),
    ...(statusText !== undefined ? { status_text: statusText } : {}),
    ...emoji,
  };
  tx.emit(event, activeUserIds(tx.tables));
}

/**
 * A status as GET /users/{user_id}/status and register's `user_status` show it (reference §2 "User
 * status"): only fields that differ from the defaults, the emoji's three fields together when an emoji
 * is set, `away` only when true (presence_enabled false, §2.7), `{}` when nothing is set.
 */
export function presentUserStatus(tables: Pick<RealmState, 'user_statuses'>, user: UserRow): SchemaOf<'UserStatus'> {
  const status: SchemaOf<'UserStatus'> = {};
  const row = tables.user_statuses[String(user.user_id)];
  if (row?.status_text) status.status_text = row.status_text;
  if (row?.emoji_name) {
    status.emoji_name = row.emoji_name;
    status.emoji_code = row.emoji_code;
    status.reaction_type = row.reaction_type;
  }
  if (user.settings.presence_enabled === false) status.away = true;
  return status;
}

/**
 * GET /users/{user_id}/status (companion of §4.4): any authenticated account may read any user's
 * status, as every one of them gets everyone's in the register snapshot. The spec is silent on which
 * users may be named; the reference server looks the user up without bots or deactivated users, so a
 * bot is `No such user` (bots have no status: both update operations refuse them) and a deactivated
 * user `User is deactivated` (they leave the snapshot's user_status map), the same checks as §4.4's.
 */
export function getUserStatus(tables: RealmState, userId: number): SchemaOf<'UserStatus'> {
  return presentUserStatus(tables, targetUser(tables, userId, { bots: false, deactivated: false }));
}

/**
 * `away` (spec §2.7: the inverse of presence_enabled; reference §4.5: true sets presence_enabled false,
 * false sets it back). Sent at all, it sets the setting and announces it, even when the value does not
 * change (a value sent counts as new, reference §4.5 check 1):
 * - `user_settings` / update `presence_enabled` to the user's own queues. Clients without
 *   user_settings_object also get the legacy update_global_notifications, which events/shape.ts builds
 *   with the user's email from the `_user_email` shaping key (and removes before delivery).
 * - `presence` to every active account (presencePayloads).
 */
function setAway(tx: Tx, actor: ActorContext, user: UserRow, away: boolean): void {
  const presenceEnabled = !away;
  const current = tx.tables.users[String(user.user_id)]!;
  tx.put('users', user.user_id, { ...current, settings: { ...current.settings, presence_enabled: presenceEnabled } });
  tx.emit({ type: 'user_settings', op: 'update', property: 'presence_enabled', value: presenceEnabled, _user_email: user.email }, [
    user.user_id,
  ]);

  let presence: PresenceRow | null = null;
  if (presenceEnabled) {
    // A presence change like any other: update-presence's last_update_id readers see it (area live).
    presence = { user_id: user.user_id, active_timestamp: actor.now, idle_timestamp: actor.now, last_update_id: tx.nextId('presence') };
    tx.put('presence', user.user_id, presence);
  }
  const { legacy, simplified } = presencePayloads(user, presence, actor.now);
  tx.emit(legacy, activeUserIds(tx.tables), (client) => (client.simplified_presence_events ? simplified : legacy));
}

/**
 * The `presence` event of an away change, designed so that a client applying it reaches what the
 * register snapshot then shows (events/snapshot/people.ts presenceKeys): users who do not share their
 * presence are left out of `presences`; the others appear with their presence row.
 * - Presence shared again (`row` given): the reference server records the user as active at that moment
 *   and announces it; so does the mock (the row becomes active and idle now, which also puts the user
 *   inside any presence_history_limit_days window of the snapshot).
 * - Presence no longer shared (`row` null): the reference server rewrites the user's presence as idle
 *   just past its offline threshold, so clients show them offline. The mock's snapshot leaves the user
 *   out instead, so the event carries an empty presence (no client, no timestamp): nothing is known
 *   about the user any more, and a client drops its entry, as the snapshot has none. The old row stays,
 *   hidden while presence is off, and is replaced when it comes back.
 * Two forms, by the client's simplified_presence_events capability (spec §4.21): the modern
 * `{presences: {"<user_id>": {active_timestamp, idle_timestamp}}}` (the slim_presence form of the
 * snapshot), or the legacy `{user_id, email, server_timestamp, presence: {<client>: {client, status,
 * timestamp, pushable}}}` (reference "Event payloads"), with the client name `website` that the
 * snapshot's legacy `aggregated` form names too.
 */
function presencePayloads(
  user: UserRow,
  row: PresenceRow | null,
  now: number,
): { legacy: EventOf<'presence'>; simplified: EventOf<'presence'> } {
  const clients = row ? { website: { client: 'website', status: 'active', timestamp: row.active_timestamp, pushable: false } } : {};
  const modern = row ? { active_timestamp: row.active_timestamp, idle_timestamp: row.idle_timestamp } : {};
  return {
    legacy: { type: 'presence', user_id: user.user_id, email: user.email, server_timestamp: now, presence: clients },
    simplified: { type: 'presence', presences: { [String(user.user_id)]: modern } },
  };
}
