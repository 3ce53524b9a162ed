import type { MockServer } from '../../src/app.js';
import { call, type CallOptions, type Reply, type Who } from '../helpers/test-server.js';
import { error, tables, type Json } from '../helpers/harness.js';

/**
 * Helpers of the saved-snippet and navigation-view tests (spec §2.9, §2.10, §4.12, §4.14).
 * Requests go through HTTP as the Python client sends them (form bodies) unless a test says otherwise.
 *
 * Demo realm (fixtures/personal.ts): member (14) owns snippets 1 and 2, the owner (11) snippet 3; member
 * has stored the built-in view `inbox` (pinned) and two custom views below. Nobody else has views.
 */
export const MEMBER_SNIPPETS = [1, 2];
export const OWNER_SNIPPET = 3;
/** Member's custom views: a fragment with a literal `%20` (see the percent-encoding tests) and a plain one. */
export const TOPIC_VIEW = 'narrow/channel/51-home/topic/indexing.20the.20circuit';
export const LINK_VIEW = 'narrow/has/link/sender/15';
export const LINK_VIEW_NAME = 'Links from Maribel Kunze';

/** Roles that act on their own data in the role tables (deactivated credentials are tested apart). */
export const ACTING_ROLES = ['owner', 'administrator', 'moderator', 'member', 'guest', 'bot'] as const;

export const SNIPPET_MISSING = error('Saved snippet does not exist.');
export const VIEW_MISSING = error('Navigation view does not exist.', 'NOT_FOUND');
export const VIEW_EXISTS = error('Navigation view already exists.');
export const BUILT_IN_NAMED = error('Built-in views cannot have a custom name.');
export const CUSTOM_UNNAMED = error('Custom views must have a valid name.');
export const DEACTIVATED = error('Account is deactivated', 'USER_DEACTIVATED');

export const createSnippet = (server: MockServer, as: Who, form: Record<string, string>, options: CallOptions = {}) =>
  call(server, 'POST', '/api/v1/saved_snippets', { as, form, ...options });

export const editSnippet = (server: MockServer, as: Who, id: number | string, form: Record<string, string>) =>
  call(server, 'PATCH', `/api/v1/saved_snippets/${id}`, { as, form });

export const deleteSnippet = (server: MockServer, as: Who, id: number | string) =>
  call(server, 'DELETE', `/api/v1/saved_snippets/${id}`, { as });

export async function listSnippets(server: MockServer, as: Who): Promise<Json[]> {
  const res = await call(server, 'GET', '/api/v1/saved_snippets', { as });
  if (res.status !== 200) throw new Error(`list failed: ${res.text}`);
  return res.body.saved_snippets as Json[];
}

export const addView = (server: MockServer, as: Who, form: Record<string, string>) =>
  call(server, 'POST', '/api/v1/navigation_views', { as, form });

/** `fragment` goes into the path as given: unencoded, as the JavaScript client sends it. */
export const editView = (server: MockServer, as: Who, fragment: string, form: Record<string, string>): Promise<Reply> =>
  call(server, 'PATCH', `/api/v1/navigation_views/${fragment}`, { as, form });

export const removeView = (server: MockServer, as: Who, fragment: string) =>
  call(server, 'DELETE', `/api/v1/navigation_views/${fragment}`, { as });

export async function listViews(server: MockServer, as: Who): Promise<Json[]> {
  const res = await call(server, 'GET', '/api/v1/navigation_views', { as });
  if (res.status !== 200) throw new Error(`list failed: ${res.text}`);
  return res.body.navigation_views as Json[];
}

/**
 * The deactivated user's credentials: the world file lists no key for them, but the account keeps its
 * key in the state, so authentication answers `Account is deactivated` (§5) rather than a key error.
 */
export function deactivatedWho(server: MockServer, realm: string, userId: number): Who {
  const user = tables(server, realm).users[String(userId)]!;
  return { email: user.email, api_key: user.api_key };
}

/** The two tables these operations write, plus the ID counters, for "a failed request changes nothing". */
export function personalState(server: MockServer, realm: string): string {
  const t = tables(server, realm);
  return JSON.stringify([t.saved_snippets, t.navigation_views, t.counters]);
}
