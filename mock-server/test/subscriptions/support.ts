import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { MockServer } from '../../src/app.js';
import type { RealmState } from '../../src/store/state.js';
import { call, credentials, startTestServer, type Reply, type Who } from '../helpers/test-server.js';

/**
 * Shared helpers of the subscription, topic and sending tests (issue 4). Everything goes through HTTP
 * as a stock client would send it; the store is only read, to check what a response does not show.
 */

export type Cred = Who & { user_id: number };
export type Creds = Record<string, Cred>;
export type Json = Record<string, unknown>;
export type Event = Json & { type: string; op?: string };

/** Users of the demo realm without a world-file role (role 400, see fixtures/world.demo.json). */
export const ASHTON = 17; // subscribed to 51 home, 52 alarm, 56 old matrix
export const KIRA = 18; // subscribed to 51 home, 59 array tickets
export const DEACTIVATED = 20;
export const BOT = 21; // owned by member_3 (16), subscribed to 51 only

/** Demo channel names by ID (fixtures/world.demo.json). */
export const NAMES: Record<number, string> = {
  51: 'home',
  52: 'alarm',
  53: 'directives leads',
  54: 'models team',
  55: 'computers announcements',
  56: 'old matrix',
  57: 'port moderation',
  58: 'majestic chatter',
  59: 'array tickets',
};

export const error = (msg: string, code = 'BAD_REQUEST', extra: Json = {}) => ({ result: 'error', msg, code, ...extra });
export const streamMissing = (name: string) => error(`Channel '${name}' does not exist`, 'STREAM_DOES_NOT_EXIST', { stream: name });
export const INSUFFICIENT = error('Insufficient permission');
export const INVALID_CHANNEL = error('Invalid channel ID');

let realmCounter = 0;
/** A fresh demo realm (for a test that changes state), optionally at an older feature level (§9). */
export async function freshRealm(server: MockServer, featureLevel?: number): Promise<{ realm: string; who: Creds }> {
  const realm = `subs-${++realmCounter}-${featureLevel ?? 'current'}`;
  await server.control.createRealm({ realm_id: realm, ...(featureLevel === undefined ? {} : { feature_level: featureLevel }) });
  return { realm, who: credentials(server, realm) as Creds };
}

/** What a test file works on: set in beforeAll, so read it inside tests and hooks only. */
export interface TestRealm {
  server: MockServer;
  /** The realm the file's tests use, and its credentials by world-file role. */
  realm: string;
  who: Creds;
  /** Puts a fresh realm back as beforeAll left it (a `demo` realm has no snapshot to restore). */
  restore(): Promise<void>;
}

/**
 * The hooks every test file here shares, so that each file's setup is one line: an in-process server of
 * its own, closed after the file, and a realm. By default a fresh copy of the demo realm, restored to
 * its pristine snapshot before each test so that no test sees another's changes; `realm: 'demo'` for
 * files that only read the demo realm or make their own realms (freshRealm).
 */
export function useTestRealm(options: { realm?: 'fresh' | 'demo' } = {}): TestRealm {
  const fresh = options.realm !== 'demo';
  const env = {
    restore: async () => {
      await env.server.control.restoreSnapshot(env.realm, 'pristine');
    },
  } as TestRealm;
  beforeAll(async () => {
    env.server = await startTestServer();
    if (!fresh) Object.assign(env, { realm: 'demo', who: credentials(env.server) as Creds });
    else {
      Object.assign(env, await freshRealm(env.server));
      env.server.control.saveSnapshot(env.realm, 'pristine');
    }
  });
  afterAll(() => env.server.close());
  if (fresh) beforeEach(() => env.restore());
  return env;
}

/** Read-only view of a realm's tables, for assertions. */
export function tables(server: MockServer, realm = 'demo'): RealmState {
  const state = server.context.store.realm(realm);
  if (!state) throw new Error(`no realm ${realm}`);
  return state;
}

export const isSubscribed = (server: MockServer, realm: string, userId: number, streamId: number) =>
  tables(server, realm).subscriptions[`${userId}:${streamId}`]?.active === true;

