import { fetchApiKey } from '../domain/users/api-key.js';
import { checkUserCreationGate, doCreateUser } from '../domain/users/create.js';
import { getUserByIdOrEmail, listUsers, ownUser } from '../domain/users/read.js';
import { defineAction, defineRoute, type RouteSpec } from '../http/define-routes.js';

const routes: RouteSpec[] = [
  // Companion of §2.8: the realm's accounts.
  defineRoute('get-users', {
    // Per caller: the email visibility settings decide delivery_email and avatar_url for each reader.
    cache: { caller: 'user' },
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
  defineAction('create-user', doCreateUser, { gate: ({ actor }) => checkUserCreationGate(actor.user) }),
  // Anonymous (reference server; the stock JavaScript client's login with a password).
  defineRoute('fetch-api-key', {
    handle: ({ tables, params }) => fetchApiKey(tables, params.username, params.password),
  }),
];

export default routes;
