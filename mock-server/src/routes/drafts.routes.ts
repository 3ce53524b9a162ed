import { doCreateDrafts, doDeleteDraft, doEditDraft } from '../domain/actions/drafts.js';
import { listDrafts } from '../domain/drafts/present.js';
import { checkDraftsSynchronized } from '../domain/drafts/validate.js';
import { act, defineRoute, type GateContext, type RouteSpec } from '../http/define-routes.js';

/** Every draft operation is refused before parsing when the user turned synchronization off (reference §4.6). */
const synchronized = ({ actor }: GateContext<'get-drafts' | 'create-drafts' | 'edit-draft' | 'delete-draft'>) =>
  checkDraftsSynchronized(actor.user);

/** Drafts (§4.6 and the list/edit/delete companions). */
const routes: RouteSpec[] = [
  defineRoute('get-drafts', {
    gate: synchronized,
    handle: ({ tables, actor, features }) => {
      const drafts = listDrafts(tables, actor.user.user_id, features);
      return { count: drafts.length, drafts };
    },
  }),
  defineRoute('create-drafts', {
    gate: synchronized,
    handle: async (ctx) => ({ ids: await act(ctx, doCreateDrafts) }),
  }),
  defineRoute('edit-draft', {
    gate: synchronized,
    handle: async (ctx) => {
      await act(ctx, doEditDraft);
      return {};
    },
  }),
  defineRoute('delete-draft', {
    gate: synchronized,
    handle: async (ctx) => {
      await act(ctx, doDeleteDraft);
      return {};
    },
  }),
];

export default routes;
