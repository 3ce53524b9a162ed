import { doCreateSavedSnippet, doDeleteSavedSnippet, doEditSavedSnippet } from '../domain/actions/saved-snippets.js';
import { listSavedSnippets } from '../domain/saved-snippets.js';
import { act, defineRoute, type RouteSpec } from '../http/define-routes.js';

/** Saved snippets (§4.14 and the list/create/delete companions); rules in domain/saved-snippets.ts. */
const routes: RouteSpec[] = [
  defineRoute('get-saved-snippets', {
    handle: ({ tables, actor }) => ({ saved_snippets: listSavedSnippets(tables, actor.user) }),
  }),
  defineRoute('create-saved-snippet', {
    handle: async (ctx) => ({ saved_snippet_id: await act(ctx, doCreateSavedSnippet) }),
  }),
  defineRoute('edit-saved-snippet', {
    handle: async (ctx) => {
      await act(ctx, doEditSavedSnippet);
      return {};
    },
  }),
  defineRoute('delete-saved-snippet', {
    handle: async (ctx) => {
      await act(ctx, doDeleteSavedSnippet);
      return {};
    },
  }),
];

export default routes;
