import type { MockServer } from '../../src/app.js';
import type { UserRow } from '../../src/store/state.js';
import { call, callControl, type Reply, type Who } from '../helpers/test-server.js';
import { tables, type Json, nowOf } from '../helpers/harness.js';

/**
 * Helpers of the scheduled-message and reminder tests: requests as the Python client sends
 * them (form bodies), the realm's clock, and the few state changes the tests make directly.
 */

export const HOUR = 3600;

export function schedule(server: MockServer, as: Who, form: Record<string, string>, headers?: Record<string, string>): Promise<Reply> {
  return call(server, 'POST', '/api/v1/scheduled_messages', { as, form, ...(headers ? { headers } : {}) });
}

export function editScheduled(server: MockServer, as: Who, id: number | string, form: Record<string, string>): Promise<Reply> {
  return call(server, 'PATCH', `/api/v1/scheduled_messages/${id}`, { as, form });
}

export function deleteScheduled(server: MockServer, as: Who, id: number | string): Promise<Reply> {
  return call(server, 'DELETE', `/api/v1/scheduled_messages/${id}`, { as });
}

export async function listScheduled(server: MockServer, as: Who): Promise<Json[]> {
  const res = await call(server, 'GET', '/api/v1/scheduled_messages', { as });
  if (res.status !== 200) throw new Error(`list failed: ${res.text}`);
  return res.body.scheduled_messages as Json[];
}

export function remind(server: MockServer, as: Who, form: Record<string, string>): Promise<Reply> {
  return call(server, 'POST', '/api/v1/reminders', { as, form });
}

export async function listReminders(server: MockServer, as: Who): Promise<Json[]> {
  const res = await call(server, 'GET', '/api/v1/reminders', { as });
  if (res.status !== 200) throw new Error(`list failed: ${res.text}`);
  return res.body.reminders as Json[];
}

/** Advances the realm's clock through the control API, as a client developer would. */
export async function advance(server: MockServer, realm: string, seconds: number): Promise<void> {
  const res = await callControl(server, 'POST', `/__mock/realms/${realm}/clock/advance`, { seconds: String(seconds) });
  if (res.status !== 200) throw new Error(`advance failed: ${res.text}`);
}

/** A valid channel message for a member of the demo realm, due in an hour (override what a test varies). */
export const channelForm = (server: MockServer, realm: string, extra: Record<string, string> = {}) => ({
  type: 'stream',
  to: '51',
  topic: 'plans',
  content: 'See you **soon**',
  scheduled_delivery_timestamp: String(nowOf(server, realm) + HOUR),
  ...extra,
});

export const directForm = (server: MockServer, realm: string, to: number[], extra: Record<string, string> = {}) => ({
  type: 'direct',
  to: JSON.stringify(to),
  content: 'Psst',
  scheduled_delivery_timestamp: String(nowOf(server, realm) + HOUR),
  ...extra,
});

/** Deactivates or reactivates a user in the store directly: the one state change the tests make without an operation. */
export async function setActive(server: MockServer, realm: string, userId: number, active: boolean): Promise<void> {
  await server.context.store.transact(realm, (tx) => {
    const user = tx.tables.users[String(userId)] as UserRow;
    tx.put('users', userId, { ...user, is_active: active });
  });
}

/** The message a scheduled message became, from the store (the fetch operation is another test's). */
export function deliveredMessage(server: MockServer, realm: string, scheduledId: number) {
  const t = tables(server, realm);
  const row = t.scheduled_messages[String(scheduledId)]!;
  return row.delivered_message_id === null ? undefined : t.messages[String(row.delivered_message_id)];
}

/** The newest message of the realm (after a delivery: the notice or the reminder). */
export function newestMessage(server: MockServer, realm: string) {
  const t = tables(server, realm);
  return t.messages[String(Math.max(...Object.keys(t.messages).map(Number)))]!;
}
