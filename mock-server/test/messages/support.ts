import { readFileSync } from 'node:fs';
import type { MockServer } from '../../src/app.js';
import type { ChannelRow, GroupSettingValue, MessageRow, RealmState, UserRow } from '../../src/store/state.js';
import { afterAll, beforeAll } from 'vitest';
import { call, credentials, startTestServer, type Reply, type Who } from '../helpers/test-server.js';

/**
 * Helpers of the single-message tests (spec §2.5, §4.3, §4.13; reference §4.3, §4.13). Requests go
 * through HTTP as a stock client sends them; the store is only read (or, to build a case the demo
 * fixture lacks, written in a realm of the test's own).
 */

export type Json = Record<string, unknown>;
export type Cred = Who & { user_id: number; full_name: string };
export type Creds = Record<string, Cred>;

/** The world file the conformance suite reads: roles, channels by kind (fixtures/world.demo.json). */
export const WORLD = JSON.parse(readFileSync(new URL('../../../fixtures/world.demo.json', import.meta.url), 'utf8')) as {
  realm: { notification_bot: { user_id: number } };
  credentials: Record<string, { user_id: number; full_name: string }>;
  channels: Record<string, { stream_id: number; name: string }>;
  messages: { protected_history: { hidden_id: number; visible_id: number } };
};
export const channelId = (kind: string): number => WORLD.channels[kind]!.stream_id;

/** Every role the fetch and report rules are checked for. */
export const ROLES = ['owner', 'administrator', 'moderator', 'member', 'member_2', 'member_3', 'guest', 'bot'] as const;
export type Role = (typeof ROLES)[number];

export const error = (msg: string, code = 'BAD_REQUEST', extra: Json = {}) => ({ result: 'error', msg, code, ...extra });
/** Reference "Shared access checks": one answer for a missing message and one the caller may not see. */
export const INVALID_MESSAGE = error('Invalid message(s)');
export const HISTORICAL = ['read', 'historical'];

export function tables(server: MockServer, realm = 'demo'): RealmState {
  const state = server.context.store.realm(realm);
  if (!state) throw new Error(`no realm ${realm}`);
  return state;
}

export const messages = (t: RealmState): MessageRow[] => Object.values(t.messages).sort((a, b) => a.id - b.id);
export const userOf = (t: RealmState, id: number): UserRow => t.users[String(id)]!;
export const receivedFlags = (t: RealmState, userId: number, messageId: number): string[] | undefined =>
  t.user_messages[String(messageId)]?.flags[String(userId)];

/** The first message matching `test`, or a loud failure: the fixture no longer has the case. */
export function pick(t: RealmState, what: string, test: (m: MessageRow) => boolean): MessageRow {
  const found = messages(t).find(test);
  if (!found) throw new Error(`the demo fixture has no ${what}`);
  return found;
}

export function fetchMessage(server: MockServer, as: Who, id: number | string, query: Record<string, string> = {}): Promise<Reply> {
  return call(server, 'GET', `/api/v1/messages/${id}`, { as, query });
}

export function report(server: MockServer, as: Who, id: number | string, form?: Record<string, string>): Promise<Reply> {
  return call(server, 'POST', `/api/v1/messages/${id}/report`, form === undefined ? { as } : { as, form });
}

let counter = 0;
/** A realm of the test's own (a copy of the demo world), optionally at an older feature level (§9). */
export async function freshRealm(server: MockServer, featureLevel?: number): Promise<{ realm: string; who: Creds }> {
  const realm = `msg-${++counter}-${featureLevel ?? 'now'}`;
  await server.control.createRealm({ realm_id: realm, ...(featureLevel === undefined ? {} : { feature_level: featureLevel }) });
  return { realm, who: credentials(server, realm) as Creds };
}

/** Replaces one row of a realm of the test's own (never the shared demo realm). */
export function putRow<T extends 'messages' | 'users' | 'channels' | 'realm'>(
  server: MockServer,
  realm: string,
  table: T,
  key: number | string,
  row: RealmState[T][keyof RealmState[T]],
): Promise<void> {
  if (realm === 'demo') throw new Error('tests write only to realms of their own');
  return server.context.store.transact(realm, (tx) => tx.put(table, key, row as never));
}

export type Event = Json & { type: string };

/** Registers an event queue (all event types) and returns its ID. */
export async function openQueue(server: MockServer, as: Who): Promise<string> {
  const res = await call(server, 'POST', '/api/v1/register', { as });
  if (res.status !== 200) throw new Error(`register failed: ${res.text}`);
  return res.body.queue_id as string;
}

