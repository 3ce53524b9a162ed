import { doUpdateStatus, doUpdateStatusForUser } from '../domain/actions/users.js';
import { getUserStatus, refuseBotCallers } from '../domain/users/status.js';
import { act, defineRoute, type RouteSpec } from '../http/define-routes.js';

/** User statuses (§4.4, §4.5 and the companion GET /users/{user_id}/status). */
const routes: RouteSpec[] = [
  defineRoute('update-status', {
    gate: ({ actor }) => refuseBotCallers(actor.user),
    handle: async (ctx) => {
      await act(ctx, doUpdateStatus);
      return {};
    },
  }),
  defineRoute('update-status-for-user', {
    gate: ({ actor }) => refuseBotCallers(actor.user),
    handle: async (ctx) => {
      await act(ctx, doUpdateStatusForUser);
      return {};
    },
  }),
  defineRoute('get-user-status', {
    handle: ({ tables, params }) => ({ status: getUserStatus(tables, params.user_id) }),
  }),
];

export default routes;
