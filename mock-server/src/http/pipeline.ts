import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../app-context.js';
import { features } from '../config/features.js';
import { notImplemented } from '../domain/errors.js';
import { authenticate, notLoggedIn } from './auth.js';
import type { GateContext, RequestContext, RouteSpec } from './define-routes.js';
import type { OperationSpec } from './openapi.js';
import { checkPathShape, readParams, type RawValues } from './params.js';
import { sendJson } from './respond.js';

/**
 * The whole life of an API request, in order (Prism's readable pipeline, Fastify's lifecycle):
 *   0 path shape        an integer path segment that is not one names no resource: 404
 *   1 authenticate      HTTP Basic → Actor, or anonymous where the operation allows it (§5)
 *   2 gate              checks the reference server runs before parsing (bots on status, …)
 *   3 read parameters   body then query, in x-parse-order, decoded and validated (§1)
 *   4 handle            the route's one call into the domain
 *   5 wait              until every change so far is durable (an answer never shows unsaved data)
 *   6 envelope          result/msg, the operation's fields, ignored_parameters_unsupported (§1, ≥167)
 * Errors at any step go to the error handler, which is the only place that formats them.
 */
export function pipeline(app: AppContext, op: OperationSpec, route: RouteSpec | undefined): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    run(app, op, route, req, res).catch(next);
  };
}

async function run(app: AppContext, op: OperationSpec, route: RouteSpec | undefined, req: Request, res: Response): Promise<void> {
  const path = pathValues(req);
  checkPathShape(op, path);
  const actor = authenticate(req.headers.authorization, app.store, app.keys);
  if (!actor && !op.anonymous) throw notLoggedIn();
  const realmId = actor?.realmId ?? anonymousRealm(app, req);
  const tables = app.store.realm(realmId);
  if (!tables) throw notLoggedIn();
  const realm = tables.realm.realm;
  res.setHeader('Date', new Date(app.clock.realmNowMs(realmId)).toUTCString());
  const gateContext: GateContext = {
    app,
    actor,
    realmId,
    tables,
    realm,
    features: features(realm.feature_level),
    now: app.clock.now(realmId),
    client: String(req.headers['user-agent'] ?? ''),
    signal: clientGone(res),
  };
  route?.gate?.(gateContext);
  const { params, ignored } = readParams(op, { path, body: req.form ?? {}, query: queryValues(req) }, gateContext.features.has);
  // Validation comes from the document, so even an operation whose behaviour is still to come
  // refuses malformed input exactly as it will once implemented.
  if (!route) throw notImplemented(op.operationId);
  // readParams decoded and validated the parameters against the document the handler's types come from.
  const data = await route.handle({ ...gateContext, params: params as RequestContext['params'] });
  await app.store.durable();
  const body: Record<string, unknown> = { result: 'success', msg: '', ...data };
  if (ignored.length > 0 && gateContext.features.has('ignored_parameters_unsupported')) body.ignored_parameters_unsupported = ignored;
  sendJson(res, 200, body);
}

function clientGone(res: Response): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * Anonymous requests pick the realm by the Host header's first label when a realm has that ID
 * (`demo.localhost:9991`), else the server's default realm (ARCHITECTURE "Realms").
 */
function anonymousRealm(app: AppContext, req: Request): string {
  const label = String(req.headers.host ?? '').split('.')[0] ?? '';
  if (label && label !== req.headers.host && app.store.realm(label)) return label;
  return app.config.defaultRealm;
}

function pathValues(req: Request): RawValues {
  const out: RawValues = Object.create(null);
  for (const [key, value] of Object.entries(req.params ?? {})) {
    // A wildcard parameter (navigation-view fragments with slashes) arrives as its segments.
    out[key] = Array.isArray(value) ? value.join('/') : String(value);
  }
  return out;
}

function queryValues(req: Request): RawValues {
  const out: RawValues = Object.create(null);
  for (const [key, value] of Object.entries(req.query as Record<string, unknown>)) {
    // A repeated key: the last value wins, as for form bodies.
    out[key] = Array.isArray(value) ? String(value[value.length - 1]) : String(value);
  }
  return out;
}
