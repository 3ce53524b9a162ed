import { resolve } from 'node:path';
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import { packagePath } from '../../../cli/package-root.js';
import type { Control } from '../control/control.js';
import { exchangeNotFound, inspectorTokenRequired, pathNotFound, tooManyInspectors } from '../domain/errors.js';
import { sendJson } from '../http/respond.js';
import { preferred, queryOf, redirect, sendFile, sendText } from '../http/web-answers.js';
import { captureExchanges } from './capture.js';
import { ExchangeLog } from './exchange-log.js';
import { LiveFeed } from './feed.js';
import { loginPage } from './login-page.js';
import { InspectorSession } from './session.js';
import { inspectorState, REPORT_FILES } from './state.js';
import { viewOf } from './view.js';

/**
 * The live inspector (docs/inspector.md): GET / for a browser, the control API's web face.
 * Built only when the control API is on; `app.ts` mounts `capture` first (so it sees every request) and `router`
 * beside the control API, and `close()` frees the log, the feed's streams and its timers.
 *
 * Routes (all outside /api/v1):
 * - GET /                    the page, for a request whose Accept prefers HTML; JSON clients get the stub (app.ts)
 * - GET /__inspector/*.js|css the page's script and style (static, no data; served to anyone)
 * - GET /__inspector/feed    server-sent events (feed.ts)
 * - GET /__inspector/exchanges/:id   one exchange with its bodies, redacted (view.ts)
 * - GET /__inspector/report/:file    the latest conformance report's files (state.ts REPORT_FILES)
 * - GET /__inspector/operations      the document's operations, for the fault rule form's choices
 * With a control token, everything but the static files needs the session (session.ts). Whatever the token, every
 * route answers only the developer's Host and the page's own Origin (http/owner-guard.ts), as the control API does.
 */
export interface Inspector {
  capture: express.RequestHandler;
  router: Router;
  session: InspectorSession;
  log: ExchangeLog;
  feed: LiveFeed;
  close(): void;
}

export interface InspectorOptions {
  token?: string;
  reportDir?: string;
  /** Exchanges kept (ring buffer) and characters kept of each body. */
  capacity?: number;
  bodyCap?: number;
  /** Live pages at once. */
  maxClients?: number;
  /**
   * The Host and Origin rules of the control API (http/owner-guard.ts), for the page at GET /; app.ts mounts
   * them in front of /__inspector/ and /__mock/.
   */
  ownerOnly?: RequestHandler;
  /** The API's operations (the loaded OpenAPI document): the page offers them when a fault rule is made. */
  operations?: readonly { operationId: string; method: string; path: string }[];
}

const pass: RequestHandler = (_req, _res, next) => next();

export const INSPECTOR_PREFIX = '/__inspector';
const ASSETS = packagePath('mock-server/src/inspector/assets');
/** The page's files: its style and its script's modules (assets/). */
const STATIC = new Map([
  ['inspector.js', 'application/javascript'],
  ['common.js', 'application/javascript'],
  ['log.js', 'application/javascript'],
  ['realms.js', 'application/javascript'],
  ['faults.js', 'application/javascript'],
  ['events.js', 'application/javascript'],
  ['inspector.css', 'text/css'],
]);

/**
 * Only this server's files, no inline script or style (the page has none), connections to this server only (the
 * feed and the control API): "no CDN" holds in the browser, and injected markup cannot run.
 */
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/** A report page runs its own inline script, sandboxed (an opaque origin: it cannot use the session). */
const REPORT_POLICY = "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

export function createInspector(control: Control, options: InspectorOptions = {}): Inspector {
  const session = new InspectorSession(options.token);
  const log = new ExchangeLog(options.capacity, options.bodyCap);
  const reportDir = resolve(options.reportDir ?? 'reports/conformance');
  const feed = new LiveFeed({ log, state: () => inspectorState(control, reportDir), maxClients: options.maxClients ?? 16 });
  const guarded = (req: Request, _res: Response, next: NextFunction) => next(session.admits(req) ? undefined : inspectorTokenRequired());

  const router = express.Router();
  // curl, scripts and the tests send `*/*` or nothing: they keep the JSON stub (JSON first on a tie).
  const wantsPage: RequestHandler = (req, _res, next) =>
    next(preferred(req, ['application/json', 'text/html']) === 'text/html' ? undefined : 'route');
  router.get('/', wantsPage, options.ownerOnly ?? pass, (req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    const token = queryOf(req).token;
    if (session.guarded && typeof token === 'string') {
      if (!session.tokenMatches(token)) return sendLogin(res, 'wrong-token');
      session.issue(res);
      // 303 to the bare page: the token leaves the address bar and the history.
      return redirect(req, res, 303, '/');
    }
    if (!session.admits(req)) return sendLogin(res, null);
    res.setHeader('Content-Security-Policy', PAGE_POLICY);
    sendFile(req, res, 'index.html', { root: ASSETS }, fileError(next));
  });
  router.get(`${INSPECTOR_PREFIX}/:file`, (req, res, next) => {
    const type = STATIC.get(String(req.params.file));
    if (!type) return next();
    sendFile(req, res, String(req.params.file), { root: ASSETS, headers: { 'Content-Type': type } }, fileError(next));
  });
  router.get(`${INSPECTOR_PREFIX}/feed`, guarded, (req, res, next) => {
    if (feed.full) return next(tooManyInspectors(feed.clients));
    feed.attach(req, res);
  });
  router.get(`${INSPECTOR_PREFIX}/exchanges/:id`, guarded, (req, res, next) => {
    const exchange = log.get(Number(req.params.id));
    if (!exchange) return next(exchangeNotFound(String(req.params.id)));
    sendJson(res, 200, { result: 'success', msg: '', exchange: viewOf(exchange) });
  });
  // Built once: the document does not change while the server runs.
  const operations = (options.operations ?? []).map(({ operationId, method, path }) => ({ operation: operationId, method, path }));
  router.get(`${INSPECTOR_PREFIX}/operations`, guarded, (_req, res) => {
    sendJson(res, 200, { result: 'success', msg: '', operations });
  });
  router.get(`${INSPECTOR_PREFIX}/report/:file`, guarded, (req, res, next) => {
    const file = String(req.params.file);
    if (!REPORT_FILES.includes(file)) return next();
    res.setHeader('Content-Security-Policy', REPORT_POLICY);
    sendFile(req, res, file, { root: reportDir, dotfiles: 'deny' }, fileError(next));
  });

  return {
    // The inspector's own traffic (its feed, files and detail calls) is not logged: the page would log itself.
    capture: captureExchanges(log, (path) => path.startsWith(`${INSPECTOR_PREFIX}/`)),
    router,
    session,
    log,
    feed,
    close() {
      feed.close();
      log.clear();
    },
  };
}

function sendLogin(res: Response, problem: 'wrong-token' | null): void {
  res.setHeader('Content-Security-Policy', PAGE_POLICY);
  sendText(res, 401, 'text/html', loginPage(problem));
}

/** A file that is not there (a report not written yet) is the JSON 404; any other failure is a bug. */
const fileError = (next: NextFunction) => (error?: Error & { status?: number }) => {
  if (error) next(error.status === 404 ? pathNotFound() : error);
};
