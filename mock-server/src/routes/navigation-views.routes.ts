import { doAddNavigationView, doEditNavigationView, doRemoveNavigationView, listNavigationViews } from '../domain/navigation-views.js';
import { defineAction, defineRoute, type RouteSpec } from '../http/define-routes.js';

/**
 * Navigation views (§4.12 and the list/add/remove companions); rules in domain/navigation-views.ts. The
 * fragment path parameter spans the rest of the path, slashes included (x-allow-slashes).
 */
const routes: RouteSpec[] = [
  defineRoute('get-navigation-views', {
    handle: ({ tables, actor }) => ({ navigation_views: listNavigationViews(tables, actor.user) }),
  }),
  defineAction('add-navigation-view', doAddNavigationView),
  defineAction('edit-navigation-view', doEditNavigationView),
  defineAction('remove-navigation-view', doRemoveNavigationView),
];

export default routes;
