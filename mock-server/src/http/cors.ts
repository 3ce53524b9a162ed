import type { RequestHandler, Response } from 'express';

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
 * The layer that answers allowed origins' preflights and marks their answers, or null when no origin is allowed
 * (then nothing is mounted and no request pays for it).
 */
export function corsLayer(origins: readonly string[] = []): RequestHandler | null {
  if (origins.length === 0) return null;
  const allowed = new Set(origins.map(canonicalOrigin));
  return (req, res, next) => {
    if (!CORS_PATH.test(req.path)) return next();
    // Every answer of these paths depends on Origin, so a cache must not hand one origin's answer to another.
    res.vary('Origin');
    const origin = req.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return next();
    allow(res, origin);
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      // A preflight carries no credentials: it is answered here, before authentication and routing.
      res.setHeader('Access-Control-Allow-Methods', METHODS);
      res.setHeader('Access-Control-Allow-Headers', HEADERS);
      res.setHeader('Access-Control-Max-Age', MAX_AGE);
      res.status(204).end();
      return;
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSED);
    next();
  };
}

function allow(res: Response, origin: string): void {
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
