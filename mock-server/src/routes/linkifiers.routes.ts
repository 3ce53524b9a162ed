import {
  doAddLinkifier,
  doRemoveLinkifier,
  doReorderLinkifiers,
  doUpdateLinkifier,
  listLinkifiers,
  requireLinkifierManager,
} from '../domain/linkifiers/actions.js';
import { defineAction, defineRoute, type GateContext, type RouteSpec } from '../http/define-routes.js';

/**
 * Linkifiers (spec §4.18 and the list, update, remove and reorder companions). The administrator check
 * is a gate: the reference server refuses non-administrators before it reads any parameter (C19).
 */
const administratorsOnly = ({ actor }: GateContext<'add-linkifier' | 'update-linkifier' | 'remove-linkifier' | 'reorder-linkifiers'>) =>
  requireLinkifierManager(actor.user);

const routes: RouteSpec[] = [
  defineRoute('get-linkifiers', {
    handle: ({ tables }) => ({ linkifiers: listLinkifiers(tables) }),
  }),
  defineAction('add-linkifier', doAddLinkifier, { gate: administratorsOnly, answer: (id) => ({ id }) }),
  defineAction('update-linkifier', doUpdateLinkifier, { gate: administratorsOnly }),
  defineAction('remove-linkifier', doRemoveLinkifier, { gate: administratorsOnly }),
  defineAction('reorder-linkifiers', doReorderLinkifiers, { gate: administratorsOnly }),
];

export default routes;
