import { deactivateUser, type DeactivateUserParams } from '../domain/users/deactivate.js';
import { updateUser } from '../domain/users/update.js';
import type { UpdateUserParams } from '../domain/users/update-plan.js';
import { defineRoutes, transactAs } from '../http/define-routes.js';

/** User administration: update a user (§4.7) and deactivate a user (§4.17). */
export default defineRoutes([
  {
    operationId: 'update-user',
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => updateUser(tx, actor, ctx.params as unknown as UpdateUserParams));
      return {};
    },
  },
  {
    operationId: 'deactivate-user',
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => deactivateUser(tx, actor, ctx.params as unknown as DeactivateUserParams));
      return {};
    },
  },
]);
