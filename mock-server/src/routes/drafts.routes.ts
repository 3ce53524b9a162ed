import { doCreateDrafts, doDeleteDraft, doEditDraft } from '../domain/drafts/actions.js';
import { listDrafts } from '../domain/drafts/present.js';
import { checkDraftsSynchronized } from '../domain/drafts/validate.js';
import { defineAction, defineRoute, type GateContext, type RouteSpec } from '../http/define-routes.js';

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
  defineAction('create-drafts', doCreateDrafts, { gate: synchronized, answer: (ids) => ({ ids }) }),
  defineAction('edit-draft', doEditDraft, { gate: synchronized }),
  defineAction('delete-draft', doDeleteDraft, { gate: synchronized }),
];

export default routes;
