import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as legacyParse } from 'node:url';
import type { UploadedFile } from '../domain/live/uploads.js';
import type { RawValues } from './params.js';

/**
 * An API request as the front door (http/front-door.ts) hands it on: node's own request, never swapped to
 * express's prototype, with the few fields the pipeline and its observers (request log, inspector capture,
 * journal, fault rules) read, under the names express gives them. Typed apart from express's Request so that
 * the compiler refuses an express-only member (`req.get`, `res.status`, …) anywhere on the API's path.
 */
export interface ApiRequest extends IncomingMessage {
  url: string;
  method: string;
  /** The request-target as it arrived (a leading `//` not yet collapsed), as express's `req.originalUrl`. */
  originalUrl: string;
  /** The URL's path (after the collapse), as express's `req.path`: fault rules match it. */
  path: string;
  /** The query string after `?` (null: none), what express's `req.query` parsed. */
  queryText: string | null;
  res: ApiResponse;
  /** Body parameters as text, last value of a repeated key winning (as Django's QueryDict.get). */
  form?: RawValues;
  /** File parts of a multipart body (POST /user_uploads); their part names are not parameters. */
  files?: UploadedFile[];
  /** What a non-form body parser left (express.text's text, taken and cleared by http/body.ts). */
  body?: unknown;
}

/** An API answer: node's own, with express's `res.locals` (who asked, the level, what a fault rule did). */
export interface ApiResponse extends ServerResponse {
  locals: Record<string, unknown>;
}

/** The path and query string of a request-target. */
export interface UrlParts {
  pathname: string | null;
  query: string | null;
}

/**
 * What express's `parseurl` makes of a request-target, so the API's path and query are those express matched
 * and parsed: a single pass for an origin-form target without whitespace or `#`, else node's legacy parser
 * (an absolute-form target, a fragment), as parseurl falls back to it.
 */
export function urlParts(url: string): UrlParts {
  if (url.charCodeAt(0) !== SLASH) return legacy(url);
  let pathname = url;
  let query: string | null = null;
  for (let i = 1; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === QUESTION) {
      if (query === null) {
        pathname = url.slice(0, i);
        query = url.slice(i + 1);
      }
    } else if (c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d || c === 0x20 || c === 0x23 || c === 0xa0 || c === 0xfeff) {
      return legacy(url);
    }
  }
  return { pathname, query };
}

const SLASH = 0x2f;
const QUESTION = 0x3f;

function legacy(url: string): UrlParts {
  // The parser express's parseurl uses (url.parse): kept for the rare targets it hands to it, so the path and
  // query are the same as before express left the API's path. A target it cannot parse (an absolute form with
  // a malformed host) has no path: the front door leaves it to express, which answers it as it always did.
  try {
    const parsed = legacyParse(url);
    return { pathname: parsed.pathname, query: parsed.query as string | null };
  } catch {
    return { pathname: null, query: null };
  }
}
