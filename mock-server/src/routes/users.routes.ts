import { fetchApiKey } from '../domain/users/api-key.js';
import { checkUserCreationGate, createUser } from '../domain/users/create.js';
import { getUser, listUsers, ownUser, type ReadOptions } from '../domain/users/read.js';
import { defineRoutes, transactAs, type RequestContext } from '../http/define-routes.js';

const readOptions = ({ params }: RequestContext): ReadOptions => ({
  clientGravatar: params.client_gravatar as boolean,
  includeCustomProfileFields: params.include_custom_profile_fields as boolean,
});

export default defineRoutes([
  {
    // Companion of §2.8: the realm's accounts.
    operationId: 'get-users',
    handle: (ctx) => ({ members: listUsers(ctx.tables, ctx.actor!.user, readOptions(ctx)) }),
  },
  {
    operationId: 'get-user',
    handle: (ctx) => ({ user: getUser(ctx.tables, ctx.actor!.user, ctx.params.user_id as number, readOptions(ctx)) }),
  },
  {
    operationId: 'get-own-user',
    handle: ({ tables, actor }) => ownUser(tables, actor!.user),
  },
  {
    // §4.10; the administrator gate comes before any parameter is read (reference "Order of checks", C10).
    operationId: 'create-user',
    gate: ({ actor }) => checkUserCreationGate(actor!.user),
    handle: (ctx) => {
      const { params } = ctx;
      return transactAs(ctx, (tx, actor) => createUser(tx, actor, { email: params.email as string, password: params.password as string, full_name: params.full_name as string }));
    },
  },
  {
    // Anonymous (reference server; the stock JavaScript client's login with a password).
    operationId: 'fetch-api-key',
    handle: ({ tables, params }) => fetchApiKey(tables, params.username as string, params.password as string),
  },
]);
