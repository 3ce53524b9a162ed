import express, { type Router } from 'express';
import type { AppContext } from '../app-context.js';
import { methodNotAllowed, pathNotFound } from '../domain/errors.js';
import type { RouteSpec } from './define-routes.js';
import type { OperationSpec } from './openapi.js';
import { pipeline } from './pipeline.js';

/**
 * The API router, generated from the OpenAPI operations: the document decides which paths and methods
 * exist, the route table only which handler serves an operation. Operations without a handler answer
 * NOT_IMPLEMENTED (a clear JSON error; a test lists them).
 */
export function apiRouter(app: AppContext, routes: RouteSpec[]): Router {
  const byId = new Map<string, RouteSpec>(routes.map((r) => [r.operationId, r]));
  for (const r of routes) {
    if (!app.operations.some((op) => op.operationId === r.operationId)) throw new Error(`route for unknown operation ${r.operationId}`);
  }
  const router = express.Router({ caseSensitive: true });
  const byPath = new Map<string, OperationSpec[]>();
  for (const op of app.operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);

  for (const path of [...byPath.keys()].sort(literalFirst)) {
    const ops = byPath.get(path)!;
    const route = router.route(expressPath(path, ops[0]!));
    for (const op of ops)
      route[op.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete' | 'put'](pipeline(app, op, byId.get(op.operationId)));
    const allowed = [...ops.map((op) => op.method), ...(ops.some((op) => op.method === 'GET') ? ['HEAD'] : []), 'OPTIONS'];
    route.all((req, res, next) => {
      if (req.method === 'OPTIONS') {
        res.setHeader('Allow', allowed.join(', '));
        res.status(204).end();
        return;
      }
      next(methodNotAllowed(allowed));
    });
  }
  router.use((_req, _res, next) => next(pathNotFound()));
  return router;
}

/**
 * /api/v1/users/{user_id} → /users/:user_id (the router is mounted at /api/v1); a slash-spanning
 * parameter → *name.
 */
function expressPath(path: string, op: OperationSpec): string {
  return path
    .replace(/^\/api\/v1/, '')
    .replace(/\{([^}]+)\}/g, (_, name: string) => (op.params.find((p) => p.name === name)?.allowSlashes ? `*${name}` : `:${name}`));
}

/**
 * Express tries routes in order: /users/me/status must come before /users/{user_id}/status, or "me"
 * would be read as a user ID. Segment by segment, a literal sorts before a parameter.
 */
function literalFirst(a: string, b: string): number {
  const sa = a.split('/');
  const sb = b.split('/');
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i]!.startsWith('{');
    const pb = sb[i]!.startsWith('{');
    if (pa !== pb) return pa ? 1 : -1;
    if (sa[i] !== sb[i]) return sa[i]! < sb[i]! ? -1 : 1;
  }
  return sb.length - sa.length;
}
