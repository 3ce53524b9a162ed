import { expect } from 'vitest';
import type { MockServer } from '../../src/app.js';
import type { UserRow } from '../../src/store/state.js';
import { call, type Reply, type Who } from '../helpers/test-server.js';
import { applyEvents, comparable } from '../../../conformance/src/explore/reducers/index.js';
import { tables, type Event, type TestRealm } from '../helpers/harness.js';
import { REGISTER_EVERY_CAPABILITY as REGISTER } from '../helpers/register-form.js';

/**
 * Shared vocabulary of the user-administration tests (spec §4.7, §4.17): the demo realm's people by ID
 * (fixtures/world.demo.json; mock-server/src/fixtures/people.ts), and the two calls as the Python
 * client sends them (form bodies, on PATCH and DELETE too).
 */

export const U = {
  owner: 11,
  administrator: 12,
  moderator: 13,
  member: 14,
  member_2: 15,
  member_3: 16, // owns the bot
  ashton: 17, // no world-file role; subscribed to 51, 52 and archived 56
  kira: 18, // joined yesterday: a member, not yet a full member
  guest: 19,
  deactivated: 20,
  bot: 21,
  notificationBot: 22, // a system bot: outside the realm's user list
} as const;

/** Role groups of the demo realm (world.user_groups.system). */
export const G = { owners: 2, administrators: 3, moderators: 4, fullmembers: 5, members: 6, everyone: 7 } as const;

/** Custom profile fields of the demo realm: Team (short text), Pronouns, Website (link). */
export const FIELD = { team: 1, pronouns: 2, website: 3 } as const;

/** The callers of the permission tables (spec §4.7, §4.17, §5): every role, bots and deactivated accounts. */
export const CALLERS = ['owner', 'administrator', 'moderator', 'member', 'guest', 'bot', 'deactivated'] as const;

export const err = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', code, msg });
export const OK = { result: 'success', msg: '' };
export const DEACTIVATED_401 = err('Account is deactivated', 'USER_DEACTIVATED');

export function patchUser(server: MockServer, as: Who, userId: number | string, form: Record<string, string>): Promise<Reply> {
  return call(server, 'PATCH', `/api/v1/users/${userId}`, { as, form });
}

export function deactivate(server: MockServer, as: Who, userId: number | string, form?: Record<string, string>): Promise<Reply> {
  return call(server, 'DELETE', `/api/v1/users/${userId}`, { as, ...(form ? { form } : {}) });
}

export function user(env: TestRealm, id: number): UserRow {
  const row = tables(env.server, env.realm).users[String(id)];
  if (!row) throw new Error(`no user ${id}`);
  return row;
}

/** The direct members of a group, as stored. */
export function members(env: TestRealm, groupId: number): number[] {
  return tables(env.server, env.realm).user_groups[String(groupId)]!.members;
}

/**
 * Credentials of a caller by world-file role. The world file hands out no key for the deactivated
 * account; the state still holds one, so its requests reach authentication and are refused there.
 */
export function caller(env: TestRealm, role: string): Who {
  if (role !== 'deactivated') return env.who[role]!;
  const row = user(env, U.deactivated);
  return { email: row.email, api_key: row.api_key };
}

/** Sets rows directly (test setup only: what no operation of this issue can set up). */
export async function setUser(env: TestRealm, id: number, change: Partial<UserRow>): Promise<void> {
  await env.server.context.store.transact(env.realm, (tx) => {
    tx.put('users', id, { ...tx.tables.users[String(id)]!, ...change });
  });
}

/**
 * The register/events invariant for one change and the given observers (as invariant.test.ts checks it
 * on the shared realm): the snapshot before, with the events since applied, equals the snapshot after.
 * Returns each observer's events, for further checks. `renamed` gives the credentials of observers whose
 * API email the change replaces.
 */
export async function expectSnapshotsFollow(
  env: TestRealm,
  roles: readonly string[],
  change: () => Promise<unknown>,
  renamed: Record<string, Who> = {},
): Promise<Record<string, Event[]>> {
  const before: Record<string, { snapshot: Record<string, unknown>; queueId: string }> = {};
  for (const role of roles) {
    const res = await call(env.server, 'POST', '/api/v1/register', { as: env.who[role]!, form: REGISTER });
    before[role] = { snapshot: res.body, queueId: res.body.queue_id as string };
  }
  await change();
  const events: Record<string, Event[]> = {};
  for (const role of roles) {
    const as = renamed[role] ?? env.who[role]!;
    const polled = await call(env.server, 'GET', '/api/v1/events', {
      as,
      query: { queue_id: before[role]!.queueId, last_event_id: '-1', dont_block: 'true' },
    });
    events[role] = polled.body.events as Event[];
    const after = await call(env.server, 'POST', '/api/v1/register', { as, form: REGISTER });
    expect(comparable(applyEvents(before[role]!.snapshot, events[role])), `observer ${role}`).toEqual(comparable(after.body));
  }
  return events;
}
