import { doCreateUser } from '../domain/actions/users.js';
import { fetchApiKey } from '../domain/users/api-key.js';
import { checkUserCreationGate } from '../domain/users/create.js';
import { getUserByIdOrEmail, listUsers, ownUser } from '../domain/users/read.js';
import { act, defineRoute, type RouteSpec } from '../http/define-routes.js';

const routes: RouteSpec[] = [
  // Companion of §2.8: the realm's accounts.
  defineRoute('get-users', {
    handle: ({ tables, actor, params }) => ({
      members: listUsers(tables, actor.user, {
        clientGravatar: params.client_gravatar,
        includeCustomProfileFields: params.include_custom_profile_fields,
      }),
    }),
  }),
  defineRoute('get-user', {
    handle: ({ tables, actor, params }) => ({
      user: getUserByIdOrEmail(tables, actor.user, params.user_id, {
        clientGravatar: params.client_gravatar,
        includeCustomProfileFields: params.include_custom_profile_fields,
      }),
    }),
  }),
  defineRoute('get-own-user', {
    handle: ({ tables, actor }) => ownUser(tables, actor.user),
  }),
  // §4.10; the administrator gate comes before any parameter is read (reference "Order of checks", C10).
  defineRoute('create-user', {
    gate: ({ actor }) => checkUserCreationGate(actor.user),
    handle: (ctx) => act(ctx, doCreateUser),
  }),
  // Anonymous (reference server; the stock JavaScript client's login with a password).
  defineRoute('fetch-api-key', {
    handle: ({ tables, params }) => fetchApiKey(tables, params.username, params.password),
  }),
];

export default routes;
