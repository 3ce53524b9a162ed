import { doAddNavigationView, doEditNavigationView, doRemoveNavigationView } from '../domain/actions/navigation-views.js';
import { listNavigationViews } from '../domain/navigation-views.js';
import { act, defineRoute, type RouteSpec } from '../http/define-routes.js';

/**
 * Navigation views (§4.12 and the list/add/remove companions); rules in domain/navigation-views.ts. The
 * fragment path parameter spans the rest of the path, slashes included (x-allow-slashes).
 */
const routes: RouteSpec[] = [
  defineRoute('get-navigation-views', {
    handle: ({ tables, actor }) => ({ navigation_views: listNavigationViews(tables, actor.user) }),
  }),
  defineRoute('add-navigation-view', {
    handle: async (ctx) => {
      await act(ctx, doAddNavigationView);
      return {};
    },
  }),
  defineRoute('edit-navigation-view', {
    handle: async (ctx) => {
      await act(ctx, doEditNavigationView);
      return {};
    },
  }),
  defineRoute('remove-navigation-view', {
    handle: async (ctx) => {
      await act(ctx, doRemoveNavigationView);
      return {};
    },
  }),
];

export default routes;
