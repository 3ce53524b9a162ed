import type { MockServer } from '../../src/app.js';
import type { RealmEditingSettings } from '../../src/store/state.js';
import { send, tables, type Cred } from '../helpers/harness.js';
import { call, credentials, type Reply, type Who } from '../helpers/test-server.js';

/**
 * Helpers of the edit-delete tests (companion tier): requests as a stock client sends them, the
 * organization's editing settings included (PATCH /realm as its administrator).
 */

export const patchMessage = (server: MockServer, as: Who, id: number | string, form: Record<string, string>): Promise<Reply> =>
  call(server, 'PATCH', `/api/v1/messages/${id}`, { as, form });

export const deleteMessage = (server: MockServer, as: Who, id: number | string): Promise<Reply> =>
  call(server, 'DELETE', `/api/v1/messages/${id}`, { as });

export const messageHistory = (server: MockServer, as: Who, id: number | string, query: Record<string, string> = {}): Promise<Reply> =>
  call(server, 'GET', `/api/v1/messages/${id}/history`, { as, query });

export const fetchMessage = (server: MockServer, as: Who, id: number, query: Record<string, string> = {}): Promise<Reply> =>
  call(server, 'GET', `/api/v1/messages/${id}`, { as, query });

/** Sends a channel message and returns its ID (fails loudly otherwise). */
export async function post(server: MockServer, as: Cred, streamId: number, topic: string, content = 'hello'): Promise<number> {
  const res = await send(server, as, { type: 'stream', to: String(streamId), topic, content });
  if (res.status !== 200) throw new Error(`send failed: ${res.text}`);
  return res.body.id as number;
}

export async function postDirect(server: MockServer, as: Cred, to: number[], content = 'psst'): Promise<number> {
  const res = await send(server, as, { type: 'direct', to: JSON.stringify(to), content });
  if (res.status !== 200) throw new Error(`send failed: ${res.text}`);
  return res.body.id as number;
}

/** Changes the organization's editing settings as its administrator would (PATCH /realm). */
export async function setEditing(server: MockServer, realm: string, changes: Partial<RealmEditingSettings>): Promise<void> {
  const form: Record<string, string> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (key.endsWith('_group')) form[key] = JSON.stringify({ new: value });
    else if (key.endsWith('_seconds')) form[key] = JSON.stringify(value ?? 'unlimited');
    else form[key] = String(value);
  }
  const res = await call(server, 'PATCH', '/api/v1/realm', { as: credentials(server, realm).administrator!, form });
  if (res.status !== 200) throw new Error(`update-realm failed: ${res.text}`);
}

export const advance = (server: MockServer, realm: string, seconds: number) => server.control.advanceRealm(realm, seconds);

export const messageRow = (server: MockServer, realm: string, id: number) => tables(server, realm).messages[String(id)];

/** The demo realm's channels (fixtures/world.demo.json), named as the channel tests name them. */
export { CH as CHANNEL } from '../channels/support.js';
