import { expect } from 'vitest';
import { drain, openQueue, tables, type Event, type Json, type TestRealm } from '../helpers/harness.js';
import { call, type Reply, type Who } from '../helpers/test-server.js';

/**
 * Helpers of the linkifier tests (spec §2.11, §4.18 and the companions). Requests go through HTTP the
 * way the Python client sends them (form bodies) unless a test is about the wire.
 */

/** The demo realm's linkifiers, in display order (fixtures/personal.ts generateLinkifiers). */
export const TICKETS = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tickets.example.com/ticket/{id}', id: 1 };
export const ISSUES = {
  pattern: '(?P<org>[a-zA-Z0-9_-]+)/(?P<repo>[a-zA-Z0-9_.-]+)#(?P<id>[0-9]+)',
  url_template: 'https://github.com/{org}/{repo}/issues/{id}',
  id: 2,
};
export const DEMO = [TICKETS, ISSUES];
/** The ID the next added linkifier gets in a fresh demo realm. */
export const NEXT_ID = 3;

/** A register form whose queue gets realm_linkifiers (spec §4.21 client capability). */
export const CAPABLE = { client_capabilities: JSON.stringify({ linkifier_url_template: true }) };

export const add = (env: TestRealm, as: Who, pattern: string, urlTemplate: string): Promise<Reply> =>
  call(env.server, 'POST', '/api/v1/realm/filters', { as, form: { pattern, url_template: urlTemplate } });

export const update = (env: TestRealm, as: Who, id: number | string, pattern: string, urlTemplate: string): Promise<Reply> =>
  call(env.server, 'PATCH', `/api/v1/realm/filters/${id}`, { as, form: { pattern, url_template: urlTemplate } });

export const remove = (env: TestRealm, as: Who, id: number | string): Promise<Reply> =>
  call(env.server, 'DELETE', `/api/v1/realm/filters/${id}`, { as });

export const reorder = (env: TestRealm, as: Who, ids: number[] | string): Promise<Reply> =>
  call(env.server, 'PATCH', '/api/v1/realm/linkifiers', {
    as,
    form: { ordered_linkifier_ids: typeof ids === 'string' ? ids : JSON.stringify(ids) },
  });

/** GET /realm/linkifiers as a member (any user may list them). */
export async function list(env: TestRealm, as: Who = env.who.member!): Promise<Json[]> {
  const res = await call(env.server, 'GET', '/api/v1/realm/linkifiers', { as });
  expect(res.status, res.text).toBe(200);
  return res.body.linkifiers as Json[];
}

/** A validation error of add/update: `msg` is the message, `errors` names its field (reference §4.18). */
export const invalid = (field: string, msg: string) => ({ result: 'error', code: 'BAD_REQUEST', msg, errors: { [field]: [msg] } });

/**
 * Runs a change with a capable queue open for the administrator and returns what the queue got. Used
 * both to see the realm_linkifiers event of a change and to prove that a refused request sent none.
 */
export async function eventsOf(env: TestRealm, change: () => Promise<unknown>, as: Who = env.who.administrator!): Promise<Event[]> {
  const { queueId } = await openQueue(env.server, as, CAPABLE);
  await change();
  return drain(env.server, as, queueId);
}

/** The assertion after every refused request: same list, same order, and no event. */
export async function expectUnchanged(env: TestRealm, before: Json[], events: Event[]): Promise<void> {
  expect(events).toEqual([]);
  expect(await list(env)).toEqual(before);
}

/**
 * The deactivated user's credentials: the world file gives no key for them, but the account keeps its
 * key in the state, so authentication answers `Account is deactivated` (spec §5) rather than a key error.
 */
export function deactivatedWho(env: TestRealm): Who {
  const user = tables(env.server, env.realm).users[String(env.who.deactivated!.user_id)]!;
  return { email: user.email, api_key: user.api_key };
}
