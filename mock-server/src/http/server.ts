import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { endWithJson } from '../../../cli/socket-answer.js';
import type { ServerConfig } from '../config/config.js';
import { headersTooLarge, malformedHttpRequest, missingHostHeader, requestTimedOut } from '../domain/errors.js';

/**
 * The node HTTP server under the API's front door (http/front-door.ts) and the express app: its limits and
 * deadlines, and the JSON answers to what Node refuses before either runs (a missing Host, headers too large, a
 * malformed or late request).
 */

/** Long query strings (JSON lists in GET parameters) need more than Node's 16 KiB default. */
export const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Connections waiting to be accepted: Node's default (511) overflows when thousands of clients connect at
 * once (a fleet of long-polls), and each overflowing client waits for its SYN retry (1 s, 3 s, …). The
 * kernel caps it at net.core.somaxconn.
 */
export const LISTEN_BACKLOG = 4096;

/**
 * How long an idle keep-alive connection stays open between requests: above the long-poll heartbeat
 * (events/registry.ts, 60 s), so a client that polls again right after an answer keeps its connection.
 */
export const KEEP_ALIVE_MS = 65_000;

/**
 * Binds `config.port` on `config.host`; resolves once listening, rejects on a bind error (a port in use).
 * Open connections are not capped here (server.maxConnections stays unlimited): each waiting long-poll holds
 * one, and the bound is the process's open files (`ulimit -n`), then memory (docs/benchmarks.md).
 */
export function listen(app: RequestListener, config: Pick<ServerConfig, 'port' | 'host' | 'bodyTimeoutMs'>): Promise<Server> {
  return new Promise((done, fail) => {
    const timeout = config.bodyTimeoutMs;
    // requestTimeout bounds how long a request takes to *arrive* (headers and body), not its answer, so a
    // long-poll (GET /events) outlives it; the check runs every quarter of the deadline (Node's default: 30 s).
    const server = createServer(
      {
        maxHeaderSize: MAX_HEADER_BYTES,
        // Node's own refusal of a Host-less HTTP/1.1 request is a bare 400; the app answers it as JSON.
        requireHostHeader: false,
        requestTimeout: timeout,
        headersTimeout: timeout > 0 ? Math.min(timeout, 60_000) : 60_000,
        connectionsCheckingInterval: timeout > 0 ? Math.max(25, Math.min(30_000, Math.floor(timeout / 4))) : 30_000,
      },
      withHost(app),
    );
    server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => answerClientError(error, socket, timeout));
    // Every request reaches the listener, which says "continue" once it will read the body (continueIfExpected).
    server.on('checkContinue', withHost(app));
    server.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
    server.once('listening', () => done(server));
    server.once('error', fail);
    server.keepAliveTimeout = KEEP_ALIVE_MS;
  });
}

/**
 * `Expect: 100-continue` (curl's large bodies): the server no longer says "continue" before the request is
 * looked at (listen: 'checkContinue'), so a refused upload's body is never sent; a request that will be read says it here.
 */
export function continueIfExpected(req: IncomingMessage, res: ServerResponse): void {
  if (req.headers.expect?.toLowerCase() === '100-continue' && !res.headersSent) res.writeContinue();
}

/**
 * The bound server's request listener while the server starts: requests wait (each is held by its own
 * connection, so their number is the open connections') and are handed to the app once it is ready.
 */
export function startGate(): { listener: RequestListener; open(app: RequestListener): void } {
  let ready: RequestListener | null = null;
  const waiting: Parameters<RequestListener>[] = [];
  return {
    listener: (req, res) => (ready ? ready(req, res) : void waiting.push([req, res])),
    open(app) {
      ready = app;
      for (const [req, res] of waiting.splice(0)) app(req, res);
    },
  };
}

/** An HTTP/1.1 request without Host gets the JSON envelope (Node's own refusal is a bare 400), before any layer. */
const withHost =
  (app: RequestListener): RequestListener =>
  (req, res) => {
    if (req.headers.host !== undefined || req.httpVersion !== '1.1') return void app(req, res);
    const body = JSON.stringify(missingHostHeader().body());
    res.writeHead(400, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
    res.end(body);
  };

/**
 * Requests Node's HTTP server refuses (headers too large, malformed request lines, a request that did not
 * arrive within `bodyTimeoutMs`) still get the JSON envelope: stock clients parse JSON whatever the status.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex, timeoutMs: number): void {
  const answer =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? headersTooLarge(MAX_HEADER_BYTES)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? requestTimedOut(timeoutMs)
        : malformedHttpRequest();
  endWithJson(socket, answer.status, answer.body());
}