/** DELETE /users/me/subscriptions the Python client's way: JSON lists in a form body. */
export function unsubscribe(server: MockServer, as: Who, subscriptions: string[], principals?: (number | string)[]): Promise<Reply> {
  const form: Record<string, string> = { subscriptions: JSON.stringify(subscriptions) };
  if (principals !== undefined) form.principals = JSON.stringify(principals);
  return call(server, 'DELETE', '/api/v1/users/me/subscriptions', { as, form });
}

export function subscribe(server: MockServer, as: Who, names: string[], extra: Record<string, string> = {}): Promise<Reply> {
  const form = { subscriptions: JSON.stringify(names.map((name) => ({ name }))), ...extra };
  return call(server, 'POST', '/api/v1/users/me/subscriptions', { as, form });
}

export function send(server: MockServer, as: Who, form: Record<string, string>, headers?: Record<string, string>): Promise<Reply> {
  return call(server, 'POST', '/api/v1/messages', { as, form, ...(headers ? { headers } : {}) });
}

export function markTopic(server: MockServer, as: Who, streamId: number | string, topicName: string): Promise<Reply> {
  return call(server, 'POST', '/api/v1/mark_topic_as_read', { as, form: { stream_id: String(streamId), topic_name: topicName } });
}

export function topics(server: MockServer, as: Who, streamId: number | string, query: Record<string, string> = {}): Promise<Reply> {
  return call(server, 'GET', `/api/v1/users/me/${streamId}/topics`, { as, query });
}

export function updateProperties(server: MockServer, as: Who, changes: unknown[]): Promise<Reply> {
  return call(server, 'POST', '/api/v1/users/me/subscriptions/properties', { as, form: { subscription_data: JSON.stringify(changes) } });
}

/** Registers a queue; returns its ID and the snapshot. */
export async function openQueue(server: MockServer, as: Who, form: Record<string, string> = {}): Promise<{ queueId: string; snapshot: Json }> {
  const res = await call(server, 'POST', '/api/v1/register', { as, form });
  if (res.status !== 200) throw new Error(`register failed: ${res.text}`);
  return { queueId: res.body.queue_id as string, snapshot: res.body };
}

/** Every event queued so far, heartbeats left out, without the per-queue `id`. */
export async function drain(server: MockServer, as: Who, queueId: string): Promise<Event[]> {
  const res = await call(server, 'GET', '/api/v1/events', { as, query: { queue_id: queueId, last_event_id: '-1', dont_block: 'true' } });
  if (res.status !== 200) throw new Error(`events failed: ${res.text}`);
  return (res.body.events as Event[]).filter((e) => e.type !== 'heartbeat').map(({ id: _id, ...rest }) => rest as Event);
}

/**
 * What a change tells whom: opens a queue (register `form`) for every role, runs the change, and returns
 * what each role's queue received. Queues opened before the change, so its events alone are seen.
 */
export async function observeEvents(env: TestRealm, roles: readonly string[], form: Record<string, string>, change: () => Promise<unknown>): Promise<Record<string, Event[]>> {
  const queues: Record<string, string> = {};
  for (const role of roles) queues[role] = (await openQueue(env.server, env.who[role]!, form)).queueId;
  await change();
  const out: Record<string, Event[]> = {};
  for (const role of roles) out[role] = await drain(env.server, env.who[role]!, queues[role]!);
  return out;
}

/** The caller's unread message IDs per "channel/topic" from register's unread_msgs (§4.21). */
export async function unreadByTopic(server: MockServer, as: Who): Promise<Record<string, number[]>> {
  const { snapshot } = await openQueue(server, as, {
    event_types: '["message", "update_message_flags"]',
    client_capabilities: '{"empty_topic_name": true}',
  });
  const streams = (snapshot.unread_msgs as { streams: { stream_id: number; topic: string; unread_message_ids: number[] }[] }).streams;
  return Object.fromEntries(streams.map((s) => [`${s.stream_id}/${s.topic}`, [...s.unread_message_ids].sort((a, b) => a - b)]));
}

export const success = (extra: Json = {}) => ({ result: 'success', msg: '', ...extra });
