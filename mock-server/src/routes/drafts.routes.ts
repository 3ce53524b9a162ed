import { createDrafts, deleteDraft, editDraft } from '../domain/drafts/actions.js';
import { listDrafts } from '../domain/drafts/present.js';
import { checkDraftsSynchronized, type DraftInput } from '../domain/drafts/validate.js';
import { defineRoutes, transactAs, type GateContext } from '../http/define-routes.js';

/** Every draft operation is refused before parsing when the user turned synchronization off (reference §4.6). */
const synchronized = ({ actor }: GateContext) => checkDraftsSynchronized(actor!.user);

/** Drafts (§4.6 and the list/edit/delete companions). */
export default defineRoutes([
  {
    operationId: 'get-drafts',
    gate: synchronized,
    handle: ({ tables, actor, features }) => {
      const drafts = listDrafts(tables, actor!.user.user_id, features);
      return { count: drafts.length, drafts };
    },
  },
  {
    operationId: 'create-drafts',
    gate: synchronized,
    handle: async (ctx) => ({ ids: await transactAs(ctx, (tx, actor) => createDrafts(tx, actor, ctx.params.drafts as DraftInput[])) }),
  },
  {
    operationId: 'edit-draft',
    gate: synchronized,
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => editDraft(tx, actor, ctx.params.draft_id as number, ctx.params.draft as DraftInput));
      return {};
    },
  },
  {
    operationId: 'delete-draft',
    gate: synchronized,
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => deleteDraft(tx, actor, ctx.params.draft_id as number));
      return {};
    },
  },
]);
