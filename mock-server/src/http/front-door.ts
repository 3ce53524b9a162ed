import type { RequestListener } from 'node:http';
import type { AppContext } from '../app-context.js';
import { pathNotFound } from '../domain/errors.js';
import { bodyParser } from './body.js';
import type { Cors } from './cors.js';
import type { RouteSpec } from './define-routes.js';
import { urlParts, type ApiRequest, type ApiResponse } from './exchange.js';
import { errorHandler } from './respond.js';
import { apiRouter, METHOD_OVERRIDES } from './router.js';
import { continueIfExpected } from './server.js';
import { UploadSlots } from './upload-slots.js';

/**
 * The server's request listener. A request under /api/v1 goes from node:http straight to the route table and the
 * pipeline; every other one (the control API, the inspector, the contract, uploaded files, 404s) to express,
 * untouched. Express's own handling cost every API request its router's layers and a prototype swap of the
 * request and the answer (a third of the work of a cached read, and most of a long-poll's re-poll), for
 * conveniences the API used three of: `originalUrl`, `path` and `res.locals`, set here as plain fields.
 *
 * What each request meets is what express's stack gave it, in the same order: the observers (the inspector's
 * capture, the request log), the allowed origins' CORS, then authentication before the body, the body, the
 * `method` field, the route table; any error to the one error handler (http/respond.ts).
 */
export interface FrontDoorParts {
  context: AppContext;
  routes: RouteSpec[];
  /** What sees every API request first, each calling `next` at once (the inspector's capture, the request log). */
  observers: Observer[];
  cors: Cors | null;
  /** Everything outside /api/v1 (the express app). */
  rest: RequestListener;
}

export type Observer = (req: ApiRequest, res: ApiResponse, next: () => void) => void;

export function frontDoor({ context, routes, observers, cors, rest }: FrontDoorParts): RequestListener {
  const parseBody = bodyParser();
  // Only upload-file keeps a file's bytes (up to the limit plus one byte, so "too large" can be told);
  // every other operation discards file parts, so no request elsewhere can make the server buffer a file.
  const parseUpload = bodyParser({ maxFileBytes: context.config.maxFileUploadMib * 1024 * 1024 + 1 });
  const dispatch = apiRouter(context, routes);
  const uploads = new UploadSlots(context.config.maxPendingUploads, context.config.maxPendingUploadsPerUser);

  return (request, response) => {
    const url = request.url ?? '/';
    // Stock clients can send a request-target starting with `//` (a realm URL ending in `/`): collapsed before
    // routing so no URL parser takes `api` for a host (reference "What arrives on the wire" 6).
    const target = url.charCodeAt(1) === SLASH && url.charCodeAt(0) === SLASH ? url.replace(/^\/+/, '/') : url;
    const { pathname, query } = urlParts(target);
    const path = pathname === null ? null : apiPath(pathname);
    if (path === null) return rest(request, response);
    const req = request as ApiRequest;
    const res = response as ApiResponse;
    req.originalUrl = url;
    req.url = target;
    req.path = pathname!;
    req.queryText = query;
    req.res = res;
    res.locals = Object.create(null) as Record<string, unknown>;
    const fail = (error?: unknown) => errorHandler(error ?? pathNotFound(), req, res, noop);
    try {
      for (const observe of observers) observe(req, res, noop);
      if (cors?.(req, res)) return;
      // Only an authenticated POST holding an upload slot may make the server keep a file's bytes: any other
      // method on the upload path (a 405), or a request not checked before its body, discards file parts.
      let upload = false;
      try {
        // Authentication before the body (an unauthenticated client makes the server read nothing), then an
        // upload slot: a refused request's body is never read.
        const actor = dispatch.checkBeforeBody(req, path);
        if (actor !== null && req.method === 'POST' && UPLOAD_PATHS.has(path)) {
          uploads.take(actor, res);
          upload = true;
        }
      } catch (error) {
        if (bigBody(req)) res.setHeader('Connection', 'close');
        return fail(error);
      }
      continueIfExpected(req, res);
      (upload ? parseUpload : parseBody)(req, res, (error?: unknown) => {
        if (error) return fail(error);
        overrideMethod(req);
        dispatch(req, res, path, fail);
      });
    } catch (error) {
      fail(error);
    }
  };
}

const SLASH = 0x2f;
function noop(): void {}

/**
 * The path under /api/v1, or null outside it. The prefix matches as `app.use('/api/v1', …)` did (the
 * expression express compiled for that mount: any case, followed by `/` or nothing); what follows is the
 * route table's, matched case-sensitively.
 */
function apiPath(pathname: string): string | null {
  return API_MOUNT.test(pathname) ? pathname.slice('/api/v1'.length) || '/' : null;
}
const API_MOUNT = /^\/api\/v1(?=\/|$)/i;
/** upload-file's path under /api/v1, with the one optional trailing slash the route tree accepts. */
const UPLOAD_PATHS = new Set(['/user_uploads', '/user_uploads/']);

/** A form field `method` on a POST overrides the HTTP method (reference §1); the key stays a parameter. */
function overrideMethod(req: ApiRequest): void {
  const wanted = req.method === 'POST' ? req.form?.method?.toUpperCase() : undefined;
  if (wanted && METHOD_OVERRIDES.has(wanted)) req.method = wanted;
}

/**
 * A refused request's body is not read. Node discards what is left of it to keep the connection, which is
 * fine for a form; a large or unknown-sized body (an upload) closes the connection instead.
 */
const bigBody = (req: ApiRequest) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > UNREAD_BODY_KEPT_BYTES;
const UNREAD_BODY_KEPT_BYTES = 64 * 1024;
