import { isDeepStrictEqual } from 'node:util';
import { ApiClient, type Credentials, type Params, type Reply } from './client.js';
import type { World, WorldChannelKind, WorldRole } from './world.js';

/**
 * The world's shared fixtures as the API shows them: the settings of every channel the world file names,
 * which of those channels each world user is subscribed to, and each world user's role, name and state. Scenarios marked `serial` (and, against a
 * target without the control API, `isolated` and `destructive` ones, which get no realm of their own) may
 * change them; the runner reads them before such a scenario and puts back whatever it left changed, so
 * the next scenario finds the world as its file describes it, whatever the order. The proof tests also
 * compare the state before and after a whole run: a scenario that is not marked must leave no trace.
 */
export interface FixtureState {
  /** stream_id → the channel's restorable settings (GET /api/v1/streams/{id} as the administrator). */
  channels: Record<number, Record<string, unknown>>;
  /** role → IDs of the world's channels it is subscribed to (GET /api/v1/users/me/subscriptions). */
  subscriptions: Partial<Record<WorldRole, number[]>>;
  /** role → the user's role code, name and whether active (GET /api/v1/users/{id} as the administrator). */
  users: Partial<Record<WorldRole, { role: unknown; full_name: unknown; is_active: unknown }>>;
}

/** Channel settings §4.16 can set back, with how each goes on the wire. */
const GROUP_SETTINGS = [
  'can_add_subscribers_group',
  'can_remove_subscribers_group',
  'can_administer_channel_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
] as const;
const SETTINGS = [
  'name',
  'description',
  'invite_only',
  'is_web_public',
  'history_public_to_subscribers',
  'message_retention_days',
  'topics_policy',
  'folder_id',
  'is_archived',
  ...GROUP_SETTINGS,
] as const;

/** The guard's own requests are not part of any scenario's record: they are not verdicts on the target. */
const silentClient = (baseUrl: string) => new ApiClient(baseUrl, () => -1);

function credentials(world: World, role: WorldRole): Credentials | null {
  const c = world.credentials[role] as { email: string; api_key?: string } | undefined;
  return c?.api_key ? { role, email: c.email, api_key: c.api_key } : null;
}

/** The human and bot users a scenario can act as, once each (bot_owner often repeats another role). */
function actingRoles(world: World): WorldRole[] {
  const seen = new Set<string>();
  return (Object.keys(world.credentials) as WorldRole[]).filter((r) => {
    const c = credentials(world, r);
    if (r === 'deactivated' || !c || seen.has(c.email)) return false;
    seen.add(c.email);
    return true;
  });
}

const worldChannels = (world: World) => Object.entries(world.channels).map(([kind, ch]) => ({ kind: kind as WorldChannelKind, ...ch! }));

export async function readFixtures(baseUrl: string, world: World): Promise<FixtureState> {
  const client = silentClient(baseUrl);
  const admin = credentials(world, 'administrator');
  const channels: FixtureState['channels'] = {};
  for (const ch of worldChannels(world)) {
    const res = await client.call('GET', `/api/v1/streams/${ch.stream_id}`, {}, admin);
    const stream = (res.body.stream ?? {}) as Record<string, unknown>;
    channels[ch.stream_id] = Object.fromEntries(SETTINGS.filter((k) => k in stream).map((k) => [k, stream[k]]));
  }
  const ids = new Set(worldChannels(world).map((c) => c.stream_id));
  const subscriptions: FixtureState['subscriptions'] = {};
  for (const role of actingRoles(world)) {
    const res = await client.call('GET', '/api/v1/users/me/subscriptions', {}, credentials(world, role));
    const subs = Array.isArray(res.body.subscriptions) ? (res.body.subscriptions as { stream_id?: unknown }[]) : [];
    subscriptions[role] = subs
      .map((s) => s.stream_id)
      .filter((id): id is number => typeof id === 'number' && ids.has(id))
      .sort((a, b) => a - b);
  }
  const users: FixtureState['users'] = {};
  for (const role of actingRoles(world)) {
    const res = await client.call('GET', `/api/v1/users/${world.credentials[role]!.user_id}`, {}, admin);
    const user = (res.body.user ?? {}) as Record<string, unknown>;
    users[role] = { role: user.role, full_name: user.full_name, is_active: user.is_active };
  }
  return { channels, subscriptions, users };
}

/** What differs between two states, one line each ("public: is_web_public true, was false"). */
export function fixtureChanges(world: World, before: FixtureState, after: FixtureState): string[] {
  const changes: string[] = [];
  const kindOf = new Map(worldChannels(world).map((c) => [c.stream_id, c.kind]));
  for (const [id, was] of Object.entries(before.channels)) {
    const now = after.channels[Number(id)] ?? {};
    for (const key of SETTINGS)
      if (!isDeepStrictEqual(now[key], was[key]))
        changes.push(`${kindOf.get(Number(id))}: ${key} ${JSON.stringify(now[key])}, was ${JSON.stringify(was[key])}`);
  }
  // A deactivated user's subscriptions read as gone: the deactivation is the one change to report.
  const deactivated = (role: WorldRole) => before.users[role]?.is_active === true && after.users[role]?.is_active === false;
  for (const [role, was] of Object.entries(before.subscriptions) as [WorldRole, number[]][]) {
    if (deactivated(role)) continue;
    const now = after.subscriptions[role] ?? [];
    for (const id of was.filter((x) => !now.includes(x))) changes.push(`${role} no longer subscribed to ${kindOf.get(id)}`);
    for (const id of now.filter((x) => !was.includes(x))) changes.push(`${role} now subscribed to ${kindOf.get(id)}`);
  }
  for (const [role, was] of Object.entries(before.users) as [WorldRole, Record<string, unknown>][]) {
    const now: Record<string, unknown> = after.users[role] ?? {};
    for (const key of ['role', 'full_name', 'is_active'])
      if (!isDeepStrictEqual(now[key], was[key]))
        changes.push(`${role}: ${key} ${JSON.stringify(now[key])}, was ${JSON.stringify(was[key])}`);
  }
  return changes;
}

