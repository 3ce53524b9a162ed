import { performance } from 'node:perf_hooks';
import type { NextFunction, Request, Response } from 'express';
import type { ExchangeLog } from './exchange-log.js';

/**
 * The inspector's own record of recent exchanges, independent of the pino request log (which may be silent or
 * off): every exchange but the inspector's own traffic goes to the inspector's ExchangeLog (exchange-log.ts) once
 * its answer has ended. Only mounted when the control API is on.
 *
 * Cheap on the API path: per request, one small object, shared `res.end` and 'close' functions, and at the end
 * each body's text cut to `bodyCap` characters; error answers (small) are parsed for their code and msg. Nothing
 * is redacted or pretty-printed here: bodies are stored as cut and redacted when someone opens them (view.ts).
 */

/** The middleware that fills the log; `skip` leaves out the inspector's own traffic (its feed and assets). */
export function captureExchanges(log: ExchangeLog, skip: (path: string) => boolean) {
  return (req: Request, res: Response, next: NextFunction): void => {
    // Read at the start: the API layer rewrites req.url (a leading `//`) and req.method (a `method` field).
    const [path = '/', query = ''] = splitUrl(req.originalUrl);
    if (skip(path)) return next();
    // One object per request and shared functions that find it on the answer: no closures or bound `end` each.
    const capturing = res as Capturing;
    capturing[CAPTURE] = new Capture(log, req, capped(path, log.bodyCap), query, req.method, capturing.end);
    capturing.end = capturingEnd as Response['end'];
    res.on('close', captured);
    next();
  };
}

const CAPTURE = Symbol('inspector capture');
type Capturing = Response & { [CAPTURE]?: Capture };

/** What one exchange's capture holds until its answer ends. */
class Capture {
  readonly started = performance.now();
  answer: string | null = null;
  answerLength = 0;

  constructor(
    readonly log: ExchangeLog,
    readonly req: Request,
    readonly path: string,
    readonly query: string,
    readonly method: string,
    /** The answer's own `end`, called after the text is kept. */
    readonly end: Response['end'],
  ) {}
}

/** `res.end` while captured: keeps the answer's text (capped), then ends as the answer's own `end`. */
function capturingEnd(this: Capturing, ...args: unknown[]): Response {
  const capture = this[CAPTURE]!;
  const chunk = args[0];
  if (typeof chunk === 'string' || Buffer.isBuffer(chunk)) {
    const cap = capture.log.bodyCap;
    capture.answerLength = chunk.length;
    capture.answer = (typeof chunk === 'string' ? capped(chunk, cap) : chunk.subarray(0, cap).toString('utf8')) || null;
  }
  return capture.end.apply(this, args as Parameters<Response['end']>);
}

/** The 'close' listener: the exchange goes to the log. */
function captured(this: Capturing): void {
  const capture = this[CAPTURE];
  if (!capture) return;
  const { log, req, answer, answerLength, started } = capture;
  const status = this.writableFinished ? this.statusCode : null;
  const error = status !== null && status >= 400 && answer !== null && answerLength <= log.bodyCap ? errorOf(answer) : null;
  const requestText = requestTextOf(req);
  log.add({
    // performance.timeOrigin + now() is the wall time; ESLint's Date.now rule guards realm time, not this.
    at: Math.round(performance.timeOrigin + started),
    method: capture.method,
    path: capture.path,
    realm: (this.locals.realmId as string | undefined) ?? controlRealm(capture.path),
    user: (this.locals.user as string | undefined) ?? null,
    status,
    ms: Math.round((performance.now() - started) * 10) / 10,
    code: error?.code ?? null,
    msg: error?.msg ?? null,
    validation: status === 400 && VALIDATION.test(error?.code ?? ''),
    var_name: error?.var_name ?? null,
    injected: (this.locals.injected as string | undefined) ?? null,
    query: capped(capture.query, log.bodyCap),
    requestType: headerText(req.headers['content-type']),
    requestBody: { text: requestText === null ? null : capped(requestText, log.bodyCap), length: requestText?.length ?? 0 },
    responseType: headerText(this.getHeader('content-type')),
    responseBody: { text: answer, length: answerLength },
  });
}

/** Error codes of the parameter checks (http/params.ts, domain/errors.ts): a request the client got wrong. */
const VALIDATION = /^(BAD_REQUEST|REQUEST_VARIABLE_MISSING|REQUEST_VARIABLE_INVALID|REQUEST_CONFUSING_VAR|INVALID_JSON)$/;

function errorOf(text: string): { code: string | null; msg: string | null; var_name: string | null } | null {
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' ? v : null);
    return body && typeof body === 'object' ? { code: str(body.code), msg: str(body.msg), var_name: str(body.var_name) } : null;
  } catch {
    return null;
  }
}

/**
 * The request's parameters (form, multipart fields or a control call's JSON) as JSON text. A body of more than
 * MAX_SERIALISED bytes (a realm export given to POST /__mock/realms) is not serialised just to be cut.
 */
function requestTextOf(req: Request): string | null {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_SERIALISED) return `(a body of ${declared} bytes, not kept)`;
  const form = (req.form ?? (typeof req.body === 'object' ? req.body : null)) as unknown;
  if (!form || typeof form !== 'object' || Object.keys(form).length === 0) return null;
  try {
    return JSON.stringify(form);
  } catch {
    // A JSON body nested deeper than the stack allows (the control API refuses it, but it was parsed): this
    // runs in a 'close' listener, where a throw would be uncaught.
    return '(a body nested too deeply, not kept)';
  }
}
const MAX_SERIALISED = 1024 * 1024;

/** The first `cap` characters (the log encodes them at once, so a slice holds its parent only until then). */
function capped(text: string, cap: number): string {
  return text.length <= cap ? text : text.slice(0, cap);
}

function splitUrl(url: string): [string, string] {
  const at = url.indexOf('?');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at + 1)];
}

/** The realm a control call is about (`/__mock/realms/<id>/…`); the API's own calls set res.locals. */
function controlRealm(path: string): string | null {
  return /^\/__mock\/realms\/([^/]+)/.exec(path)?.[1] ?? null;
}

function headerText(value: string | number | string[] | undefined): string | null {
  return value === undefined ? null : String(value).split(';', 1)[0]!.trim();
}
