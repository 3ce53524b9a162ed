import type { AddressInfo } from 'node:net';
import type { RequestListener, Server } from 'node:http';
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { AppContext } from './app-context.js';
import { Clock } from './clock/clock.js';
import { cacheDirOf, cacheFor } from './config/cache.js';
import { controlExposure, DEFAULT_CONFIG, rateLimitProblem, type ServerConfig } from './config/config.js';
import { Control } from './control/control.js';
import { ensureDefaultRealm } from './control/default-realm.js';
import { Scheduler } from './delivery/scheduler.js';
import { controlRouter } from './control/control.routes.js';
import { pathNotFound } from './domain/errors.js';
import { holdRealmPatterns, releaseRealmPatterns, trackLinkifierPatterns } from './domain/markdown/linkifier-patterns.js';
import { dispatch, endQueuesOfDeactivated } from './events/dispatcher.js';
import { RateLimits } from './faults/rate-limit.js';
import { QueueRegistry } from './events/registry.js';
import { FaultRules } from './faults/rules.js';
import { AnswerCache } from './http/answer-cache.js';
import { ApiKeyIndex } from './http/auth.js';
import { corsLayer, type Cors } from './http/cors.js';
import { urlParts } from './http/exchange.js';
import { frontDoor, type Observer } from './http/front-door.js';
import { loadOperations } from './http/openapi.js';
import { ownerOnly } from './http/owner-guard.js';
import { errorHandler, sendJson } from './http/respond.js';
import { requestLog } from './http/request-log.js';
import { RequestJournal } from './http/request-journal.js';
import { servedContractRouter } from './http/served-contract.js';
import { continueIfExpected, listen, startGate } from './http/server.js';
import type { WebRequest, WebResponse } from './http/web-answers.js';
import { routes } from './routes/index.js';
import { serveUploadedFile } from './routes/uploaded-files.js';
import { memoryPersistence } from './store/persistence.js';
import { lockStateFile, openStateFile } from './store/state-file.js';
import { Store } from './store/store.js';
import { MockFaults } from './mock-faults.js';
import { createInspector, INSPECTOR_PREFIX, type Inspector } from './inspector/inspector.js';
import { mockRequests, type MockRequests } from './mock-requests.js';

/**
 * The composition root (ARCHITECTURE §3): config → store, clock, indexes → express app.
 * `createMockServer` is also the programmatic API for test runners.
 */
export interface MockServer {
  url: string;
  /** The server's request listener: the API's front door (http/front-door.ts), express's router behind it. */
  app: RequestListener;
  context: AppContext;
  control: Control;
  /** Fault rules on the default realm or a named one (README "Testing your client's failure handling"). */
  faults: MockFaults;
  /** What the default realm (or a named one) received: the request journal (mock-requests.ts). */
  requests: MockRequests['requests'];
  /** Asserts a request was received (or exactly `times`); throws a field-by-field difference otherwise. */
  expectRequest: MockRequests['expectRequest'];
  close(): Promise<void>;
}

/** What a caller may do while the server starts (`teamchat serve` writes its zuliprc files). */
export interface StartHooks {
  /**
   * Runs once the port is bound and the state is loaded, before the first request is answered: what it
   * writes exists for any client that found the port answering. A throw stops the start.
   */
  beforeServing?(server: MockServer): Promise<void>;
}

/**
 * Starts in this order, so that a start that fails changes nothing another server uses: the state file's
 * lock (a second server on the same file stops here, before reading or writing it), then the port (a
 * port in use stops here, before the state file or anything beside it is written), then the state (load,
 * default realm), then `beforeServing`. Requests that reach the bound port meanwhile wait and are
 * answered once all of it is done.
 */
