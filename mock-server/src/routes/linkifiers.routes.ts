import {
  addLinkifier,
  listLinkifiers,
  removeLinkifier,
  reorderLinkifiers,
  requireLinkifierManager,
  updateLinkifier,
  type LinkifierParams,
} from '../domain/linkifiers/actions.js';
import { defineRoutes, transactAs, type GateContext } from '../http/define-routes.js';

/**
 * Linkifiers (spec §4.18 and the list, update, remove and reorder companions). The administrator check
 * is a gate: the reference server refuses non-administrators before it reads any parameter (C19).
 */
const administratorsOnly = ({ actor }: GateContext) => requireLinkifierManager(actor!.user);

export default defineRoutes([
  {
    operationId: 'get-linkifiers',
    handle: ({ tables }) => ({ linkifiers: listLinkifiers(tables) }),
  },
  {
    operationId: 'add-linkifier',
    gate: administratorsOnly,
    handle: async (ctx) => ({ id: await transactAs(ctx, (tx, actor) => addLinkifier(tx, actor, ctx.params as unknown as LinkifierParams)) }),
  },
  {
    operationId: 'update-linkifier',
    gate: administratorsOnly,
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => updateLinkifier(tx, actor, ctx.params.filter_id as number, ctx.params as unknown as LinkifierParams));
      return {};
    },
  },
  {
    operationId: 'remove-linkifier',
    gate: administratorsOnly,
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => removeLinkifier(tx, actor, ctx.params.filter_id as number));
      return {};
    },
  },
  {
    operationId: 'reorder-linkifiers',
    gate: administratorsOnly,
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => reorderLinkifiers(tx, actor, ctx.params.ordered_linkifier_ids as number[]));
      return {};
    },
  },
]);
