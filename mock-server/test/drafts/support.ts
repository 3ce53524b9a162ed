import type { MockServer } from '../../src/app.js';
import type { UserRow } from '../../src/store/state.js';
import { call, type Reply, type Who } from '../helpers/test-server.js';
import { tables, type Json } from '../helpers/harness.js';

/**
 * Helpers of the draft tests (spec §4.6 and companions): requests as the Python client sends them (JSON
 * with spaces in a form body) unless a test says otherwise, what the demo realm holds, and the one
 * state change no operation here offers (the user's enable_drafts_synchronization setting).
 */

/** Drafts of the demo realm (mock-server/src/fixtures/personal.ts): member (14) owns 1–3, member_2 (15) owns 4. */
export const MEMBER_DRAFTS = [1, 2, 3];
export const MEMBER_2_DRAFT = 4;
/** The next draft ID of a fresh demo realm. */
export const NEXT_ID = 5;

/** Python's json.dumps: a space after `,` and `:`. */
export const pythonJson = (value: unknown) =>
  JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ').replace(/\[ /g, '[').replace(/ \]/g, ']').replace(/\{ /g, '{').replace(/ \}/g, '}');

export function create(server: MockServer, as: Who, drafts: unknown): Promise<Reply> {
  return call(server, 'POST', '/api/v1/drafts', { as, form: { drafts: typeof drafts === 'string' ? drafts : pythonJson(drafts) } });
}

export function edit(server: MockServer, as: Who, id: number | string, draft: unknown): Promise<Reply> {
  return call(server, 'PATCH', `/api/v1/drafts/${id}`, { as, form: { draft: typeof draft === 'string' ? draft : pythonJson(draft) } });
}

export function remove(server: MockServer, as: Who, id: number | string): Promise<Reply> {
  return call(server, 'DELETE', `/api/v1/drafts/${id}`, { as });
}

export function list(server: MockServer, as: Who): Promise<Reply> {
  return call(server, 'GET', '/api/v1/drafts', { as });
}

/** A valid channel draft for the member (channel 51 "home"); override what a test varies. */
export const channelDraft = (extra: Json = {}): Json => ({ type: 'stream', to: [51], topic: 'plans', content: 'Half a thought', ...extra });

/** The stored rows of a user, by ID (the listing is another test's subject). */
export function storedDrafts(server: MockServer, realm: string, userId: number) {
  return Object.values(tables(server, realm).drafts)
    .filter((d) => d.user_id === userId)
    .sort((a, b) => a.id - b.id);
}

/** Everything a failed request must leave untouched: every draft row and the ID counter. */
export function draftState(server: MockServer, realm: string): string {
  const t = tables(server, realm);
  return JSON.stringify({ drafts: t.drafts, next: t.counters.counters.drafts });
}

/** The setting has no operation in this area: the tests change it directly, as one transaction. */
export async function setSync(server: MockServer, realm: string, userId: number, enabled: boolean): Promise<void> {
  await server.context.store.transact(realm, (tx) => {
    const user = tx.tables.users[String(userId)] as UserRow;
    tx.put('users', userId, { ...user, settings: { ...user.settings, enable_drafts_synchronization: enabled } });
  });
}

export const SYNC_OFF = { result: 'error', code: 'BAD_REQUEST', msg: 'User has disabled synchronizing drafts.' };
export const NO_DRAFT = { result: 'error', code: 'BAD_REQUEST', msg: 'Draft does not exist' };
