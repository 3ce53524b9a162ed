import { doUpdateUser } from '../domain/users/update.js';
import { doDeactivateUser } from '../domain/users/deactivate.js';
import { defineAction, type RouteSpec } from '../http/define-routes.js';

/** User administration: update a user (§4.7) and deactivate a user (§4.17). */
const routes: RouteSpec[] = [defineAction('update-user', doUpdateUser), defineAction('deactivate-user', doDeactivateUser)];

export default routes;
