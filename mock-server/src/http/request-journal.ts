import type { IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import { isSecretName } from '../../../cli/secret-names.js';
import type { Clock } from '../clock/clock.js';
import type { Store } from '../store/store.js';
import type { Actor } from './auth.js';
import type { OperationSpec, ParamSpec } from './openapi.js';
import { JournalRing, type JournaledRequest, type RequestSummary } from './journal-ring.js';
import { redacted, redactedUrl } from './request-log.js';

export type { JournaledRequest, RequestSummary };

/**
 * The request journal (docs/control-api.md "Request journal"): per realm, the last JOURNAL_CAPACITY API requests
 * the pipeline took up, for a test to assert what its app sent (`mock.requests`, `mock.expectRequest`,
 * `GET /__mock/realms/{id}/requests`).
 *
 * Always on, so it must cost next to nothing: per request one row of its realm's ring (journal-ring.ts: numbers in
 * columns, what the client sent as one JSON text outside the heap) and one 'close' listener (status, time and
 * injected fault once the answer is out). It decodes and redacts only when someone reads.
 *
 * Not journaled: requests refused before their realm is known (no path shape, bad or unknown credentials), since no
 * realm owns them. A deactivated account's or organization's requests are: the key names the realm and the user.
 *
 * Credentials are never shown: secret-named headers are left out, secret-named parameters are `[redacted]`
 * (http/request-log.ts, cli/secret-names.ts).
 */
export const JOURNAL_CAPACITY = 1000;

/** A body above this size is not kept: the entry says so instead of listing its parameters. */
export const JOURNAL_BODY_BYTES = 64 * 1024;

/**
 * The bodies and heads (URL, headers) a realm's journal keeps, together, at most (a realm's clients could
 * otherwise make it hold 1,000 × 128 KiB); beyond it an entry keeps a note and a cut path, until older entries
 * leave the ring.
 */
export const JOURNAL_BODY_BUDGET = 8 * 1024 * 1024;

/**
 * What the journal reads of a request and its answer (express's Request and Response have it), named here so that
 * the published declarations (`MockServer.context`) need no @types/express.
 */
interface SentRequest {
  method: string;
  originalUrl: string;
  headers: IncomingHttpHeaders;
  form?: Record<string, string> | undefined;
}
interface Answer {
  statusCode: number;
  writableFinished: boolean;
  locals: Record<string, unknown>;
  on(event: 'close', listener: (this: never) => void): unknown;
}

export interface JournalEntry extends RequestSummary {
  /** The URL's path as sent, without its query string. */
  path: string;
  /** Path, query and body parameters as sent (body over query), JSON-typed ones decoded; credentials `[redacted]`. */
  params: Record<string, unknown>;
  /** The request's headers but credentials (Authorization, Cookie, any secret name), names lower-case. */
  headers: Record<string, string | string[]>;
  /** Why body parameters are missing (a body over JOURNAL_BODY_BYTES, the realm's JOURNAL_BODY_BUDGET spent, a body refused unread). */
  note: string | null;
}

/** Where the answer's request is kept: its realm, which of that realm's rings, its place in it. */
const REALM = Symbol('journal realm');
const SERIAL = Symbol('journal ring');
const PLACE = Symbol('journal place');
interface Journaled {
  [REALM]?: string;
  [SERIAL]?: number;
  [PLACE]?: number;
}

export class RequestJournal {
  readonly #rings = new Map<string, JournalRing>();
  #nextId = 1;
  /** Numbers the rings, so an answer ending after its realm's reset does not touch the new history. */
  #nextSerial = 1;
  /**
   * The 'close' listener: the answer is out, or the client went away; its status, time and injected fault. One per
   * journal, not a closure per request. It finds the ring through the realm, not a reference held by the answer, so a
   * long-poll still waiting when its realm is reset does not keep the old history alive.
   */
  readonly #finished: (this: Answer & Journaled) => void;

  constructor(
    store: Store,
    private readonly clock: Clock,
    readonly capacity = JOURNAL_CAPACITY,
  ) {
    // A realm created, reset, restored or deleted starts a new history: the old one is freed with it.
    store.watch((change) => {
      if (change.table === null) this.#rings.delete(change.realm);
    });
    const rings = this.#rings;
    this.#finished = function finished(this: Answer & Journaled): void {
      const realm = this[REALM];
      if (realm === undefined) return;
      this[REALM] = undefined;
      const ring = rings.get(realm);
      if (!ring || ring.serial !== this[SERIAL]) return;
      const injected = (this.locals.injected as string | undefined) ?? null;
      ring.finish(this[PLACE]!, this.writableFinished ? this.statusCode : null, performance.now(), injected);
    };
  }

  /** The pipeline's call, once the caller and realm are known (http/pipeline.ts). */
  record(
    op: OperationSpec,
    actor: Actor | null,
    realmId: string,
    req: SentRequest,
    res: Answer,
    pathValues: Readonly<Record<string, string>>,
  ): void {
    let ring = this.#rings.get(realmId);
    if (!ring) this.#rings.set(realmId, (ring = new JournalRing(this.capacity, this.#nextSerial++)));
    const bodyBytes = bodySize(req);
    // A head may be 64 KiB (http/server.ts: long queries): heads count against the budget as bodies do.
    const headBytes = headSize(req);
    const headKept = ring.bytes + headBytes <= JOURNAL_BODY_BUDGET;
    const note = !headKept ? HEAD_NOTE : bodyBytes === 0 ? null : noteOn(bodyBytes, req.form, ring.bytes + headBytes);
    const place = ring.add({
      id: this.#nextId++,
      at: this.clock.realmNowMs(realmId) / 1000,
      op,
      method: req.method,
      userId: actor?.user.user_id ?? null,
      user: actor?.user.email ?? null,
      url: headKept ? req.originalUrl : req.originalUrl.split('?', 1)[0]!.slice(0, CUT_PATH),
      pathValues: headKept ? pathValues : cutValues(pathValues),
      headers: headKept ? req.headers : {},
      form: note === null ? (req.form ?? null) : null,
      keptBytes: headKept ? headBytes + (note === null ? bodyBytes : 0) : 0,
      note,
      started: performance.now(),
    });
    // One shared listener (no closure per request) that finds its entry on the answer; `on`, not `once` (which
    // wraps the listener): 'close' is emitted once per answer anyway.
    const journaled = res as Answer & Journaled;
    journaled[REALM] = realmId;
    journaled[SERIAL] = ring.serial;
    journaled[PLACE] = place;
    res.on('close', this.#finished);
  }

  /** The realm's journaled requests, oldest first (summaries: `present` makes the full entry). */
  list(realmId: string): JournaledRequest[] {
    return this.#rings.get(realmId)?.list() ?? [];
  }

  /** Bytes the realm's ring holds outside the heap for what its requests sent (text-log.ts). */
  storedBytes(realmId: string): number {
    return this.#rings.get(realmId)?.storedBytes ?? 0;
  }

  clear(realmId: string): void {
    this.#rings.delete(realmId);
  }

  /** The entry as shown: parameters decoded, credentials left out or redacted. */
  present(r: JournaledRequest): JournalEntry {
    const sent = r.sent();
    const [path = '', query = ''] = splitOnce(sent.url, '?');
    return {
      id: r.id,
      at: r.at,
      operation: r.operation,
      method: r.method,
      path,
      user_id: r.user_id,
      user: r.user,
      params: redacted(paramsOf(r.op, sent.pathValues, query, sent.form)) as Record<string, unknown>,
      headers: shownHeaders(sent.headers),
      status: r.status,
      ms: r.ms,
      injected: r.injected,
      note: r.note,
    };
  }
}

/** Why a body of `bytes` is not kept, or null when it is (made only for the rare body that is not). */
function noteOn(bytes: number, form: Record<string, string> | undefined, realmBytes: number): string | null {
  if (bytes > JOURNAL_BODY_BYTES) return `a body of ${bytes} bytes: its parameters were not kept (limit: ${JOURNAL_BODY_BYTES})`;
  // A request refused before its body was read (a deactivated account: http/router.ts checkBeforeBody).
  if (form === undefined) return 'the body was not read: the request was refused before it';
  if (realmBytes + bytes > JOURNAL_BODY_BUDGET) return `not kept: the realm's journal holds ${JOURNAL_BODY_BUDGET} bytes of bodies already`;
  return null;
}

/**
 * What a request whose head is not kept keeps of its path, and of each value read off it: such an entry takes at
 * most ~1 KiB and 1.5 KiB a path value (escaped as JSON), whatever was sent.
 */
const CUT_PATH = 1024;
const CUT_PATH_VALUE = 256;

function cutValues(values: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in values) out[name] = values[name]!.slice(0, CUT_PATH_VALUE);
  return out;
}

