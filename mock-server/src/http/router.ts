import FindMyWay from 'find-my-way';
import type { AppContext } from '../app-context.js';
import { malformedUrl, methodNotAllowed, pathNotFound } from '../domain/errors.js';
import { appendTo } from '../domain/lists.js';
import type { Actor } from './auth.js';
import type { RouteSpec } from './define-routes.js';
import type { ApiRequest, ApiResponse } from './exchange.js';
import type { OperationSpec } from './openapi.js';
import type { RawValues } from './params.js';
import { checkCaller, checkedBeforeBody, pipeline, type OperationHandler } from './pipeline.js';

/**
 * The API's dispatch, generated from the OpenAPI operations: the document decides which paths and
 * methods exist, the route table only which handler serves an operation. Operations without a handler
 * answer NOT_IMPLEMENTED (a clear JSON error; a test lists them).
 *
 * The API's front door (http/front-door.ts) looks the path up in find-my-way's radix tree (Fastify's
 * router), built once at start, instead of an express route per path: express tried every route layer
 * with its own regular expression per request, a third of our time on cheap reads. The
 * lookup answers exactly as those routes did (express 5's router with `caseSensitive`, non-strict,
 * pinned by test/http/router.test.ts): case-sensitive matching, one optional trailing slash, literal
 * segments before parameters, percent-decoded parameter values (undecodable: malformed URL), HEAD
 * served by GET, OPTIONS answered with Allow, any other method 405, no path 404.
 */
export interface ApiRouter {
  (req: ApiRequest, res: ApiResponse, path: string, next: (error: unknown) => void): void;
  /**
   * Before the body is read: the answer the request gets whatever its body says, thrown, or the caller
   * (null where the body may still decide: an anonymous operation, a 405, a POST a `method` field may
   * turn into an anonymous one). So an unauthenticated client never makes the server read (or buffer)
   * a body, an upload above all; the pipeline authenticates again with the body read.
   */
  checkBeforeBody(req: ApiRequest, path: string): Actor | null;
}

export function apiRouter(app: AppContext, routes: RouteSpec[]): ApiRouter {
  const table = routeTable(app, routes);
  const dispatch: ApiRouter = (req, res, path, next) => {
    try {
      table.dispatch(req, res, path, next);
    } catch (error) {
      next(error);
    }
  };
  dispatch.checkBeforeBody = (req, path) => table.checkBeforeBody(app, req, path);
  return dispatch;
}

/** What a POST's form field `method` may turn it into (reference §1); app.ts applies it once the body is read. */
export const METHOD_OVERRIDES: ReadonlySet<string> = new Set(['GET', 'PATCH', 'DELETE', 'PUT']);

/** One OpenAPI path: its operations by method and the Allow list of its 405/OPTIONS answers. */
interface PathEntry {
  byMethod: Map<string, OperationHandler>;
  operations: Map<string, OperationSpec>;
  allowed: string[];
  /** The name of a slash-spanning parameter: the tree calls its value `*`. */
  wildcard: string | null;
}

class RouteTable {
  /**
   * Every path is registered once, under GET: the tree finds the path, the entry decides the method
   * (HEAD, OPTIONS and 405 are answered the same way for every path).
   */
  readonly tree = FindMyWay({ caseSensitive: true, ignoreTrailingSlash: true });

