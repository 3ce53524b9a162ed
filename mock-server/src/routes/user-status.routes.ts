import { getUserStatus, refuseBotCallers, updateOwnStatus, updateStatusForUser, type StatusParams } from '../domain/users/status.js';
import { defineRoutes, transactAs } from '../http/define-routes.js';

/** User statuses (§4.4, §4.5 and the companion GET /users/{user_id}/status). */
export default defineRoutes([
  {
    operationId: 'update-status',
    gate: ({ actor }) => refuseBotCallers(actor?.user),
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => updateOwnStatus(tx, actor, ctx.params as StatusParams));
      return {};
    },
  },
  {
    operationId: 'update-status-for-user',
    gate: ({ actor }) => refuseBotCallers(actor?.user),
    handle: async (ctx) => {
      const { user_id: userId, ...params } = ctx.params;
      await transactAs(ctx, (tx, actor) => updateStatusForUser(tx, actor, userId as number, params as StatusParams));
      return {};
    },
  },
  {
    operationId: 'get-user-status',
    handle: ({ tables, params }) => ({ status: getUserStatus(tables, params.user_id as number) }),
  },
]);
