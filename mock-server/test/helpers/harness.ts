import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { MockServer } from '../../src/app.js';
import type { RealmState } from '../../src/store/state.js';
import { call, credentials, startTestServer, type Reply, type Who } from './test-server.js';

/**
 * The harness the HTTP tests of every area share (moved here from test/subscriptions/, whose tests were
 * the first to use it): a server and a realm per test file, the answers' common shapes, reading the
 * store's tables for what a response does not show, and event queues. Everything a test does goes
 * through HTTP as a stock client would send it; the store is only read. Helpers of one area stay in
 * that area's support.ts.
 */

export type Cred = Who & { user_id: number };
export type Creds = Record<string, Cred>;
export type Json = Record<string, unknown>;
export type Event = Json & { type: string; op?: string };

/** A deactivated user of the demo realm (fixtures/world.demo.json). */
export const DEACTIVATED = 20;

export const error = (msg: string, code = 'BAD_REQUEST', extra: Json = {}) => ({ result: 'error', msg, code, ...extra });
export const success = (extra: Json = {}) => ({ result: 'success', msg: '', ...extra });
export const INSUFFICIENT = error('Insufficient permission');

let realmCounter = 0;
/** A fresh demo realm (for a test that changes state), optionally at an older feature level (§9). */
export async function freshRealm(server: MockServer, featureLevel?: number): Promise<{ realm: string; who: Creds }> {
  const realm = `test-${++realmCounter}-${featureLevel ?? 'current'}`;
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
 * The hooks every HTTP test file shares, so that each file's setup is one line: an in-process server of
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

/** The realm's time now (in startTestServer a fresh demo realm starts at DEMO_REALM_EPOCH and stands still). */
export const nowOf = (server: MockServer, realm: string): number => (server.control.clock(realm) as { now: number }).now;

/** Read-only view of a realm's tables, for assertions. */
export function tables(server: MockServer, realm = 'demo'): RealmState {
  const state = server.context.store.realm(realm);
  if (!state) throw new Error(`no realm ${realm}`);
  return state;
}

export const isSubscribed = (server: MockServer, realm: string, userId: number, streamId: number) =>
  tables(server, realm).subscriptions[`${userId}:${streamId}`]?.active === true;

export function send(server: MockServer, as: Who, form: Record<string, string>, headers?: Record<string, string>): Promise<Reply> {
  return call(server, 'POST', '/api/v1/messages', { as, form, ...(headers ? { headers } : {}) });
}

/** Registers a queue; returns its ID and the snapshot. */
export async function openQueue(
  server: MockServer,
  as: Who,
  form: Record<string, string> = {},
): Promise<{ queueId: string; snapshot: Json }> {
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
export async function observeEvents(
  env: TestRealm,
  roles: readonly string[],
  form: Record<string, string>,
  change: () => Promise<unknown>,
): Promise<Record<string, Event[]>> {
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
