import { isDeepStrictEqual } from 'node:util';
import { ApiClient, type Credentials } from '../../../conformance/src/client.js';
import type { World, WorldRole } from '../../../conformance/src/world.js';

/**
 * The world as every user of the world file reads it through the API (never the mock's store): what a run of
 * the suite must leave as it found it. Per user, the register snapshot of every type of lasting state (realm
 * settings, users, groups, channels, subscriptions and their settings, statuses, user settings, drafts,
 * snippets, views, scheduled messages, reminders, alert words, topic policies, starred messages, linkifiers,
 * emoji, profile fields), and the users' custom profile data as an administrator reads it.
 */
export type WorldState = Record<string, unknown>;

const STATE_TYPES = [
  'realm',
  'realm_user',
  'realm_user_groups',
  'stream',
  'default_streams',
  'subscription',
  'channel_folders',
  'user_status',
  'user_settings',
  'drafts',
  'saved_snippets',
  'navigation_views',
  'scheduled_messages',
  'reminders',
  'alert_words',
  'user_topic',
  'muted_topics',
  'starred_messages',
  'realm_linkifiers',
  'realm_emoji',
  'custom_profile_fields',
];

/**
 * Keys that move whenever anyone sends a message or time passes, whoever sends it (scenarios do send
 * messages, which stay): not part of the world a scenario must put back.
 */
const MOVING = new Set(['stream_weekly_traffic', 'first_message_id', 'last_event_id', 'queue_id', 'server_timestamp']);

const credentials = (world: World, role: WorldRole): Credentials | null => {
  const c = world.credentials[role] as { email: string; api_key?: string } | undefined;
  return c?.api_key ? { role, email: c.email, api_key: c.api_key } : null;
};

export async function readWorldState(baseUrl: string, world: World): Promise<WorldState> {
  const client = new ApiClient(baseUrl, () => -1);
  const state: WorldState = {};
  const seen = new Set<string>();
  for (const role of Object.keys(world.credentials) as WorldRole[]) {
    const who = credentials(world, role);
    if (role === 'deactivated' || !who || seen.has(who.email)) continue;
    seen.add(who.email);
    const res = await client.call('POST', '/api/v1/register', { event_types: STATE_TYPES, fetch_event_types: STATE_TYPES }, who);
    if (typeof res.body.queue_id === 'string') await client.call('DELETE', '/api/v1/events', { queue_id: res.body.queue_id }, who);
    state[role] = res.body;
  }
  const admin = credentials(world, 'administrator');
  const users = await client.call('GET', '/api/v1/users', { include_custom_profile_fields: true }, admin);
  state.profile_data = Object.fromEntries(
    ((users.body.members ?? []) as { user_id: number; profile_data?: unknown }[]).map((u) => [u.user_id, u.profile_data ?? null]),
  );
  return state;
}

/** Lists of objects with an ID, keyed by it, so that a difference names the item rather than a position. */
const ID_KEYS = ['stream_id', 'user_id', 'id', 'scheduled_message_id', 'reminder_id', 'fragment', 'name'];

function keyed(value: unknown[]): Record<string, unknown> | unknown[] {
  const first = value[0];
  if (first === null || typeof first !== 'object') return value;
  const key = ID_KEYS.find((k) => value.every((v) => v !== null && typeof v === 'object' && k in v));
  return key ? Object.fromEntries(value.map((v) => [String((v as Record<string, unknown>)[key]), v])) : value;
}

/**
 * The state with the users it did not know left out of every group's members: a user the suite makes (no
 * operation deletes one) is deactivated afterwards but stays in the system group of its role, and is no part
 * of the world found.
 */
export function withoutUsersBeyond(state: WorldState, known: ReadonlySet<number>): WorldState {
  const strip = (value: unknown, key = ''): unknown => {
    if (Array.isArray(value))
      return key === 'members' || key === 'direct_members'
        ? value.filter((id) => typeof id !== 'number' || known.has(id))
        : value.map((v) => strip(v));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strip(v, k)]));
  };
  return strip(state) as WorldState;
}

/** Every user ID the state shows, active or not (register's realm_users and realm_non_active_users, the user list). */
export function knownUsers(state: WorldState): Set<number> {
  const ids = new Set(Object.keys(state.profile_data as object).map(Number));
  for (const reader of Object.values(state))
    for (const key of ['realm_users', 'realm_non_active_users', 'cross_realm_bots'])
      for (const u of ((reader as Record<string, unknown>)[key] ?? []) as { user_id?: unknown }[])
        if (typeof u.user_id === 'number') ids.add(u.user_id);
  return ids;
}

/**
 * What differs, one line per path ("member.subscriptions.51.is_muted: true, was false"). Items that exist only
 * after the run are the suite's own (channels, users it made and archived or deactivated, messages it sent):
 * `added` lists their paths, for the caller to judge; everything that existed before must be as it was.
 */
export function worldChanges(before: unknown, after: unknown, path = ''): { changed: string[]; added: string[] } {
  const out = { changed: [] as string[], added: [] as string[] };
  const walk = (a: unknown, b: unknown, at: string): void => {
    if (isDeepStrictEqual(a, b)) return;
    if (Array.isArray(a) && Array.isArray(b)) {
      const [x, y] = [keyed(a), keyed(b)];
      if (Array.isArray(x) || Array.isArray(y)) return void out.changed.push(`${at}: ${JSON.stringify(b)}, was ${JSON.stringify(a)}`);
      return walk(x, y, at);
    }
    const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
    if (isObj(a) && isObj(b)) {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (MOVING.has(k)) continue;
        const sub = at ? `${at}.${k}` : k;
        if (!(k in a)) out.added.push(sub);
        else walk(a[k], b[k], sub);
      }
      return;
    }
    out.changed.push(`${at}: ${JSON.stringify(b)}, was ${JSON.stringify(a)}`);
  };
  walk(before, after, path);
  return out;
}
