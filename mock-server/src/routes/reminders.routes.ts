import { defineRoutes } from '../http/define-routes.js';

/** Message reminders (§4.19 and the list/delete companions). */
export default defineRoutes([]);
