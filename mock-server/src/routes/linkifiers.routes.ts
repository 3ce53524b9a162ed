import { doAddLinkifier, doRemoveLinkifier, doReorderLinkifiers, doUpdateLinkifier } from '../domain/actions/linkifiers.js';
import { listLinkifiers, requireLinkifierManager } from '../domain/linkifiers/actions.js';
import { act, defineRoute, type GateContext, type RouteSpec } from '../http/define-routes.js';

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
  defineRoute('add-linkifier', {
    gate: administratorsOnly,
    handle: async (ctx) => ({ id: await act(ctx, doAddLinkifier) }),
  }),
  defineRoute('update-linkifier', {
    gate: administratorsOnly,
    handle: async (ctx) => {
      await act(ctx, doUpdateLinkifier);
      return {};
    },
  }),
  defineRoute('remove-linkifier', {
    gate: administratorsOnly,
    handle: async (ctx) => {
      await act(ctx, doRemoveLinkifier);
      return {};
    },
  }),
  defineRoute('reorder-linkifiers', {
    gate: administratorsOnly,
    handle: async (ctx) => {
      await act(ctx, doReorderLinkifiers);
      return {};
    },
  }),
];

export default routes;
