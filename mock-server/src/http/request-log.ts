import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parse as parseQuery } from 'node:querystring';
import type { Logger } from 'pino';
import { isSecretName } from '../../../cli/secret-names.js';
import { urlParts } from './exchange.js';

/**
 * The request log of `teamchat serve` (docs/running-the-mock.md): one line per request, written when
 * its answer has gone out (or the client went away), through the pino logger the server was given.
 *
 * Fields of every line: realm, user (the caller's email; null when anonymous or refused), method, path
 * (no query string: GET parameters can carry an `api_key`), status, ms; an error answer adds `error`
 * (its `code` and `msg`), an exchange a fault rule changed adds `injected` (what it did). When the logger's level is debug, the line also has `req` (headers, query,
 * body) and `res` (body), with every credential replaced by `[redacted]`.
 */
export function requestLog(logger: Logger): (req: LoggedRequest, res: LoggedAnswer, next: () => void) => void {
  return (req, res, next) => {
    const started = performance.now();
    // Read at the start: the API layer rewrites req.url (a leading `//`) and req.method (a `method` field).
    const path = req.originalUrl.split('?', 1)[0]!;
    const debug = logger.isLevelEnabled('debug');
    let text: string | null = null;
    // The body is kept only when a line shows it: an error's code and msg, or every body at debug.
    const end = res.end.bind(res) as (...args: unknown[]) => LoggedAnswer;
    res.end = ((...args: unknown[]) => {
      if (typeof args[0] === 'string' && (debug || res.statusCode >= 400)) text = args[0];
      return end(...args);
    }) as LoggedAnswer['end'];
    res.once('close', () => {
      const status = res.statusCode;
      const answer = text === null ? undefined : parseJson(text);
      const error = status >= 400 && isRecord(answer) ? { code: answer.code ?? null, msg: answer.msg ?? null } : undefined;
      const line: Record<string, unknown> = {
        realm: (res.locals.realmId as string | undefined) ?? null,
        user: (res.locals.user as string | undefined) ?? null,
        method: req.method,
        path,
        status: res.writableFinished ? status : null,
        ms: Math.round((performance.now() - started) * 10) / 10,
      };
      if (error) line.error = error;
      // What a fault rule did to the exchange (faults/effects.ts), so an injected failure is never taken for a real one.
      if (res.locals.injected !== undefined) line.injected = res.locals.injected;
      if (debug) {
        line.req = {
          headers: redactedHeaders(req.headers),
          ...(redacted({ query: parseQuery(urlParts(req.originalUrl).query ?? ''), body: bodyOf(req) }) as object),
        };
        line.res = redacted({ body: answer ?? null });
      }
      // A 5xx of the mock's own is a bug; one a fault rule asked for is not.
      const level = status >= 500 && line.injected === undefined ? 'error' : 'info';
      logger[level](line, summary(line, error));
    });
    next();
  };
}

/**
 * What the log reads of a request: express's and the API front door's (http/exchange.ts) alike. `query` is parsed
 * from the URL as express's "simple" query parser did (node:querystring).
 */
interface LoggedRequest {
  originalUrl: string;
  method: string;
  headers: IncomingHttpHeaders;
  form?: Record<string, string> | undefined;
  body?: unknown;
}
type LoggedAnswer = ServerResponse & { locals: Record<string, unknown> };

/** The human line (pino's `msg`, what the pretty format shows): "demo iago@… GET /api/v1/users 200 3.2ms". */
function summary(line: Record<string, unknown>, error: { code: unknown; msg: unknown } | undefined): string {
  const who = `${line.realm ?? '-'} ${line.user ?? '-'}`;
  const status = line.status ?? (line.injected === undefined ? 'closed by the client' : 'no answer');
  let tail = error ? ` ${String(error.code)}: ${String(error.msg)}` : '';
  if (line.injected !== undefined) tail += ` (injected: ${String(line.injected)})`;
  return `${who} ${String(line.method)} ${String(line.path)} ${String(status)} ${String(line.ms)}ms${tail}`;
}

/**
 * Values are credentials by their name (cli/secret-names.ts, the list the suite's reports use too), at any depth
 * and in any case or spelling: HTTP Basic and cookies in headers, `api_key`/`password`/`key` in forms, queries
 * and answers (fetch_api_key, the control API's credentials), the control token of `GET /?token=…`. By name
 * rather than pino's `redact` paths: those are fixed paths, and a credential nested one level deeper in a
 * future answer would leak.
 */
export const REDACTED = '[redacted]';

/** What stands for a value nested deeper than a log line or the inspector shows. */
export const TOO_DEEP = '[nested too deep]';
/**
 * How deep `redacted` copies. A body of 20,000 nested arrays (the control API reads JSON of any depth) overflowed
 * the stack of this recursion, inside a close listener or a timer nothing catches: the process ended.
 */
export const MAX_SHOWN_DEPTH = 64;

/**
 * A copy of a JSON-like value with every credential replaced (the original is left as it is), cut below
 * `depth` levels.
 */
export function redacted(value: unknown, depth = MAX_SHOWN_DEPTH): unknown {
  if (!isRecord(value)) return value;
  if (depth <= 0) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => redacted(item, depth - 1));
  const copy: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) copy[name] = isSecretName(name) ? REDACTED : redacted(inner, depth - 1);
  return copy;
}

/**
 * The headers with credentials replaced, and secret query values inside a `Referer` replaced too: a page
 * opened as `/?token=…` names that URL in the next request it makes.
 */
function redactedHeaders(headers: IncomingHttpHeaders): unknown {
  const copy = redacted(headers) as Record<string, unknown>;
  if (typeof copy.referer === 'string') copy.referer = redactedUrl(copy.referer);
  return copy;
}

/** A URL (or path) with the values of secret-named query parameters replaced. */
export function redactedUrl(url: string): string {
  return url.replace(/([?&])([^=&#]*)=([^&#]*)/g, (whole, sep: string, name: string) =>
    isSecretName(safeDecode(name)) ? `${sep}${name}=${REDACTED}` : whole,
  );
}

/** Percent-decoded (`+` as a space), or as it is when it does not decode. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * The request's body as read: its form fields, else what express.json read (the control API). The form parser
 * leaves an empty form on every request, which hid a JSON body.
 */
function bodyOf(req: LoggedRequest): unknown {
  const form = req.form as Record<string, unknown> | undefined;
  if (form !== undefined && Object.keys(form).length > 0) return form;
  return req.body ?? form ?? null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
