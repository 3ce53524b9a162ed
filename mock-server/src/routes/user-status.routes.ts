import { doUpdateStatus, doUpdateStatusForUser, getUserStatus, refuseBotCallers } from '../domain/users/status.js';
import { defineAction, defineRoute, type RouteSpec } from '../http/define-routes.js';

/** User statuses (§4.4, §4.5 and the companion GET /users/{user_id}/status). */
const routes: RouteSpec[] = [
  defineAction('update-status', doUpdateStatus, { gate: ({ actor }) => refuseBotCallers(actor.user) }),
  defineAction('update-status-for-user', doUpdateStatusForUser, { gate: ({ actor }) => refuseBotCallers(actor.user) }),
  defineRoute('get-user-status', {
    handle: ({ tables, params }) => ({ status: getUserStatus(tables, params.user_id) }),
  }),
];

export default routes;
