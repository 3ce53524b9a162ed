import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { badRequest, controlTokenRequired, jsonTooDeep, missingArgument, pathNotFound } from '../domain/errors.js';
import { mayNestDeeperThan, MAX_JSON_DEPTH, nestedDeeperThan } from '../contract/json-depth.js';
import { ownerMutation } from '../http/owner-guard.js';
import { sendJson } from '../http/respond.js';
import { queryOf } from '../http/web-answers.js';
import type { FaultRuleInput } from '../faults/rules.js';
import type { Control } from './control.js';
import { rateLimitFromWire } from './rate-limit.js';

/**
 * The control API under /__mock/ (off with --no-control). Bodies are JSON only, and a call that changes
 * something without a body carries `X-Teamchat-Control` (http/owner-guard.ts: what a web page of another site
 * cannot send); parameters may also be given in the query. Answers use the same envelope as the API so one
 * client helper reads both. docs/control-api.md lists it; app.ts puts the Host and Origin rules in front.
 */
export function controlRouter(control: Control, token?: string, alsoAllowed?: (req: Request) => boolean): Router {
  const router = express.Router();
  if (token) router.use(requireToken(token, alsoAllowed));
  router.use(ownerMutation, express.json({ limit: '16mb' }), refuseDeepJson);

  const route = (method: 'get' | 'post' | 'put' | 'delete', path: string, fn: (req: Request) => unknown) =>
    router[method](path, (req: Request, res: Response, next) => {
      Promise.resolve()
        .then(() => fn(req))
        .then((data) =>
          sendJson(res, method === 'post' && path === '/realms' ? 201 : 200, { result: 'success', msg: '', ...(data as object) }),
        )
        .catch(next);
    });

  route('get', '/', () => control.status());
  route('get', '/realms', () => ({ realms: control.listRealms() }));
  route('post', '/realms', (req) =>
    control.createRealm({
      realm_id: str(req, 'realm_id'),
      fixture: str(req, 'fixture'),
      seed: int(req, 'seed'),
      feature_level: int(req, 'feature_level'),
      epoch: int(req, 'epoch'),
      messages: int(req, 'messages'),
      users: int(req, 'users'),
      channels: int(req, 'channels'),
    }),
  );
  route('get', '/realms/:realm', (req) => control.describe(realm(req)));
  route('delete', '/realms/:realm', async (req) => ({ deleted: await control.deleteRealm(realm(req)).then(() => realm(req)) }));
  route('post', '/realms/:realm/reset', (req) => control.resetRealm(realm(req), { feature_level: int(req, 'feature_level') }));
  route('get', '/realms/:realm/credentials', (req) => ({ credentials: control.credentials(realm(req)) }));
  route('get', '/realms/:realm/world', (req) => ({ world: control.world(realm(req)) }));
  route('get', '/realms/:realm/export', (req) => control.exportRealm(realm(req)));
  route('put', '/realms/:realm/feature-level', (req) =>
    control.setFeatureLevel(realm(req), required(int(req, 'feature_level'), 'feature_level')),
  );
  route('get', '/realms/:realm/clock', (req) => control.clock(realm(req)));
  route('put', '/realms/:realm/clock', (req) => control.setRealmTime(realm(req), required(int(req, 'now'), 'now')));
  route('post', '/realms/:realm/clock/advance', (req) => control.advanceRealm(realm(req), required(num(req, 'seconds'), 'seconds')));
  route('get', '/realms/:realm/rate-limit', (req) => control.rateLimit(realm(req)));
  route('put', '/realms/:realm/rate-limit', (req) =>
    control.setRateLimit(realm(req), rateLimitFromWire(raw(req, 'off'), int(req, 'requests'), int(req, 'seconds'))),
  );
  route('get', '/realms/:realm/queues', (req) => ({ queues: control.queues(realm(req)) }));
  route('get', '/realms/:realm/snapshots', (req) => ({ snapshots: control.listSnapshots(realm(req)) }));
  route('post', '/realms/:realm/snapshots', (req) => control.saveSnapshot(realm(req), required(str(req, 'name'), 'name')));
  route('post', '/realms/:realm/snapshots/:name/restore', (req) => control.restoreSnapshot(realm(req), String(req.params.name)));
  route('delete', '/realms/:realm/snapshots/:name', (req) => {
    control.deleteSnapshot(realm(req), String(req.params.name));
    return {};
  });
  route('get', '/realms/:realm/requests', (req) => control.requests(realm(req), queryOf(req)));
  route('delete', '/realms/:realm/requests', (req) => {
    control.clearRequests(realm(req));
    return {};
  });
  route('post', '/realms/:realm/events', (req) => control.injectEvent(realm(req), json(req, 'event'), json(req, 'user_ids')));
  route('get', '/realms/:realm/faults', (req) => ({ faults: control.faults(realm(req)) }));
  route('post', '/realms/:realm/faults', (req) => control.addFault(realm(req), req.body as FaultRuleInput));
  route('delete', '/realms/:realm/faults', (req) => control.clearFaults(realm(req)));
  route('delete', '/realms/:realm/faults/:rule', (req) => {
    control.removeFault(realm(req), String(req.params.rule));
    return {};
  });
  // Server-side events on demand (control/server-events.ts).
  route('post', '/realms/:realm/restart', (req) => control.restartQueues(realm(req), { user_id: int(req, 'user_id') }));
  route('post', '/realms/:realm/users/:user_id/deactivate', (req) => control.deactivateUser(realm(req), pathUserId(req)));
  route('post', '/realms/:realm/users/:user_id/reactivate', (req) => control.reactivateUser(realm(req), pathUserId(req)));
  route('post', '/realms/:realm/users/:user_id/api-key', (req) => control.rotateApiKey(realm(req), pathUserId(req)));
  route('post', '/realms/:realm/deactivate', (req) => control.deactivateRealm(realm(req)));
  route('post', '/realms/:realm/reactivate', (req) => control.reactivateRealm(realm(req)));
  route('post', '/realms/:realm/silence', (req) =>
    control.silence(realm(req), { seconds: required(num(req, 'seconds'), 'seconds'), user_id: int(req, 'user_id') }),
  );
  route('get', '/clock', () => control.clock());
  route('post', '/clock/advance', (req) => control.advanceServer(required(num(req, 'seconds'), 'seconds')));
  router.use((_req, _res, next) => next(pathNotFound()));
  return router;
}