/**
 * Puts the fixtures back as they were in `before`, through the API only (administrator first, then the
 * owner: a private channel's permissions need an administrator subscribed to it, §4.16). Returns what
 * it could not put back (empty when the world is as before).
 */
export async function restoreFixtures(baseUrl: string, world: World, before: FixtureState): Promise<string[]> {
  const client = silentClient(baseUrl);
  const now = await readFixtures(baseUrl, world);
  if (fixtureChanges(world, before, now).length === 0) return [];
  const byAdmins = async (method: string, path: string, params: Params): Promise<void> => {
    for (const role of ['administrator', 'owner'] as const) {
      const res: Reply = await client.call(method, path, params, credentials(world, role));
      if (res.body.result === 'success') return;
    }
  };
  const byOwners = async (method: string, path: string, params: Params): Promise<void> => {
    for (const role of ['owner', 'administrator'] as const) {
      const res: Reply = await client.call(method, path, params, credentials(world, role));
      if (res.body.result === 'success') return;
    }
  };
  for (const ch of worldChannels(world)) {
    const was = before.channels[ch.stream_id];
    const is = now.channels[ch.stream_id];
    if (!was || !is) continue;
    const path = `/api/v1/streams/${ch.stream_id}`;
    const changed = (k: string) => !isDeepStrictEqual(was[k], is[k]);
    // Unarchive first (settings of archived channels may be frozen); archive last.
    if (changed('is_archived') && was.is_archived === false) await byAdmins('PATCH', path, { is_archived: true }); // §3: unarchives
    if (changed('name')) await byAdmins('PATCH', path, { new_name: String(was.name) });
    if (changed('description')) await byAdmins('PATCH', path, { description: String(was.description) });
    if (changed('invite_only') || changed('history_public_to_subscribers') || changed('is_web_public')) {
      await byAdmins('PATCH', path, {
        is_private: was.invite_only === true,
        history_public_to_subscribers: was.history_public_to_subscribers === true,
        ...(was.invite_only ? {} : { is_web_public: was.is_web_public === true }),
      });
    }
    if (changed('message_retention_days')) await byAdmins('PATCH', path, { message_retention_days: retention(was.message_retention_days) });
    if (changed('topics_policy')) await byAdmins('PATCH', path, { topics_policy: String(was.topics_policy) });
    if (changed('folder_id')) await byAdmins('PATCH', path, { folder_id: was.folder_id as number | null });
    for (const key of GROUP_SETTINGS) if (changed(key)) await byAdmins('PATCH', path, { [key]: { new: was[key] } });
    if (changed('is_archived') && was.is_archived === true) await byAdmins('DELETE', path, {});
  }
  for (const [role, was] of Object.entries(before.subscriptions) as [WorldRole, number[]][]) {
    const is = now.subscriptions[role] ?? [];
    const who = credentials(world, role);
    const user = world.credentials[role] as { user_id: number };
    for (const ch of worldChannels(world).filter((c) => was.includes(c.stream_id) && !is.includes(c.stream_id))) {
      await byAdmins('POST', '/api/v1/users/me/subscriptions', { subscriptions: [{ name: ch.name }], principals: [user.user_id] });
    }
    for (const ch of worldChannels(world).filter((c) => is.includes(c.stream_id) && !was.includes(c.stream_id))) {
      await client.call('DELETE', '/api/v1/users/me/subscriptions', { subscriptions: [ch.name] }, who);
    }
  }
  // Role codes go back through the owner first (only owners grant or remove the owner role, §4.7); no
  // operation of the spec reactivates a user, so a deactivation stays and is reported.
  for (const [role, was] of Object.entries(before.users) as [WorldRole, Record<string, unknown>][]) {
    const is = now.users[role];
    const path = `/api/v1/users/${world.credentials[role]!.user_id}`;
    if (is && !isDeepStrictEqual(is.full_name, was.full_name)) await byAdmins('PATCH', path, { full_name: String(was.full_name) });
    if (is && !isDeepStrictEqual(is.role, was.role)) await byOwners('PATCH', path, { role: Number(was.role) });
  }
  return fixtureChanges(world, before, await readFixtures(baseUrl, world));
}

/** §4.16: message_retention_days is realm_default (null), unlimited (-1) or a number of days, JSON-encoded like every non-string value. */
const retention = (value: unknown): string =>
  JSON.stringify(value === null || value === undefined ? 'realm_default' : value === -1 ? 'unlimited' : Number(value));
