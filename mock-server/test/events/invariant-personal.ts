import { call, type Reply } from '../helpers/test-server.js';
import type { Operation } from './invariant-operations.js';

/**
 * Operations for the register/events invariant (invariant.test.ts runs them after the others, in
 * order): saved snippets (§4.14 and companions) and navigation views (§4.12 and companions). Per-user
 * data, so every observer other than the owner must see nothing change.
 */
async function ok(reply: Promise<Reply>): Promise<Reply> {
  const res = await reply;
  if (res.body.result !== 'success') throw new Error(`operation refused: ${res.text}`);
  return res;
}

/** The snippet the first operation creates, for the ones after it. */
let snippetId = 0;
const CUSTOM = 'narrow/channel/51-home/topic/invariant.20views';

export const PERSONAL_OPERATIONS: Operation[] = [
  {
    name: 'create-saved-snippet',
    run: async (s, w) => {
      const res = await ok(
        call(s, 'POST', '/api/v1/saved_snippets', { as: w.member!, form: { title: ' Greeting ', content: 'Hello **there**' } }),
      );
      snippetId = res.body.saved_snippet_id as number;
    },
  },
  {
    name: 'create-saved-snippet: a guest',
    run: (s, w) => ok(call(s, 'POST', '/api/v1/saved_snippets', { as: w.guest!, form: { title: 'Mine', content: 'Guest text' } })),
  },
  {
    name: 'edit-saved-snippet: title',
    run: (s, w) => ok(call(s, 'PATCH', `/api/v1/saved_snippets/${snippetId}`, { as: w.member!, form: { title: 'Welcome' } })),
  },
  {
    name: 'edit-saved-snippet: content (query string)',
    run: (s, w) => ok(call(s, 'PATCH', `/api/v1/saved_snippets/${snippetId}`, { as: w.member!, query: { content: 'Welcome aboard' } })),
  },
  { name: 'delete-saved-snippet', run: (s, w) => ok(call(s, 'DELETE', `/api/v1/saved_snippets/${snippetId}`, { as: w.member! })) },
  {
    name: 'add-navigation-view: built-in',
    run: (s, w) =>
      ok(call(s, 'POST', '/api/v1/navigation_views', { as: w.member!, form: { fragment: 'narrow/is/starred', is_pinned: 'false' } })),
  },
  {
    name: 'add-navigation-view: custom',
    run: (s, w) =>
      ok(call(s, 'POST', '/api/v1/navigation_views', { as: w.member!, form: { fragment: CUSTOM, is_pinned: 'true', name: 'Views' } })),
  },
  {
    name: 'add-navigation-view: a bot',
    run: (s, w) => ok(call(s, 'POST', '/api/v1/navigation_views', { as: w.bot!, form: { fragment: 'inbox', is_pinned: 'true' } })),
  },
  {
    name: 'edit-navigation-view: pin a built-in',
    run: (s, w) => ok(call(s, 'PATCH', '/api/v1/navigation_views/narrow/is/starred', { as: w.member!, form: { is_pinned: 'true' } })),
  },
  {
    name: 'edit-navigation-view: rename and hide a custom view',
    run: (s, w) =>
      ok(call(s, 'PATCH', `/api/v1/navigation_views/${CUSTOM}`, { as: w.member!, query: { name: 'Renamed', is_pinned: 'false' } })),
  },
  { name: 'remove-navigation-view', run: (s, w) => ok(call(s, 'DELETE', '/api/v1/navigation_views/narrow/is/starred', { as: w.member! })) },
];
