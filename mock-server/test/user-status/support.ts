import { expect } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { call, type CallOptions, type Reply, type Who } from '../helpers/test-server.js';
import { drain, openQueue, tables, type Cred, type Json, type TestRealm } from '../helpers/harness.js';

/**
 * Shared helpers of the status tests (§4.4, §4.5, GET /users/{id}/status). Requests go through HTTP as
 * the stock clients send them; the store is only read, to check what no response shows.
 */

export const OWN = '/api/v1/users/me/status';
export const of = (userId: number) => `/api/v1/users/${userId}/status`;

export const setOwn = (server: MockServer, as: Who, form: Record<string, string>, extra: CallOptions = {}) =>
  call(server, 'POST', OWN, { as, form, ...extra });
export const setFor = (server: MockServer, as: Who, userId: number, form: Record<string, string>) =>
  call(server, 'POST', of(userId), { as, form });
export const getStatus = (server: MockServer, as: Who, userId: number) => call(server, 'GET', of(userId), { as });

export const BOT_REFUSED = 'This endpoint does not accept bot requests.';
export const NO_NEW_VALUES = 'Client did not pass any new values.';
export const NAME_REQUIRED = 'Client must pass emoji_name if they pass either emoji_code or reaction_type.';

/** The demo realm's custom emoji (fixtures/emoji.ts: one active, one deactivated). */
export function customEmoji(
  server: MockServer,
  realm: string,
): { active: { id: number; name: string }; deactivated: { id: number; name: string } } {
  const rows = Object.values(tables(server, realm).custom_emoji);
  return { active: rows.find((r) => !r.deactivated)!, deactivated: rows.find((r) => r.deactivated)! };
}

/** The deactivated user of the demo realm with the key it kept (so its 401 is testable). */
export function deactivatedCredentials(server: MockServer, realm: string): Cred {
  const user = Object.values(tables(server, realm).users).find((u) => !u.is_active && !u.is_bot)!;
  return { email: user.email, api_key: user.api_key, user_id: user.user_id };
}

/** What a status request may change: statuses, settings (away) and presence rows. */
export function statusState(server: MockServer, realm: string): Json {
  const t = tables(server, realm);
  return structuredClone({
    statuses: t.user_statuses,
    presence: t.presence,
    settings: Object.values(t.users).map((u) => [u.user_id, u.settings]),
  });
}

/**
 * A failed request changes nothing: the exact error body and status, the same statuses, settings and
 * presence, and no event in a queue of the caller's or of another user's.
 */
export async function expectRefused(env: TestRealm, request: () => Promise<Reply>, status: number, body: Json): Promise<void> {
  const watchers = [env.who.member!, env.who.owner!];
  const queues = await Promise.all(watchers.map(async (w) => (await openQueue(env.server, w)).queueId));
  const before = statusState(env.server, env.realm);
  const res = await request();
  expect({ status: res.status, body: res.body }).toEqual({ status, body });
  expect(statusState(env.server, env.realm)).toEqual(before);
  for (const [i, w] of watchers.entries()) expect(await drain(env.server, w, queues[i]!)).toEqual([]);
}
