import { parse as parseQuery } from 'node:querystring';
import type { Request, Response } from 'express';
import type { AppContext } from '../app-context.js';
import { features, type Features } from '../config/features.js';
import type { Hangup } from '../contract/hangup.js';
import { notImplemented } from '../domain/errors.js';
import type { RealmRow, RealmState } from '../store/state.js';
import { applyFaults } from '../faults/effects.js';
import { answerKey, answerTime, type CachePolicy } from './answer-cache.js';
import { authenticate, notLoggedIn, refusedCaller, type Actor } from './auth.js';
import type { RequestContext, RouteSpec } from './define-routes.js';
import type { ApiRequest, ApiResponse } from './exchange.js';
import { pruneForLevel } from './level-fields.js';
import { limitRate } from './limit-rate.js';
import type { OperationSpec } from './openapi.js';
import { checkPathShape, readParams, type RawValues } from './params.js';
import { httpDate, sendJson, sendJsonText } from './respond.js';

/** What the route table calls for a request of the operation, with the path's decoded values. */
export type OperationHandler = (req: ApiRequest, res: ApiResponse, path: RawValues, next: (error: unknown) => void) => void;

/**
 * The whole life of an API request, in order (Prism's readable pipeline, Fastify's lifecycle):
 *   0 path shape        an integer path segment that is not one names no resource: 404
 *   1 authenticate      HTTP Basic → Actor, or anonymous where the operation allows it (§5)
 *     rate limit        only where a rule is set (http/limit-rate.ts): headers, or a 429 that ends the request
 *   2 gate              checks the reference server runs before parsing (bots on status, …)
 *   3 read parameters   body then query, in x-parse-order, decoded and validated (§1)
 *   4 handle            the route's one call into the domain, or, for a read that keeps its answers, the text
 *                       it sent for the same request at the realm's version (http/answer-cache.ts)
 *   5 wait              until every change the answer may show is durable (never unsaved data)
 *   6 envelope          result/msg, the operation's fields as of the realm's level, ignored_parameters_unsupported (§1, ≥167)
 * Errors at any step go to the error handler, which is the only place that formats them.
 * Steps 0 and 1 run before the body is read (router.ts checkBeforeBody) wherever no body can change their
 * answer, so a refused request's body is never read; they run here only where they did not run then.
 */
export function pipeline(app: AppContext, op: OperationSpec, route: RouteSpec | undefined): OperationHandler {
  return (req, res, path, next) => {
    run(app, op, route, req, res, path).catch(next);
  };
}

async function run(
  app: AppContext,
  op: OperationSpec,
  route: RouteSpec | undefined,
  req: ApiRequest,
  res: ApiResponse,
  path: RawValues,
): Promise<void> {
  const known = checkedBeforeBody.get(req);
  const actor = known?.op === op ? known.actor : checkCaller(app, op, req, path);
  const realmId = actor?.realmId ?? anonymousRealm(app, req);
  const tables = app.store.realm(realmId);
  if (!tables) throw notLoggedIn();
  // For the request log (http/request-log.ts): who asked, once known.
  res.locals.realmId = realmId;
  res.locals.user = actor?.user.email;
  const nowMs = app.clock.realmNowMs(realmId);
  // The realm's time, on every answer of the realm: the route's, an injected one, a rate-limit refusal.
  res.setHeader('Date', httpDate(nowMs));
  app.requests.record(op, actor, realmId, req, res, path);
  // Fault rules read of the exchange only node's members and the fields the front door sets (faults/effects.ts).
  if (app.faults.active && (await applyFaults(app, op, actor, realmId, req as unknown as Request, res as unknown as Response))) return;
  if (app.rateLimits.active && limitRate(app, op, actor, realmId, res)) return;
  // One object from gate to handler (no copy per step); `params` is filled in once they are read.
  const ctx = new Context(app, actor, realmId, tables, Math.floor(nowMs / 1000), String(req.headers['user-agent'] ?? ''), res);
  // The error handler answers an error's text in the form of the realm's level (domain/errors.ts errorAtLevel).
  res.locals.features = ctx.features;
  route?.gate?.(ctx);
  const { params, ignored } = readParams(op, { path, body: req.form ?? EMPTY, query: queryValues(req) }, ctx.features.has);
  // Validation comes from the document, so even an operation whose behaviour is still to come
  // refuses malformed input exactly as it will once implemented.
  if (!route) throw notImplemented(op.operationId);
  // readParams decoded and validated the parameters against the document the handler's types come from.
  ctx.params = params as RequestContext['params'];
  ctx.files = req.files ?? [];
  // A read that keeps its answers (http/answer-cache.ts): only the handler and the serialization are skipped
  // on a hit; everything above ran, and the read barrier below still holds.
  const kept = route.cache && keptAnswer(app, op, route.cache, ctx, ignored);
  if (kept?.answer) {
    await app.store.durableThrough(app.store.writeMark);
    sendJsonText(res, 200, kept.answer.text, undefined, kept.answer.byteLength);
    return;
  }
  // The answer shows the state as of the handler's call (a write's, its own transaction, applied during
  // the call): it waits until the writes up to then are durable, not for writes that came after.
  const pending = route.handle(ctx);
  const shown = app.store.writeMark;
  const data = await pending;
  await app.store.durableThrough(shown);
  // A realm emulating an older level answers without the fields that came later (http/level-fields.ts).
  let body: Record<string, unknown> = { result: 'success', msg: '', ...data };
  if (!ctx.features.current) body = pruneForLevel(body, op.levelFields, ctx.features);
  if (ignored.length > 0 && ctx.features.has('ignored_parameters_unsupported')) body.ignored_parameters_unsupported = ignored;
  const text = sendJson(res, 200, body);
  if (kept) app.answers.set(realmId, kept.version, kept.key, text, kept.time);
}