  /** `path`: the URL's path (as express parsed it, http/exchange.ts) after /api/v1, undecoded, as express's router matched it. */
  dispatch(req: ApiRequest, res: ApiResponse, path: string, next: (error: unknown) => void): void {
    const found = this.tree.find('GET', path);
    if (!found) {
      // find-my-way matches nothing with an undecodable value; express matched the route, then
      // refused the value. The path with its undecodable segments replaced tells which it was.
      if (path.includes('%') && this.tree.find('GET', path.split('/').map(decodableOrPlaceholder).join('/'))) throw malformedUrl();
      return next(pathNotFound());
    }
    const entry = found.store as PathEntry;
    const values = found.params as RawValues;
    if (entry.wildcard !== null) {
      // The tree drops the trailing slash it ignores; in a slash-spanning value it is part of the value.
      const query = path.indexOf('?');
      const trailing = (query < 0 ? path : path.slice(0, query)).endsWith('/') ? '/' : '';
      values[entry.wildcard] = values['*']! + trailing;
      delete values['*'];
    }
    const method = req.method;
    const handler = entry.byMethod.get(method) ?? (method === 'HEAD' ? entry.byMethod.get('GET') : undefined);
    if (handler) return handler(req, res, values, next);
    if (method === 'OPTIONS') {
      res.setHeader('Allow', entry.allowed.join(', '));
      res.statusCode = 204;
      res.end();
      return;
    }
    next(methodNotAllowed(entry.allowed));
  }

  /** The pipeline's first steps (path shape, authentication) where no body can change their answer. */
  checkBeforeBody(app: AppContext, req: ApiRequest, path: string): Actor | null {
    const found = this.tree.find('GET', path);
    if (!found) return null;
    const entry = found.store as PathEntry;
    const method = req.method === 'HEAD' && !entry.operations.has('HEAD') ? 'GET' : req.method;
    const op = entry.operations.get(method);
    if (!op || op.anonymous) return null;
    if (method === 'POST') for (const other of METHOD_OVERRIDES) if (entry.operations.get(other)?.anonymous) return null;
    const actor = checkCaller(app, op, req, found.params as RawValues)!;
    checkedBeforeBody.set(req, { op, actor });
    return actor;
  }
}

function routeTable(app: AppContext, routes: RouteSpec[]): RouteTable {
  const byId = new Map<string, RouteSpec>(routes.map((r) => [r.operationId, r]));
  for (const r of routes) {
    if (!app.operations.some((op) => op.operationId === r.operationId)) throw new Error(`route for unknown operation ${r.operationId}`);
  }
  const byPath = new Map<string, OperationSpec[]>();
  for (const op of app.operations) appendTo(byPath, op.path, op);

  const table = new RouteTable();
  for (const [path, ops] of byPath) {
    const { route, wildcard } = treePath(path.replace(/^\/api\/v1/, ''), ops[0]!);
    const entry: PathEntry = {
      byMethod: new Map(ops.map((op) => [op.method, pipeline(app, op, byId.get(op.operationId))])),
      operations: new Map(ops.map((op) => [op.method, op])),
      allowed: [...ops.map((op) => op.method), ...(ops.some((op) => op.method === 'GET') ? ['HEAD'] : []), 'OPTIONS'],
      wildcard,
    };
    table.tree.on('GET', route, noop, entry);
  }
  return table;
}

function noop(): void {}

function decodableOrPlaceholder(segment: string): string {
  try {
    decodeURIComponent(segment);
    return segment;
  } catch {
    return '_';
  }
}

/**
 * /users/{user_id}/status → /users/:user_id/status; a slash-spanning parameter (`x-allow-slashes`, the
 * last segment only) → `*`, whose value the entry renames.
 */
function treePath(path: string, op: OperationSpec): { route: string; wildcard: string | null } {
  let wildcard: string | null = null;
  const segments = path.split('/');
  const route = segments.map((segment, i) => {
    if (!segment.startsWith('{')) {
      if (/[{}()[\]*+?!:\\]/.test(segment)) throw new Error(`router: path ${path} has a segment the tree cannot match: ${segment}`);
      return segment;
    }
    const m = /^\{([^{}]+)\}$/.exec(segment);
    if (!m) throw new Error(`router: path ${path}: a parameter must be a whole segment (${segment})`);
    if (op.params.find((p) => p.name === m[1])?.allowSlashes !== true) return `:${m[1]}`;
    if (i !== segments.length - 1) throw new Error(`router: path ${path}: only the last segment may span slashes`);
    wildcard = m[1]!;
    return '*';
  });
  return { route: route.join('/'), wildcard };
}
