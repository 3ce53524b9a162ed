import { defineRoutes } from '../http/define-routes.js';

/** Scheduled messages (§4.1, §4.2 and the list/delete companions). */
export default defineRoutes([]);