const HEAD_NOTE = `query, headers and body not kept: the realm's journal holds ${JOURNAL_BODY_BUDGET} bytes already`;

/** The head's size as kept: the URL and the headers' names and values (a few, so the loop is cheap). */
function headSize(req: SentRequest): number {
  let size = req.originalUrl.length;
  for (const name in req.headers) size += name.length + String(req.headers[name]).length;
  return size;
}

/**
 * The body's size: its declared length, or for a body of no stated length (chunked) or compressed, what the form
 * holds (rare, so the loop is paid only then).
 */
function bodySize(req: SentRequest): number {
  const declared = req.headers['content-length'];
  if (declared !== undefined && req.headers['content-encoding'] === undefined) return Number(declared) || 0;
  let size = 0;
  for (const key in req.form) size += key.length + req.form[key]!.length + 2;
  return size;
}

/** What the client sent by name: path values, then the query, then the body (which wins, as http/params.ts reads). */
function paramsOf(
  op: OperationSpec,
  pathValues: Readonly<Record<string, string>>,
  query: string,
  form: Record<string, string> | null,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name in pathValues) out[name] = decoded(specOf(op, name), pathValues[name]!);
  if (query) for (const [key, value] of new URLSearchParams(query)) out[key] = decoded(specOf(op, key), value);
  if (form) for (const key in form) out[key] = decoded(specOf(op, key), form[key]!);
  return out;
}

function specOf(op: OperationSpec, name: string): ParamSpec | undefined {
  return op.params.find((p) => p.name === name || p.aliases.includes(name));
}

/** JSON-typed parameters (lists, integers, booleans, …) as their values; text, and what does not parse, as sent. */
function decoded(spec: ParamSpec | undefined, text: string): unknown {
  if (!spec?.json) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function shownHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || isSecretName(name)) continue;
    out[name] = name === 'referer' && typeof value === 'string' ? redactedUrl(value) : value;
  }
  return out;
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}
