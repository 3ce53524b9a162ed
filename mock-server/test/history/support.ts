import { call, type Who } from '../helpers/test-server.js';
import { WORLD, messages, receivedFlags, type DemoEnv, type Json } from '../messages/support.js';

/** Helpers of the GET /messages tests (companion tier, area history). */

export const uid = (role: string) => WORLD.credentials[role]!.user_id;
/** The reference's LARGER_THAN_MAX_MESSAGE_ID: the answer's anchor for `newest`. */
export const NEWEST = 10_000_000_000_000_000;

export type Query = Record<string, string | number | boolean | unknown[]>;

/**
 * The window's sizes default to 0 here, as clients send them: the reference documents both as required unless
 * message_ids is given (the tests of that refusal call the server directly).
 */
export const sized = <Q extends Record<string, unknown>>(query: Q): Q =>
  'message_ids' in query ? query : ({ num_before: 0, num_after: 0, ...query } as Q);

/** GET /messages as `as`, lists and non-strings JSON-encoded as the stock clients send them. */
export function getMessages(env: DemoEnv, as: Who, query: Query) {
  const q = Object.fromEntries(Object.entries(sized(query)).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  return call(env.server, 'GET', '/api/v1/messages', { as, query: q });
}

export const ids = (body: Json) => (body.messages as Json[]).map((m) => m.id as number);

/** The IDs a user received, ascending (the answer without a narrow). */
export const receivedIds = (env: DemoEnv, role: string) =>
  messages(env.t)
    .filter((m) => receivedFlags(env.t, uid(role), m.id) !== undefined)
    .map((m) => m.id);
