import type { NextFunction, Request, Response } from 'express';
import type { AppContext } from '../app-context.js';
import { malformedUrl, methodNotAllowed, pathNotFound } from '../domain/errors.js';
import type { RouteSpec } from './define-routes.js';
import type { OperationSpec } from './openapi.js';
import type { RawValues } from './params.js';
import { pipeline, type OperationHandler } from './pipeline.js';

/**
 * The API's dispatch, generated from the OpenAPI operations: the document decides which paths and
 * methods exist, the route table only which handler serves an operation. Operations without a handler
 * answer NOT_IMPLEMENTED (a clear JSON error; a test lists them).
 *
 * One express middleware mounted at /api/v1 looks the path up in a table built once at start, instead
 * of an express route per path: express tried every route layer with its own regular expression per
 * request, a third of our time on cheap reads (issue 17). The table answers exactly as those routes did
 * (express 5's router with `caseSensitive`, non-strict): case-sensitive matching of the raw path, one
 * optional trailing slash, literal segments before parameters, percent-decoding of parameter values
 * (undecodable: malformed URL), HEAD served by GET, OPTIONS answered with Allow, any other method 405,
 * no path 404.
 */
export function apiRouter(app: AppContext, routes: RouteSpec[]): (req: Request, res: Response, path: string, next: NextFunction) => void {
  const table = routeTable(app, routes);
  return (req, res, path, next) => {
    try {
      table.dispatch(req, res, path, next);
    } catch (error) {
      next(error);
    }
  };
}

/** One OpenAPI path: its operations by method and the Allow list of its 405/OPTIONS answers. */
interface PathEntry {
  byMethod: Map<string, OperationHandler>;
  allowed: string[];
}

/** A path with parameters, compiled once: the names of its captures and which of them span slashes. */
interface Pattern {
  regexp: RegExp;
  names: string[];
  spans: boolean[];
  entry: PathEntry;
}

class RouteTable {
  /** Paths without parameters, by their exact text under /api/v1. */
  readonly literal = new Map<string, PathEntry>();
  /** Paths with parameters by their first segment, each list in precedence order. */
  readonly byFirstSegment = new Map<string, Pattern[]>();
  /** Paths starting with a parameter: they come after every path with a literal first segment. */
  readonly parameterFirst: Pattern[] = [];

  /** `path`: the URL's path (as express parses it) after /api/v1, undecoded, as express's router matched it. */
  dispatch(req: Request, res: Response, path: string, next: NextFunction): void {
    const found = this.#find(path);
    if (!found) return next(pathNotFound());
    const { entry, values } = found;
    const method = req.method;
    const handler = entry.byMethod.get(method) ?? (method === 'HEAD' ? entry.byMethod.get('GET') : undefined);
    if (handler) return handler(req, res, values, next);
    if (method === 'OPTIONS') {
      res.setHeader('Allow', entry.allowed.join(', '));
      res.status(204).end();
      return;
    }
    next(methodNotAllowed(entry.allowed));
  }

  #find(path: string): { entry: PathEntry; values: RawValues } | null {
    // A literal path sorts before every parameterised path that could match the same text.
    const literal = this.literal.get(path) ?? (path.length > 1 && path.endsWith('/') ? this.literal.get(path.slice(0, -1)) : undefined);
    if (literal) return { entry: literal, values: Object.create(null) as RawValues };
    const slash = path.indexOf('/', 1);
    const first = slash < 0 ? path.slice(1) : path.slice(1, slash);
    return match(this.byFirstSegment.get(first), path) ?? match(this.parameterFirst, path);
  }
}

function match(patterns: Pattern[] | undefined, path: string): { entry: PathEntry; values: RawValues } | null {
  if (!patterns) return null;
  for (const pattern of patterns) {
    const m = pattern.regexp.exec(path);
    if (!m) continue;
    const values: RawValues = Object.create(null);
    for (let i = 0; i < pattern.names.length; i++) {
      const raw = m[i + 1]!;
      // A slash-spanning value is decoded segment by segment, as express did (navigation-view fragments).
      values[pattern.names[i]!] = pattern.spans[i] ? raw.split('/').map(decodeValue).join('/') : decodeValue(raw);
    }
    return { entry: pattern.entry, values };
  }
  return null;
}

/** express's decoding of a parameter: only text with a `%` is decoded; undecodable text names no resource. */
function decodeValue(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    throw malformedUrl();
  }
}

function routeTable(app: AppContext, routes: RouteSpec[]): RouteTable {
  const byId = new Map<string, RouteSpec>(routes.map((r) => [r.operationId, r]));
  for (const r of routes) {
    if (!app.operations.some((op) => op.operationId === r.operationId)) throw new Error(`route for unknown operation ${r.operationId}`);
  }
  const byPath = new Map<string, OperationSpec[]>();
  for (const op of app.operations) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);

  const table = new RouteTable();
  for (const path of [...byPath.keys()].sort(literalFirst)) {
    const ops = byPath.get(path)!;
    const entry: PathEntry = {
      byMethod: new Map(ops.map((op) => [op.method, pipeline(app, op, byId.get(op.operationId))])),
      allowed: [...ops.map((op) => op.method), ...(ops.some((op) => op.method === 'GET') ? ['HEAD'] : []), 'OPTIONS'],
    };
    const local = path.replace(/^\/api\/v1/, '');
    const segments = local.split('/').slice(1);
    if (!segments.some(isParameter)) {
      table.literal.set(local, entry);
      continue;
    }
    const pattern = compile(local, segments, ops[0]!, entry);
    if (isParameter(segments[0]!)) table.parameterFirst.push(pattern);
    else table.byFirstSegment.set(segments[0]!, [...(table.byFirstSegment.get(segments[0]!) ?? []), pattern]);
  }
  return table;
}

const isParameter = (segment: string) => segment.startsWith('{');

/**
 * /users/{user_id}/status → ^\/users\/([^\/]+)\/status(?:\/$)?$, the expression express compiled for
 * /users/:user_id/status; a slash-spanning parameter (`x-allow-slashes`) captures the rest of the path.
 */
function compile(path: string, segments: string[], op: OperationSpec, entry: PathEntry): Pattern {
  const names: string[] = [];
  const spans: boolean[] = [];
  const source = segments.map((segment, i) => {
    if (!isParameter(segment)) {
      if (/[{}()[\]*+?!:\\]/.test(segment)) throw new Error(`router: path ${path} has a segment the table cannot match: ${segment}`);
      return `\\/${segment.replace(/[.^$|]/g, '\\$&')}`;
    }
    const m = /^\{([^{}]+)\}$/.exec(segment);
    if (!m) throw new Error(`router: path ${path}: a parameter must be a whole segment (${segment})`);
    const span = op.params.find((p) => p.name === m[1])?.allowSlashes === true;
    if (span && i !== segments.length - 1) throw new Error(`router: path ${path}: only the last segment may span slashes`);
    names.push(m[1]!);
    spans.push(span);
    return span ? '\\/([^]+)' : '\\/([^\\/]+)';
  });
  return { regexp: new RegExp(`^${source.join('')}(?:\\/$)?$`), names, spans, entry };
}

/**
 * /users/me/status must win over /users/{user_id}/status, or "me" would be read as a user ID. Segment by
 * segment, a literal sorts before a parameter.
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
