import type { MockServer } from '../../src/app.js';
import type { UserRow } from '../../src/store/state.js';
import { call, type Reply, type Who } from '../helpers/test-server.js';
import { tables } from '../helpers/harness.js';

/** Shared helpers of the user tests (§4.10 and the reading companions). */

/** Every role with credentials, as in the world file; `deactivated` has credentials that no longer work. */
export const ACTIVE_ROLES = ['owner', 'administrator', 'moderator', 'member', 'guest', 'bot'] as const;

export const unauthorizedError = (msg: string) => ({ result: 'error', msg, code: 'UNAUTHORIZED' });
export const DEACTIVATED_401 = { result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' };
export const NOT_LOGGED_IN = unauthorizedError('Not logged in: API authentication or user session required');
export const INCORRECT = { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' };
export const missing = (name: string) => ({
  result: 'error',
  msg: `Missing '${name}' argument`,
  code: 'REQUEST_VARIABLE_MISSING',
  var_name: name,
});

export function createUser(server: MockServer, as: Who | null, form: Record<string, string>): Promise<Reply> {
  return call(server, 'POST', '/api/v1/users', { as, form });
}

export function fetchKey(server: MockServer, form: Record<string, string>, headers?: Record<string, string>): Promise<Reply> {
  return call(server, 'POST', '/api/v1/fetch_api_key', { form, ...(headers ? { headers } : {}) });
}

/** What user creation may change: accounts, role groups, subscriptions (ID counters left out, see below). */
export function userState(server: MockServer, realm: string): string {
  const t = tables(server, realm);
  return JSON.stringify({ users: t.users, user_groups: t.user_groups, subscriptions: t.subscriptions });
}

export function userRow(server: MockServer, realm: string, userId: number): UserRow {
  const row = tables(server, realm).users[String(userId)];
  if (!row) throw new Error(`no user ${userId} in ${realm}`);
  return row;
}

/** The deactivated user's real key (the world file gives none): it must still be refused with a 401. */
export function deactivatedWho(server: MockServer, realm: string): Who {
  const row = Object.values(tables(server, realm).users).find((u) => !u.is_active && !u.is_bot)!;
  return { email: row.email, api_key: row.api_key };
}

/** Changes a user row directly (test set-up the API cannot do, e.g. taking can_create_users away). */
export async function patchUser(server: MockServer, realm: string, userId: number, change: Partial<UserRow>): Promise<void> {
  await server.context.store.transact(realm, (tx) => {
    tx.put('users', userId, { ...tx.tables.users[String(userId)]!, ...change });
  });
}
