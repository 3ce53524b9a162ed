import type { AnswerOf, ParamsOf, SchemaOf } from '../../contract/operation-types.js';
import { ownedOf, type IndexedTables } from '../../store/indexes.js';
import type { EventOf } from '../../contract/event-types.js';
import type { Tx } from '../../store/store.js';
import type { PresenceRow, RealmState, UserRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { invalidPresenceStatus, noPresenceData, presenceNoSuchUser, presenceOfBot } from '../errors.js';
import { activeUserIds, userIdInPath } from '../users/lookup.js';

/**
 * Presence (companion tier, area live; reference "Update your presence", "Get user presence", "Get
 * presence of all users", presence events). A row per user holds when they were last reported active
 * and last connected at all (`idle_timestamp`, the reference's last_connected_time); everything else is
 * computed at the realm's time, so advancing a realm's clock (control API) turns users idle or offline
 * without any timer.
 */

/** Reference defaults (register type `realm`, reference feature level 164). */
export const PRESENCE_PING_INTERVAL_SECONDS = 60;
export const PRESENCE_OFFLINE_THRESHOLD_SECONDS = 140;
/** Default window of update-presence and GET /realm/presence (reference: two weeks). */
export const PRESENCE_HISTORY_DAYS = 14;
const DAY = 86_400;

type Tables = Pick<RealmState, 'users' | 'presence'>;

/**
 * The legacy status of a row, as the register snapshot's legacy form computes it: active when the last
 * active report is the newest, else idle; the time is the newest report.
 */
export function legacyStatus(row: PresenceRow): { status: 'active' | 'idle'; timestamp: number } {
  return row.active_timestamp >= row.idle_timestamp
    ? { status: 'active', timestamp: row.active_timestamp }
    : { status: 'idle', timestamp: row.idle_timestamp };
}

const lastSeen = (row: PresenceRow) => Math.max(row.active_timestamp, row.idle_timestamp);
const isOffline = (row: PresenceRow, now: number) => now - lastSeen(row) > PRESENCE_OFFLINE_THRESHOLD_SECONDS;

/** Whether a user's presence is shown at all: an active human who shares it (presence_enabled). */
function shares(user: UserRow | undefined): user is UserRow {
  return user !== undefined && user.is_active && !user.is_bot && !user.is_system_bot && user.settings.presence_enabled !== false;
}

/** The legacy form: each user's statuses by client, keyed by API email (GET /realm/presence). */
type LegacyPresences = AnswerOf<'get-presence'>['presences'];
/** The modern form (slim_presence): each user's two times, keyed by user ID. */
type SlimPresences = Record<string, { active_timestamp: number; idle_timestamp: number }>;

function legacyEntry(row: PresenceRow): Record<string, SchemaOf<'PresenceStatus'>> {
  const { status, timestamp } = legacyStatus(row);
  return {
    website: { client: 'website', status, timestamp, pushable: false },
    aggregated: { client: 'website', status, timestamp },
  };
}

export interface PresenceQuery {
  historyDays: number;
  /** Only rows changed after this update ID (undefined: every row). */
  after?: number;
  now: number;
}

/** The presences update-presence and GET /realm/presence answer, users sorted by ID. */
function shownPresences(tables: Tables, q: PresenceQuery): Shown {
  const since = q.now - q.historyDays * DAY;
  const shown: Shown = [];
  for (const row of Object.values(tables.presence).sort((a, b) => a.user_id - b.user_id)) {
    const user = tables.users[String(row.user_id)];
    if (!shares(user) || lastSeen(row) < since) continue;
    if (q.after !== undefined && (row.last_update_id ?? 0) <= q.after) continue;
    shown.push({ user, row });
  }
  return shown;
}

type Shown = { user: UserRow; row: PresenceRow }[];

/** The realm's presences in the legacy form (keyed by email). */
export function legacyPresences(tables: Tables, q: PresenceQuery): LegacyPresences {
  return legacyForm(shownPresences(tables, q));
}

function legacyForm(shown: Shown): LegacyPresences {
  return Object.fromEntries(shown.map(({ user, row }) => [user.email, legacyEntry(row)]));
}

/** Presences in the modern form (keyed by user ID). */
function slimPresences(shown: Shown): SlimPresences {
  const times = ({ row }: { row: PresenceRow }) => ({ active_timestamp: row.active_timestamp, idle_timestamp: row.idle_timestamp });
  return Object.fromEntries(shown.map((s) => [String(s.user.user_id), times(s)]));
}

/** The newest presence change's ID (rows older than the counter count as 0); -1 without any row. */
export function presenceLastUpdateId(tables: Pick<RealmState, 'presence'>): number {
  return ownedOf(tables).presenceLastUpdateId;
}

/**
 * POST /users/me/presence. `active` marks the user active and connected now; `idle` connected only (a
 * first report that is idle records activity at 0: never seen active). `new_user_input` also records
 * the account as recently active (last_active, the recency rule of partial subscribers, spec §8).
 * The answer is computed after the change, so it includes the caller.
 */
export function doUpdatePresence(tx: Tx, actor: ActorContext, p: ParamsOf<'update-presence'>): AnswerOf<'update-presence'> {
  if (p.status !== 'active' && p.status !== 'idle') throw invalidPresenceStatus(p.status);
  const { user, now } = actor;
  const previous = tx.tables.presence[String(user.user_id)];
  const row: PresenceRow = {
    user_id: user.user_id,
    active_timestamp: p.status === 'active' ? now : (previous?.active_timestamp ?? 0),
    idle_timestamp: now,
    last_update_id: tx.nextId('presence'),
  };
  tx.put('presence', user.user_id, row);
  if (p.new_user_input && user.last_active !== now)
    tx.put('users', user.user_id, { ...tx.tables.users[String(user.user_id)]!, last_active: now });
  // Like the reference: an event only when the user comes online or switches between active and idle
  // (not for every minute's ping), and never while they do not share their presence.
  const changed = !previous || isOffline(previous, now) || legacyStatus(previous).status !== legacyStatus(row).status;
  if (changed && shares(user)) emitPresence(tx, user, row, now);
  if (p.ping_only) return {};
  const modern = p.slim_presence || p.last_update_id !== undefined;
  const query = {
    historyDays: p.history_limit_days ?? PRESENCE_HISTORY_DAYS,
    ...(p.last_update_id !== undefined && p.last_update_id >= 0 ? { after: p.last_update_id } : {}),
    now,
  };
  const shown = shownPresences(tx.tables, query);
  const presences = modern ? slimPresences(shown) : legacyForm(shown);
  // reference update-presence (feature level 263): the newest update ID among the presences answered, else
  // the last_update_id sent, else -1; always there from that level, last_update_id or not.
  const newest = shown.reduce((max, { row }) => Math.max(max, row.last_update_id ?? 0), p.last_update_id ?? -1);
  return {
    presences,
    server_timestamp: now,
    ...(actor.features.has('presence_last_update_id') ? { presence_last_update_id: newest } : {}),
  };
}

/**
 * `presence` to every active account, in the form each client declared (simplified_presence_events):
 * the modern `{presences: {id: {active_timestamp, idle_timestamp}}}` or the legacy per-client form.
 */
function emitPresence(tx: Tx, user: UserRow, row: PresenceRow, now: number): void {
  const { status, timestamp } = legacyStatus(row);
  const legacy: EventOf<'presence'> = {
    type: 'presence',
    user_id: user.user_id,
    email: user.email,
    server_timestamp: now,
    presence: { website: { client: 'website', status, timestamp, pushable: false } },
  };
  const simplified: EventOf<'presence'> = {
    type: 'presence',
    presences: { [String(user.user_id)]: { active_timestamp: row.active_timestamp, idle_timestamp: row.idle_timestamp } },
  };
  tx.emit(legacy, activeUserIds(tx.tables), (client) => (client.simplified_presence_events ? simplified : legacy));
}

/**
 * GET /users/{user_id_or_email}/presence: an ID, or an API email (case-insensitive). Unknown,
 * deactivated and system users are `No such user`; bots have no presence. A user who does not share
 * presence answers as one without data (chosen: the reference hides them from every presence listing,
 * and an error that told them apart would reveal invisible mode). `aggregated` turns `offline` past the
 * threshold; `website` keeps the reported status, as on the reference.
 */
export function userPresence(tables: Tables & IndexedTables, asked: string, now: number): AnswerOf<'get-user-presence'>['presence'] {
  const userId = userIdInPath(tables, asked);
  const user = userId === undefined ? undefined : tables.users[String(userId)];
  if (!user || !user.is_active || user.is_system_bot) throw presenceNoSuchUser();
  if (user.is_bot) throw presenceOfBot();
  const row = tables.presence[String(user.user_id)];
  if (!row || !shares(user)) throw noPresenceData(asked);
  const { status, timestamp } = legacyStatus(row);
  return {
    aggregated: { status: isOffline(row, now) ? 'offline' : status, timestamp },
    website: { status, timestamp },
  };
}