/**
 * `Authorization: Bearer <token>` on every control call when the server has a control token (config
 * `controlToken`), checked before anything is read; compared in constant time. `alsoAllowed` admits the
 * inspector page's calls (its session cookie, inspector/session.ts): a browser page cannot hold the token.
 */
function requireToken(token: string, alsoAllowed?: (req: Request) => boolean): express.RequestHandler {
  const expected = createHash('sha256').update(token).digest();
  return (req, _res, next) => {
    if (alsoAllowed?.(req)) return next();
    const [scheme, given] = (req.headers.authorization ?? '').trim().split(/\s+/);
    const digest = createHash('sha256')
      .update(given ?? '')
      .digest();
    next(scheme?.toLowerCase() === 'bearer' && timingSafeEqual(digest, expected) ? undefined : controlTokenRequired());
  };
}

const realm = (req: Request) => String(req.params.realm);

function pathUserId(req: Request): number {
  const segment = String(req.params.user_id);
  if (!/^[0-9]{1,15}$/.test(segment)) throw badRequest('user_id is not an integer');
  return Number(segment);
}

function raw(req: Request, name: string): unknown {
  const json = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>)[name] : undefined;
  return json ?? queryOf(req)[name];
}

/** A structured value: as is from a JSON body, JSON-decoded from a query parameter. */
function json(req: Request, name: string): unknown {
  const value = raw(req, name);
  if (typeof value !== 'string' || (req.body && typeof req.body === 'object' && name in req.body)) return value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw badRequest(`${name} is not valid JSON`);
  }
  if (mayNestDeeperThan(value) && nestedDeeperThan(parsed)) throw jsonTooDeep(name, MAX_JSON_DEPTH);
  return parsed;
}

/**
 * A JSON body nested deeper than any control call needs is refused before it is used: an injected event of
 * 20,000 nested arrays reached queues, whose every answer (and the inspector's push) then overflowed the stack.
 */
const refuseDeepJson: express.RequestHandler = (req, _res, next) => {
  const body: unknown = req.body;
  next(body !== null && typeof body === 'object' && nestedDeeperThan(body) ? jsonTooDeep('The request body', MAX_JSON_DEPTH) : undefined);
};

function str(req: Request, name: string): string | undefined {
  const value = raw(req, name);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(`${name} is not a string`);
  return value;
}

function num(req: Request, name: string): number | undefined {
  const value = raw(req, name);
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) throw badRequest(`${name} is not a number`);
  return n;
}

function int(req: Request, name: string): number | undefined {
  const n = num(req, name);
  if (n !== undefined && !Number.isInteger(n)) throw badRequest(`${name} is not an integer`);
  return n;
}

function required<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw missingArgument(name);
  return value;
}
