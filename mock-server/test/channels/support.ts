import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { MockServer } from '../../src/app.js';
import type { ChannelRow, RealmRow } from '../../src/store/state.js';
import { call, credentials, startTestServer, type Reply, type Who } from '../helpers/test-server.js';

/**
 * Shared vocabulary of the channel tests (spec §2.2, §3, §4.15, §4.16): the demo world's channels by
 * kind, the roles the matrices range over, and small wrappers around the HTTP calls.
 */

export type Creds = Record<string, Who & { user_id: number }>;

/** The demo world's channels (fixtures/world.demo.json); `the demo world` test in listing.test.ts pins them. */
export const CH = {
  public: 51,
  public_2: 52,
  private_protected: 53,
  private_shared: 54,
  web_public: 55,
  archived: 56,
  moderation: 57,
  empty_topic_only: 58,
  disable_empty_topic: 59,
} as const;
export type Kind = keyof typeof CH;
export const KINDS = Object.keys(CH) as Kind[];
const KIND_OF = new Map<number, Kind>(KINDS.map((k) => [CH[k], k]));
export const kindOf = (id: number): Kind | number => KIND_OF.get(id) ?? id;

/** The roles the matrices cover (member_3 is the bot's owner, used for include_owner_subscribed). */
export const ROLES = ['owner', 'administrator', 'moderator', 'member', 'member_2', 'guest', 'bot'] as const;
export type Role = (typeof ROLES)[number];

/** System groups of the demo realm (world.user_groups.system) and the custom ones. */
export const G = {
  nobody: 1,
  owners: 2,
  administrators: 3,
  moderators: 4,
  fullmembers: 5,
  members: 6,
  everyone: 7,
  internet: 8,
  support: 9,
  deactivated: 10,
} as const;

export const err = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', code, msg });
export const OK = { result: 'success', msg: '' };

/** Form values as the stock clients send them: booleans and integers as text, objects JSON-encoded. */
export type FormInput = Record<string, string | number | boolean | null | object>;
export function form(values: FormInput): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
}

export const patch = (server: MockServer, who: Who, id: number, values: FormInput): Promise<Reply> =>
  call(server, 'PATCH', `/api/v1/streams/${id}`, { as: who, form: form(values) });

export const archive = (server: MockServer, who: Who, id: number): Promise<Reply> =>
  call(server, 'DELETE', `/api/v1/streams/${id}`, { as: who });

export async function listStreams(server: MockServer, who: Who, query: Record<string, boolean | string> = {}): Promise<Reply> {
  const q = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));
  return call(server, 'GET', '/api/v1/streams', { as: who, query: q });
}

/** The listed channels as sorted kinds (IDs outside the world stay numbers). */
export async function listKinds(server: MockServer, who: Who, query: Record<string, boolean | string> = {}): Promise<(Kind | number)[]> {
  const res = await listStreams(server, who, query);
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ result: 'success' });
  return (res.body.streams as { stream_id: number }[])
    .map((s) => s.stream_id)
    .sort((a, b) => a - b)
    .map(kindOf);
}

export const sortedKinds = (kinds: Kind[]) => [...kinds].sort((a, b) => CH[a] - CH[b]);

/** One channel as the administrator sees it in GET /streams (include_all, archived included). */
export async function streamAsAdmin(server: MockServer, id: number, realmId = 'demo'): Promise<Record<string, unknown>> {
  // Read from the store, not the world file: worldFromRealm cannot describe every modified realm.
  const user = Object.values(server.context.store.realm(realmId)!.users).find((u) => u.role === 200 && u.is_active && !u.is_bot)!;
  const admin = { email: user.email, api_key: user.api_key };
  const res = await listStreams(server, admin, { include_all: true, exclude_archived: false });
  const found = (res.body.streams as Record<string, unknown>[]).find((s) => s.stream_id === id);
  expect(found, `channel ${id} listed`).toBeDefined();
  return found!;
}

/** Read-only views of the state for assertions. */
export const channelRow = (server: MockServer, id: number, realmId = 'demo'): ChannelRow =>
  server.context.store.realm(realmId)!.channels[String(id)]!;
export const realmRow = (server: MockServer, realmId = 'demo'): RealmRow => server.context.store.realm(realmId)!.realm.realm;

/** Changes realm settings that have no API (allowed in tests: the brief of these tests). */
export async function setRealm(server: MockServer, values: Partial<RealmRow>, realmId = 'demo'): Promise<void> {
  await server.context.store.transact(realmId, (tx) => tx.put('realm', 'realm', { ...tx.tables.realm.realm, ...values }));
}

/** What a channel test file works on: set in beforeAll, so read it inside tests and hooks only. */
export interface DemoServer {
  server: MockServer;
  /** The demo realm's credentials by world-file role. */
  who: Creds;
  /** Puts the demo realm back as beforeAll left it; this also ends its event queues, so register after it. */
  restore(): Promise<void>;
}

/**
 * The hooks every channel test file shares, so that each file's setup is one line: an in-process server
 * of its own (closed after the file) with the demo realm; extra realms `lvl-<level>` at older feature
 * levels (spec §9) for level-dependent cases; and, unless `isolate` is false (files that only read),
 * the pristine demo realm restored before each test, since a failed or passed test must not leave state
 * for the next one. A file's own beforeEach hooks run after that restore (vitest runs them in order).
 */
export function useDemoServer(options: { levels?: readonly number[]; isolate?: boolean } = {}): DemoServer {
  const env = {
    restore: async () => {
      await env.server.control.restoreSnapshot('demo', 'pristine');
    },
  } as DemoServer;
  beforeAll(async () => {
    env.server = await startTestServer();
    env.who = credentials(env.server);
    env.server.control.saveSnapshot('demo', 'pristine');
    for (const level of options.levels ?? []) await env.server.control.createRealm({ realm_id: `lvl-${level}`, feature_level: level });
  });
  if (options.isolate !== false) beforeEach(() => env.restore());
  afterAll(() => env.server.close());
  return env;
}

/** Event queues (spec §6, §4.21). */
export type Event = Record<string, unknown> & { type: string; id: number };

export async function register(
  server: MockServer,
  who: Who,
  capabilities: Record<string, boolean>,
  eventTypes?: string[],
): Promise<string> {
  const values: Record<string, string> = { client_capabilities: JSON.stringify(capabilities) };
  if (eventTypes) values.event_types = JSON.stringify(eventTypes);
  const res = await call(server, 'POST', '/api/v1/register', { as: who, form: values });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ result: 'success', last_event_id: -1 });
  return res.body.queue_id as string;
}

/** Everything queued so far, without waiting (dont_block), heartbeats left out. */
export async function drain(server: MockServer, who: Who, queueId: string): Promise<Event[]> {
  const res = await call(server, 'GET', '/api/v1/events', {
    as: who,
    query: { queue_id: queueId, last_event_id: '-1', dont_block: 'true' },
  });
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ result: 'success' });
  return (res.body.events as Event[]).filter((e) => e.type !== 'heartbeat');
}

/** Events without their queue-specific `id`, for comparing shapes. */
export const withoutIds = (events: Event[]) => events.map(({ id: _id, ...rest }) => rest);
