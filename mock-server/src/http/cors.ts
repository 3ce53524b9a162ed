import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/**
 * CORS for the web origins the developer names (`--cors-origin`, config `corsOrigins`; docs/running-the-mock.md),
 * and nobody else: a web client under development at `http://localhost:3000` calls the API with Basic auth, which
 * makes the browser ask first (a preflight). Only /api/v1 and /user_uploads answer cross-origin; the control API
 * and the inspector never do (http/owner-guard.ts refuses other origins there). Other origins get no CORS header,
 * so their browsers keep the answers from their pages. The `cors` package is not a dependency, and the rule is a
 * dozen lines.
 */
const METHODS = 'GET, POST, PUT, PATCH, DELETE';
/** What the stock web clients send: Basic auth, form or JSON bodies. */
const HEADERS = 'Authorization, Content-Type, Accept, X-Requested-With';
/** What a client reads besides the body: when to retry, and the rate limit's state. */
const EXPOSED = 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset';
/** How long a browser may reuse a preflight's answer (s): Chromium caps it at two hours. */
const MAX_AGE = '600';

/** The paths that answer allowed origins, as the app mounts them (the API prefix in any case; a leading `//` collapsed). */
const CORS_PATH = /^\/+(?:api\/v1(?=\/|$)|user_uploads\/)/i;

/**
 * Answers an allowed origin's preflight (true: answered, nothing else of the request runs) or marks the answer of
 * the request for its origin (false: the request goes on). Plain node:http calls, so that the API's front door
 * (http/front-door.ts) and express (uploaded files) both run it.
 */
export type Cors = (req: CorsRequest, res: ServerResponse) => boolean;

/** What the check reads of a request: its path as express's `req.path` (the API's front door sets the same). */
interface CorsRequest {
  path: string;
  method?: string | undefined;
  headers: IncomingHttpHeaders;
}

/**
 * The check that answers allowed origins' preflights and marks their answers, or null when no origin is allowed
 * (then nothing runs and no request pays for it).
 */
export function corsLayer(origins: readonly string[] = []): Cors | null {
  if (origins.length === 0) return null;
  const allowed = new Set(origins.map(canonicalOrigin));
  return (req, res) => {
    if (!CORS_PATH.test(req.path)) return false;
    // Every answer of these paths depends on Origin, so a cache must not hand one origin's answer to another.
    varyOnOrigin(res);
    const origin = req.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return false;
    allow(res, origin);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      // A preflight carries no credentials: it is answered here, before authentication and routing.
      res.setHeader('Access-Control-Allow-Methods', METHODS);
      res.setHeader('Access-Control-Allow-Headers', HEADERS);
      res.setHeader('Access-Control-Max-Age', MAX_AGE);
      res.statusCode = 204;
      res.end();
      return true;
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSED);
    return false;
  };
}

/**
 * `Origin` added to the answer's Vary as express's `res.vary('Origin')` adds it: appended to a list that lacks it
 * (and lacks `*`). Nothing sets Vary before this check, so the header is nearly always just `Origin`.
 */
function varyOnOrigin(res: ServerResponse): void {
  const had = res.getHeader('Vary');
  if (had === undefined || had === '') return void res.setHeader('Vary', 'Origin');
  const list = Array.isArray(had) ? had.join(', ') : String(had);
  if (list === '*') return;
  const names = list
    .toLowerCase()
    .split(',')
    .map((name) => name.trim());
  if (names.includes('*')) return void res.setHeader('Vary', '*');
  if (!names.includes('origin')) res.setHeader('Vary', `${list}, Origin`);
}

function allow(res: ServerResponse, origin: string): void {
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
}

/**
 * An origin as a browser sends it in `Origin` (`http://localhost:3000`: lower case, no default port, no path), or
 * an error naming what is wrong with the text given.
 */
export function canonicalOrigin(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${text} is not an origin: give scheme, host and port, e.g. http://localhost:3000`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${text} is not an http or https origin`);
  if (url.username || url.password || url.search || url.hash || url.pathname !== '/')
    throw new Error(`${text} is not an origin: give scheme, host and port only, e.g. http://localhost:3000`);
  return url.origin;
}
