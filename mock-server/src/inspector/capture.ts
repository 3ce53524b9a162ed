import { performance } from 'node:perf_hooks';
import type { NextFunction, Request, Response } from 'express';

/**
 * The inspector's own record of recent exchanges, independent of the pino request log (which
 * may be silent or off): a ring buffer of the last `capacity` requests, owned by the inspector and emptied when
 * the server closes. Only mounted when the control API is on.
 *
 * Cheap on the API path: per request, one small object, shared `res.end` and 'close' functions, and at the end a slice of each body's text to
 * `bodyCap` characters; error answers (small) are parsed for their code and msg. Nothing is redacted or
 * pretty-printed here: bodies are stored as capped text and redacted when someone opens them (view.ts), so
 * memory is bounded by capacity × 2 × bodyCap characters whatever the traffic.
 */
export interface ExchangeSummary {
  id: number;
  /** Wall time of the request, ms (the log's time column; realm clocks are the injected clock's business). */
  at: number;
  method: string;
  path: string;
  realm: string | null;
  user: string | null;
  /** null: the client went away before the answer was sent. */
  status: number | null;
  ms: number;
  code: string | null;
  msg: string | null;
  /** A 400 the parameter checks gave (BAD_REQUEST, REQUEST_VARIABLE_*, …): the page highlights it. */
  validation: boolean;
  /** The parameter an error names (`var_name`), when it names one. */
  var_name: string | null;
  /** What a fault rule did to the exchange (`rate_limit`, `latency 500ms`, `reset`, …), or null. */
  injected: string | null;
}

export interface Exchange extends ExchangeSummary {
  query: string;
  requestType: string | null;
  requestBody: Body;
  responseType: string | null;
  responseBody: Body;
}

/** Text cut to the cap; `length` is the whole text's. */
export interface Body {
  text: string | null;
  length: number;
}

export class ExchangeLog {
  readonly #ring: (Exchange | undefined)[];
  #nextId = 1;
  readonly #listeners = new Set<(summary: ExchangeSummary) => void>();

  constructor(
    readonly capacity = 500,
    readonly bodyCap = 16 * 1024,
  ) {
    this.#ring = new Array<Exchange | undefined>(capacity);
  }

  add(exchange: Omit<Exchange, 'id'>): void {
    const id = this.#nextId++;
    const stored = exchange as Exchange;
    stored.id = id;
    this.#ring[id % this.capacity] = stored;
    if (this.#listeners.size === 0) return;
    const summary = summaryOf(stored);
    for (const listener of this.#listeners) listener(summary);
  }

  /** The exchanges still held, oldest first. */
  recent(): ExchangeSummary[] {
    const out: ExchangeSummary[] = [];
    for (let id = Math.max(1, this.#nextId - this.capacity); id < this.#nextId; id++) {
      const exchange = this.#ring[id % this.capacity];
      if (exchange?.id === id) out.push(summaryOf(exchange));
    }
    return out;
  }

  get(id: number): Exchange | undefined {
    const exchange = Number.isSafeInteger(id) && id > 0 ? this.#ring[id % this.capacity] : undefined;
    return exchange?.id === id ? exchange : undefined;
  }

  /** Called for every exchange added; returns the unsubscribe function (its owner calls it). */
  onExchange(listener: (summary: ExchangeSummary) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Frees everything (server shutdown). */
  clear(): void {
    this.#ring.fill(undefined);
    this.#listeners.clear();
  }
}

function summaryOf(e: Exchange): ExchangeSummary {
  const { query: _q, requestType: _qt, requestBody: _qb, responseType: _rt, responseBody: _rb, ...summary } = e;
  return summary;
}

/** The middleware that fills the log; `skip` leaves out the inspector's own traffic (its feed and assets). */
export function captureExchanges(log: ExchangeLog, skip: (path: string) => boolean) {
  return (req: Request, res: Response, next: NextFunction): void => {
    // Read at the start: the API layer rewrites req.url (a leading `//`) and req.method (a `method` field).
    const [path = '/', query = ''] = splitUrl(req.originalUrl);
    if (skip(path)) return next();
    // One object per request and shared functions that find it on the answer: no closures or bound `end` each.
    const capturing = res as Capturing;
    capturing[CAPTURE] = new Capture(log, req, path, query, req.method, capturing.end);
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

/**
 * The first `cap` characters as a string of their own: V8's `slice` of a long string keeps the whole string alive
 * (a sliced string points into its parent), so a cut 1 MB answer would hold its megabyte in the ring buffer.
 */
function capped(text: string, cap: number): string {
  return text.length <= cap ? text : Buffer.from(text.slice(0, cap), 'utf8').toString('utf8');
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
