import { doCreateSavedSnippet, doDeleteSavedSnippet, doEditSavedSnippet, listSavedSnippets } from '../domain/saved-snippets.js';
import { defineAction, defineRoute, type RouteSpec } from '../http/define-routes.js';

/** Saved snippets (§4.14 and the list/create/delete companions); rules in domain/saved-snippets.ts. */
const routes: RouteSpec[] = [
  defineRoute('get-saved-snippets', {
    handle: ({ tables, actor }) => ({ saved_snippets: listSavedSnippets(tables, actor.user) }),
  }),
  defineAction('create-saved-snippet', doCreateSavedSnippet, { answer: (saved_snippet_id) => ({ saved_snippet_id }) }),
  defineAction('edit-saved-snippet', doEditSavedSnippet),
  defineAction('delete-saved-snippet', doDeleteSavedSnippet),
];

export default routes;
