import type { MockServer } from '../../src/app.js';
import { send, tables, type Json, type TestRealm } from '../helpers/harness.js';
import { call, type Reply, type Who } from '../helpers/test-server.js';

/**
 * Helpers of the reactions and message-flags tests (companion tier, area flags-reactions). Demo channels
 * (fixtures/world.demo.json): 51 home (everyone, guest and bot included), 52 alarm (public; owner,
 * administrator, moderator, member, member_2), 53 directives leads (private, protected history;
 * administrator, moderator, member, member_2).
 */
export const HOME = 51;
export const ALARM = 52;
export const PROTECTED = 53;

/** Sends a channel message as `as` and returns its ID (unread for everyone else, read for the sender). */
export async function post(env: TestRealm, as: Who, streamId: number, topic = 'flags and reactions', content = 'A message to mark.') {
  const res = await send(env.server, as, { type: 'stream', to: String(streamId), topic, content, read_by_sender: 'true' });
  if (res.status !== 200) throw new Error(`send failed: ${res.text}`);
  return res.body.id as number;
}

/** Sends a direct message and returns its ID. */
export async function postDirect(env: TestRealm, as: Who, to: number[], content = 'A direct message to mark.') {
  const res = await send(env.server, as, { type: 'direct', to: JSON.stringify(to), content, read_by_sender: 'true' });
  if (res.status !== 200) throw new Error(`send failed: ${res.text}`);
  return res.body.id as number;
}

export const react = (server: MockServer, as: Who, messageId: number | string, form: Record<string, string>): Promise<Reply> =>
  call(server, 'POST', `/api/v1/messages/${messageId}/reactions`, { as, form });

export const unreact = (server: MockServer, as: Who, messageId: number | string, form: Record<string, string>): Promise<Reply> =>
  call(server, 'DELETE', `/api/v1/messages/${messageId}/reactions`, { as, form });

export const flags = (server: MockServer, as: Who, messages: unknown, op: string, flag: string): Promise<Reply> =>
  call(server, 'POST', '/api/v1/messages/flags', { as, form: { messages: JSON.stringify(messages), op, flag } });

/** The message as GET /messages/{id} shows it to `as` (reactions, the caller's flags). */
export async function fetched(server: MockServer, as: Who, messageId: number): Promise<Json> {
  const res = await call(server, 'GET', `/api/v1/messages/${messageId}`, { as });
  if (res.status !== 200) throw new Error(`fetch failed: ${res.text}`);
  return res.body.message as Json;
}

/** The stored reactions of a message (for "nothing changed" after a refusal). */
export const storedReactions = (env: TestRealm, messageId: number) => tables(env.server, env.realm).messages[String(messageId)]!.reactions;

/** The stored flags of one user on one message (undefined: no copy). */
export const storedFlags = (env: TestRealm, userId: number, messageId: number) =>
  tables(env.server, env.realm).user_messages[String(messageId)]?.flags[String(userId)];