/** Every event queued so far, heartbeats left out. */
export async function drain(server: MockServer, as: Who, queueId: string): Promise<Event[]> {
  const res = await call(server, 'GET', '/api/v1/events', { as, query: { queue_id: queueId, last_event_id: '-1', dont_block: 'true' } });
  if (res.status !== 200) throw new Error(`events failed: ${res.text}`);
  return (res.body.events as Event[]).filter((e) => e.type !== 'heartbeat');
}

/** Opens a queue for each role, runs `change`, and returns what each queue received. */
export async function observe(
  server: MockServer,
  who: Creds,
  roles: readonly string[],
  change: () => Promise<unknown>,
): Promise<Record<string, Event[]>> {
  const queues: Record<string, string> = {};
  for (const role of roles) queues[role] = await openQueue(server, who[role]!);
  await change();
  const out: Record<string, Event[]> = {};
  for (const role of roles) out[role] = await drain(server, who[role]!, queues[role]!);
  return out;
}

// ---- The visibility rule, written from the spec and the reference rather than from the server ----

/** Spec §1 group-setting value, resolved through nested groups; only active users hold permissions. */
function inGroup(t: RealmState, userId: number, value: GroupSettingValue, seen = new Set<number>()): boolean {
  if (!t.users[String(userId)]?.is_active) return false;
  const direct = typeof value === 'number' ? { direct_members: [], direct_subgroups: [value] } : value;
  if (direct.direct_members.includes(userId)) return true;
  return direct.direct_subgroups.some((id) => {
    const group = t.user_groups[String(id)];
    if (!group || group.deactivated || seen.has(id)) return false;
    seen.add(id);
    return group.members.includes(userId) || inGroup(t, userId, { direct_members: [], direct_subgroups: group.direct_subgroup_ids }, seen);
  });
}

/**
 * Content access (reference "Shared access checks"): web-public channels for everyone, subscribers
 * always, guests nothing else, public channels for everyone else, private channels through a granting
 * group (can_add_subscribers_group, can_subscribe_group).
 */
function contentAccess(t: RealmState, user: UserRow, channel: ChannelRow): boolean {
  if (channel.is_web_public) return true;
  if (t.subscriptions[`${user.user_id}:${channel.stream_id}`]?.active) return true;
  if (user.role === 600) return false;
  if (!channel.invite_only) return true;
  return inGroup(t, user.user_id, channel.can_add_subscribers_group) || inGroup(t, user.user_id, channel.can_subscribe_group);
}

/**
 * What GET /messages can list for a user (reference: the user's own copies, which stay after they leave
 * a channel, plus the history of a channel whose history they may read): a message they received, or a
 * channel message whose history is shared with subscribers in a channel whose content they may read.
 */
export function expectedListable(t: RealmState, userId: number, m: MessageRow): boolean {
  if (receivedFlags(t, userId, m.id) !== undefined) return true;
  if (m.type !== 'stream') return false;
  const channel = t.channels[String(m.stream_id)]!;
  return channel.history_public_to_subscribers && contentAccess(t, userOf(t, userId), channel);
}

/**
 * Spec §4.3 "not visible to the caller", reference has_message_access: a direct message they received;
 * a public channel's message for a non-guest; protected history received AND with content access now;
 * shared history with content access now. A received message of a channel the user left since is not
 * enough.
 */
export function expectedAccess(t: RealmState, userId: number, m: MessageRow): boolean {
  const received = receivedFlags(t, userId, m.id) !== undefined;
  if (m.type !== 'stream') return received;
  const channel = t.channels[String(m.stream_id)]!;
  const user = userOf(t, userId);
  if (!channel.invite_only && user.role !== 600) return true;
  if (!channel.history_public_to_subscribers) return received && contentAccess(t, user, channel);
  return contentAccess(t, user, channel);
}

/** The demo realm of a file's own server (started before its tests, closed after), its credentials and tables. */
export interface DemoEnv {
  server: MockServer;
  who: Creds;
  t: RealmState;
}
export function useDemo(): DemoEnv {
  const env = {} as DemoEnv;
  beforeAll(async () => {
    env.server = await startTestServer();
    env.who = credentials(env.server) as Creds;
    env.t = tables(env.server);
  });
  afterAll(() => env.server.close());
  return env;
}
