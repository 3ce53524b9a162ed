import { defineRoutes } from '../http/define-routes.js';

/** Placeholder while issue 6 is implemented: no operation bound yet. */
export default defineRoutes([]);
