import type { MockServer } from '../../src/app.js';
import { call, type Reply, type Who } from '../helpers/test-server.js';
import { openQueue, type Json } from '../helpers/harness.js';

/**
 * Helpers of the compat-lookups tests (companion tier): the lookups stock clients make, alert
 * words and bot storage, sent as the Python client sends them (form bodies; lists and objects as JSON).
 */
export const ROLES = ['owner', 'administrator', 'moderator', 'member', 'guest', 'bot'] as const;

export const get = (server: MockServer, as: Who, path: string, query: Record<string, string> = {}): Promise<Reply> =>
  call(server, 'GET', `/api/v1${path}`, { as, query });

export const addWords = (server: MockServer, as: Who, words: unknown) =>
  call(server, 'POST', '/api/v1/users/me/alert_words', { as, form: { alert_words: JSON.stringify(words) } });

export const removeWords = (server: MockServer, as: Who, words: unknown) =>
  call(server, 'DELETE', '/api/v1/users/me/alert_words', { as, form: { alert_words: JSON.stringify(words) } });

export async function wordsOf(server: MockServer, as: Who): Promise<unknown> {
  return (await get(server, as, '/users/me/alert_words')).body.alert_words;
}

export const putStorage = (server: MockServer, as: Who, storage: unknown) =>
  call(server, 'PUT', '/api/v1/bot_storage', { as, form: { storage: JSON.stringify(storage) } });

export const removeStorage = (server: MockServer, as: Who, keys?: unknown) =>
  call(server, 'DELETE', '/api/v1/bot_storage', { as, form: keys === undefined ? {} : { keys: JSON.stringify(keys) } });

export const getStorage = (server: MockServer, as: Who, keys?: unknown) =>
  get(server, as, '/bot_storage', keys === undefined ? {} : { keys: JSON.stringify(keys) });

/** register's answer for `types` (fetch_event_types), without opening more than that one queue. */
export async function snapshotOf(server: MockServer, as: Who, types: string[] | null, extra: Record<string, string> = {}): Promise<Json> {
  const form = types === null ? extra : { fetch_event_types: JSON.stringify(types), ...extra };
  return (await openQueue(server, as, form)).snapshot;
}