export async function createMockServer(options: Partial<ServerConfig> = {}, hooks: StartHooks = {}): Promise<MockServer> {
  const config: ServerConfig = { ...DEFAULT_CONFIG, ...options };
  // Resolved once, so the environment read at start decides for the server's whole life.
  config.cacheDir = cacheDirOf(config);
  const exposure = controlExposure(config);
  if (exposure) throw new Error(exposure);
  const rateLimit = config.rateLimit && rateLimitProblem(config.rateLimit);
  if (rateLimit) throw new Error(rateLimit);
  // Made before anything is opened: a malformed origin is refused with nothing to undo.
  const guards = { cors: corsLayer(config.corsOrigins), owner: ownerOnly({ host: config.host, allowHosts: config.allowHosts }) };
  const lock = config.statePath === null ? null : await lockStateFile(config.statePath);
  const gate = startGate();
  let server: Server;
  try {
    server = await listen(gate.listener, config);
  } catch (error) {
    await lock?.release();
    throw error;
  }
  // What is made so far; `close` undoes it in order, also for a start that failed halfway.
  const made: { store?: Store; context?: AppContext; inspector?: Inspector | null } = {};
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      const { store, context, inspector } = made;
      try {
        if (context) {
          context.queues.closeAll();
          context.faults.close();
          context.scheduler.stop();
          await context.scheduler.settled();
          context.clock.stop();
          context.answers.clear();
        }
        inspector?.close();
        server.closeAllConnections();
        await new Promise<void>((done) => server.close(() => done()));
        if (store) {
          await store.close();
          for (const realmId of store.realmIds()) releaseRealmPatterns(store.realm(realmId)!);
        }
      } finally {
        // Even when closing failed: a lock left behind would refuse the next start on this file.
        await lock?.release();
      }
    })());
  try {
    const mock = await assemble(config, server, made, close, guards);
    await hooks.beforeServing?.(mock);
    gate.open(mock.app);
    return mock;
  } catch (error) {
    await close();
    throw error;
  }
}

/** The services and the app on a bound server, each recorded in `made` as soon as it exists. */
async function assemble(
  config: ServerConfig,
  server: Server,
  made: { store?: Store; context?: AppContext; inspector?: Inspector | null },
  close: () => Promise<void>,
  guards: RestGuards,
): Promise<MockServer> {
  const persistence = config.statePath === null ? memoryPersistence() : openStateFile(config);
  const store = (made.store = await Store.open(persistence));
  const clock = new Clock(config.clock, config.clockStart);
  clock.resolveOffsetsWith((realmId) => store.realm(realmId)?.realm.realm.clock_offset ?? 0);
  // Compiled linkifier patterns are freed when the last linkifier or realm holding them goes.
  for (const realmId of store.realmIds()) holdRealmPatterns(store.realm(realmId)!);
  store.watch(trackLinkifierPatterns);
  const address = server.address() as AddressInfo;
  const context: AppContext = (made.context = {
    config,
    store,
    clock,
    keys: new ApiKeyIndex(store),
    queues: new QueueRegistry(clock, config.maxQueuesPerUser),
    scheduler: new Scheduler(store, clock),
    operations: await loadOperations(config.openapiPath, cacheFor(config)),
    faults: new FaultRules(store),
    requests: new RequestJournal(store, clock),
    rateLimits: new RateLimits(clock, config.rateLimit),
    answers: new AnswerCache(),
    baseUrl: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
  });
  // Events reach queues only after their transaction is durable (the store calls this then).
  store.onCommit((realmId, events, seq) => {
    dispatch(context.queues, store.realm(realmId), realmId, events, seq);
    endQueuesOfDeactivated(context.queues, realmId, events);
  });
  // A realm created, replaced (reset, restored) or deleted starts without rate-limit history or a rule of its own.
  store.watch((change) => {
    if (change.table !== null) return;
    context.rateLimits.forgetRealm(change.realm);
    context.answers.forgetRealm(change.realm);
  });
  const control = new Control(context);
  // Realms restored from the state file catch up on what fell due while the server was down, before
  // anything else runs; from then on the scheduler follows every change.
  context.scheduler.start();
  await context.scheduler.settled();
  await ensureDefaultRealm(control, context);

  const inspector = (made.inspector = config.control
    ? createInspector(control, {
        token: config.controlToken,
        reportDir: config.reportDir,
        ownerOnly: guards.owner,
        operations: context.operations,
      })
    : null);
  const requestLogger = context.config.requestLog ? requestLog(context.config.requestLog) : null;
  const observers: Observer[] = [];
  // The capture reads of a request only node's members and the fields the front door sets (originalUrl, locals, form).
  if (inspector) observers.push(inspector.capture as unknown as Observer);
  if (requestLogger) observers.push(requestLogger);
  const app = frontDoor({
    context,
    routes,
    observers,
    cors: guards.cors,
    rest: restRouter(context, control, inspector, requestLogger, guards),
  });
  const journal = mockRequests(control, config.defaultRealm);
  return {
    url: context.baseUrl,
    app,
    context,
    control,
    faults: new MockFaults(control, config.defaultRealm),
    requests: journal.requests,
    expectRequest: journal.expectRequest,
    close,
  };
}

