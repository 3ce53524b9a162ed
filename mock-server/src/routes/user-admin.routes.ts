import { doDeactivateUser, doUpdateUser } from '../domain/actions/users.js';
import { act, defineRoute, type RouteSpec } from '../http/define-routes.js';

/** User administration: update a user (§4.7) and deactivate a user (§4.17). */
const routes: RouteSpec[] = [
  defineRoute('update-user', {
    handle: async (ctx) => {
      await act(ctx, doUpdateUser);
      return {};
    },
  }),
  defineRoute('deactivate-user', {
    handle: async (ctx) => {
      await act(ctx, doDeactivateUser);
      return {};
    },
  }),
];

export default routes;
