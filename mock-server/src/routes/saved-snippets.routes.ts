import { createSavedSnippet, deleteSavedSnippet, editSavedSnippet, listSavedSnippets } from '../domain/saved-snippets.js';
import { defineRoutes, transactAs } from '../http/define-routes.js';

/** Saved snippets (§4.14 and the list/create/delete companions); rules in domain/saved-snippets.ts. */
export default defineRoutes([
  {
    operationId: 'get-saved-snippets',
    handle: ({ tables, actor }) => ({ saved_snippets: listSavedSnippets(tables, actor!.user) }),
  },
  {
    operationId: 'create-saved-snippet',
    handle: async (ctx) => {
      const p = ctx.params as { title: string; content: string };
      return { saved_snippet_id: await transactAs(ctx, (tx, actor) => createSavedSnippet(tx, actor, p)) };
    },
  },
  {
    operationId: 'edit-saved-snippet',
    handle: async (ctx) => {
      const p = ctx.params as { saved_snippet_id: number; title?: string; content?: string };
      await transactAs(ctx, (tx, actor) => editSavedSnippet(tx, actor, p.saved_snippet_id, p));
      return {};
    },
  },
  {
    operationId: 'delete-saved-snippet',
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => deleteSavedSnippet(tx, actor, ctx.params.saved_snippet_id as number));
      return {};
    },
  },
]);
