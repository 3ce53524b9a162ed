import { addNavigationView, editNavigationView, listNavigationViews, removeNavigationView, type AddViewParams } from '../domain/navigation-views.js';
import { defineRoutes, transactAs } from '../http/define-routes.js';

/**
 * Navigation views (§4.12 and the list/add/remove companions); rules in domain/navigation-views.ts. The
 * fragment path parameter spans the rest of the path, slashes included (x-allow-slashes).
 */
export default defineRoutes([
  {
    operationId: 'get-navigation-views',
    handle: ({ tables, actor }) => ({ navigation_views: listNavigationViews(tables, actor!.user) }),
  },
  {
    operationId: 'add-navigation-view',
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => addNavigationView(tx, actor, ctx.params as unknown as AddViewParams));
      return {};
    },
  },
  {
    operationId: 'edit-navigation-view',
    handle: async (ctx) => {
      const p = ctx.params as { fragment: string; is_pinned?: boolean; name?: string };
      await transactAs(ctx, (tx, actor) => editNavigationView(tx, actor, p));
      return {};
    },
  },
  {
    operationId: 'remove-navigation-view',
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => removeNavigationView(tx, actor, ctx.params.fragment as string));
      return {};
    },
  },
]);