/**
 * The key of the request's answer and its realm's version, taken before the handler runs (so a write that
 * comes during the answer makes it an older version's, never kept as the newer one's), with the answer kept
 * for them if there is one.
 */
function keptAnswer(app: AppContext, op: OperationSpec, policy: CachePolicy, ctx: Context, ignored: readonly string[]) {
  const version = app.store.versionOf(ctx.realmId);
  const key = answerKey(op.operationId, policy, ctx, ignored);
  const time = answerTime(policy, ctx);
  return { version, key, time, answer: app.answers.get(ctx.realmId, version, key, time) };
}

const EMPTY: RawValues = Object.freeze(Object.create(null) as RawValues);

/** Steps 0 and 1: the path's shape, then the caller (null: anonymous, where the operation allows it). */
export function checkCaller(app: AppContext, op: OperationSpec, req: ApiRequest, path: RawValues): Actor | null {
  checkPathShape(op, path);
  let actor: Actor | null;
  try {
    actor = authenticate(req.headers.authorization, app.store, app.keys);
  } catch (error) {
    // A deactivated account's or organization's key still names its realm: the realm's journal shows the attempt.
    const refused = refusedCaller(req.headers.authorization, error, app.store, app.keys);
    if (refused && req.res) app.requests.record(op, refused, refused.realmId, req, req.res, path);
    throw error;
  }
  if (!actor && !op.anonymous) throw notLoggedIn();
  return actor;
}

/**
 * Requests whose steps 0 and 1 ran before the body was read (router.ts checkBeforeBody), with the operation they
 * ran for: the pipeline takes their caller instead of authenticating again, unless a `method` field turned the
 * request into another operation.
 */
export const checkedBeforeBody: WeakMap<ApiRequest, { op: OperationSpec; actor: Actor }> = new WeakMap();

/** The gate's and the handler's context (define-routes.ts), one per request. */
class Context implements RequestContext {
  readonly realm: RealmRow;
  readonly features: Features;
  params = EMPTY as RequestContext['params'];
  files: RequestContext['files'] = [];
  #signal: ClientHangup | null = null;

  constructor(
    readonly app: AppContext,
    readonly actor: Actor | null,
    readonly realmId: string,
    readonly tables: RealmState,
    readonly now: number,
    readonly client: string,
    private readonly res: ApiResponse,
  ) {
    this.realm = tables.realm.realm;
    this.features = features(this.realm.feature_level);
  }

  /**
   * Made on first use (only long-polls wait on it), instead of a hang-up and a 'close' listener for every
   * request.
   */
  get signal(): ClientHangup {
    if (this.#signal) return this.#signal;
    const hangup = (this.#signal = new ClientHangup());
    const res = this.res as ApiResponse & { [HANGUP]?: ClientHangup };
    // The client may already be gone by now: then there is no 'close' left to wait for.
    if (res.destroyed && !res.writableFinished) hangup.aborted = true;
    else {
      res[HANGUP] = hangup;
      res.on('close', hungUp);
    }
    return hangup;
  }
}

/**
 * A request's hang-up (contract/hangup.ts) with its one listener (the waiting poll's): lighter than an
 * AbortController, whose signal is an EventTarget, for what thousands of waiting polls each hold.
 */
class ClientHangup implements Hangup {
  aborted = false;
  #listener: (() => void) | null = null;

  addEventListener(_type: 'abort', listener: () => void): void {
    this.#listener = listener;
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    if (this.#listener === listener) this.#listener = null;
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listener = this.#listener;
    this.#listener = null;
    listener?.();
  }
}

const HANGUP = Symbol('hang-up');

/** The shared 'close' listener of answers a poll waits on: the client went away unless the answer is out. */
function hungUp(this: ApiResponse & { [HANGUP]?: ClientHangup }): void {
  if (!this.writableFinished) this[HANGUP]?.abort();
}

/**
 * Anonymous requests pick the realm by the Host header's first label when a realm has that ID
 * (`demo.localhost:9991`), else the server's default realm (docs/store.md: API keys select the realm).
 */
function anonymousRealm(app: AppContext, req: ApiRequest): string {
  const label = String(req.headers.host ?? '').split('.')[0] ?? '';
  if (label && label !== req.headers.host && app.store.realm(label)) return label;
  return app.config.defaultRealm;
}

function queryValues(req: ApiRequest): RawValues {
  // No query string: nothing to parse.
  if (req.queryText === null) return EMPTY;
  // Parsed as express's "simple" query parser did (node:querystring), into a null-prototype object.
  const query = parseQuery(req.queryText);
  const out: RawValues = Object.create(null);
  for (const key in query) {
    const value = query[key];
    // A repeated key: the last value wins, as for form bodies.
    out[key] = Array.isArray(value) ? String(value[value.length - 1]) : String(value);
  }
  return out;
}