interface RestGuards {
  owner: RequestHandler;
  cors: Cors | null;
}

/**
 * Everything outside /api/v1 (the front door hands the API's requests to the route table itself), served by
 * express's router on node's own request and answer objects, without express's application: its `app.handle`
 * swapped the prototype of every request and answer it took (to add express's methods), and with that swap each
 * control API request's objects survived the young generation's collections. Measured, one control call every
 * 2 ms: scavenges of 11–15 ms, ~3 MB promoted each, against 0.3 ms and nothing with the router alone
 * (docs/benchmarks.md). What the pages, files and control calls used of express's methods is in http/web-answers.ts.
 * `inspector`: the live page at GET / (README "Inspector"), present when the control API is on. `owner`: the
 * Host and Origin rules of the control API and the inspector; `cors`: the allowed origins' check (null: none).
 */
function restRouter(
  context: AppContext,
  control: Control,
  inspector: Inspector | null,
  log: RequestHandler | null,
  { owner, cors }: RestGuards,
): RequestListener {
  const app = express.Router();
  if (inspector) app.use(inspector.capture);
  if (log) app.use(log);
  if (cors) app.use((req, res, next) => void (cors(req, res) || next()));
  app.use((req, res, next) => {
    // A request-target starting with `//` is collapsed as on the API's path (http/front-door.ts).
    if (req.url.startsWith('//')) {
      req.url = req.url.replace(/^\/+/, '/');
      (req as unknown as WebRequest).path = pathOf(req.url);
    }
    continueIfExpected(req, res);
    next();
  });
  // Uploaded files (area live): outside /api/v1, as on the reference server, with the API's Basic auth.
  app.get(/^\/user_uploads\//, serveUploadedFile(context));
  // The control API and the inspector obey only the developer: Host and Origin first (http/owner-guard.ts), GET included.
  if (context.config.control) app.use(['/__mock', INSPECTOR_PREFIX], owner);
  if (context.config.control) app.use('/__mock', controlRouter(control, context.config.controlToken, inspector?.session.pageCall));
  if (inspector) app.use(inspector.router);
  // The contract and its reference page: public, so open whatever the control API's exposure (README "The contract, served").
  app.use(servedContractRouter({ openapiPath: context.config.openapiPath, fallbackOrigin: () => context.baseUrl }));
  app.get('/', (_req, res) =>
    sendJson(res, 200, {
      result: 'success',
      msg: '',
      name: 'teamchat-kit mock server',
      api: '/api/v1',
      control: context.config.control ? '/__mock' : null,
      openapi: '/openapi.json',
      docs: '/docs',
    }),
  );
  app.use((_req, _res, next) => next(pathNotFound()));
  app.use(errorHandler);
  return (request, response) => {
    // What express's app.handle set and the handlers read: the URL as it came (before the `//` collapse), the
    // path of the whole URL, the answer's locals.
    const req = request as WebRequest;
    req.originalUrl = req.url;
    req.path = pathOf(req.url);
    (response as WebResponse).locals = Object.create(null) as Record<string, unknown>;
    // What no handler answered: an error the error handler itself threw. This runs outside any handler (the router
    // calls it on a later turn), so nothing here may throw: answered as a bug if it still can be, else cut off.
    app(req as unknown as Request, response as unknown as Response, (error?: unknown) => {
      try {
        if (!response.headersSent) return errorHandler(error ?? pathNotFound(), req, response, noop);
      } catch {
        // falls through to cutting the answer off
      }
      if (!response.writableEnded) response.destroy();
    });
  };
}

/** The path of a URL, as express's `req.path` read it. */
const pathOf = (url: string): string => urlParts(url).pathname ?? '/';

const noop = () => undefined;
