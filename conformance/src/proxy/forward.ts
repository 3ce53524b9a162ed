import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Transform, type Duplex, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Agent, request } from 'undici';
import { endWithJson } from '../../../cli/socket-answer.js';
import { redactPath } from '../redact.js';
import { isLocalHost, isLoopbackAddress, reachesControl } from './exposure.js';

/**
 * The forwarding half of `teamchat proxy`: every request goes to the target as it came (method, path and
 * query, headers except hop-by-hop ones, body bytes, multipart included) and the answer comes back as the
 * target sent it. Both bodies stream through; a copy of each, up to a cap, is kept for the judge. Nothing
 * here times out an exchange: `GET /events` long-polls may wait for minutes (the heartbeat of §6.3), and
 * the exchange ends when the target or the client ends it.
 */

/** Body bytes kept for checking, per direction. A bigger body is forwarded whole but not judged. */
export const BODY_CAP = 1024 * 1024;

/**
 * The request headers the proxy reads, and the answer headers it takes from the target: the mock's limit
 * (mock-server's MAX_HEADER_BYTES), so the proxy refuses nothing the server behind it would take. Node's
 * default, 16 KiB, answered a bare 431 to requests the mock accepts.
 */
export const MAX_HEADER_BYTES = 64 * 1024;

/** One finished exchange, as forwarded (credentials still in it: the recorder redacts). */
export interface Captured {
  method: string;
  /** Path and query as the client sent them. */
  path: string;
  requestHeaders: Record<string, string | string[] | undefined>;
  /** The request body, or null when it passed BODY_CAP. */
  requestBody: Buffer | null;
  status: number;
  responseHeaders: Record<string, string | string[] | undefined>;
  /** The answer body as sent (maybe compressed), or null when it passed BODY_CAP. */
  responseBody: Buffer | null;
  ms: number;
  /** Set when the target could not be reached: the proxy answered 502 itself. */
  unreachable?: string;
}

export interface ForwardOptions {
  target: string;
  host?: string;
  port?: number;
  onExchange(exchange: Captured): void;
  /**
   * Whether the proxy is reachable beyond loopback, so the target's control API is not forwarded (exposure.ts).
   * Decided from the address it listens on; tests set it to check the refusal without listening on a network.
   */
  beyondLoopback?: boolean;
  /** Told of an error no exchange could be answered for (the proxy keeps running). */
  onInternalError?(error: unknown): void;
}

/** RFC 9110 §7.6.1: meant for one connection, never forwarded (plus Host, which names the target now). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  // Node's server has answered `100 Continue` already; undici refuses the header.
  'expect',
]);

export class ForwardingProxy {
  readonly #server: Server;
  readonly #agent = new Agent({ headersTimeout: 0, bodyTimeout: 0, maxHeaderSize: MAX_HEADER_BYTES });
  readonly #base: string;
  #closed: Promise<void> | null = null;
  /** Set by close(): exchanges cut by stopping are neither answered 502 nor judged. */
  #closing = false;
  /** Listening beyond loopback: the target's control API and inspector are not forwarded (exposure.ts). */
  #exposed = false;

  private constructor(
    private readonly options: ForwardOptions,
    server: Server,
  ) {
    this.#server = server;
    // The target's origin and path prefix; the client's request-target is appended as sent (even `//api/v1/…`).
    const url = new URL(options.target);
    this.#base = url.origin + url.pathname.replace(/\/+$/, '');
  }

  static async start(options: ForwardOptions): Promise<ForwardingProxy> {
    // A Host-less request is the target's to judge (Node's own refusal would be a bare 400).
    const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, requireHostHeader: false });
    const proxy = new ForwardingProxy(options, server);
    server.on('request', (req, res) => {
      proxy.#forward(req, res).catch((e: unknown) => proxy.#failed(res, e));
    });
    server.on('clientError', answerClientError);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        // Once listening, a server error (a refused accept: EMFILE when out of descriptors) is told, not fatal.
        server.on('error', (e) => options.onInternalError?.(e));
        resolve();
      });
    });
    proxy.#exposed = options.beyondLoopback ?? !isLoopbackAddress((server.address() as AddressInfo).address);
    return proxy;
  }

  /** Whether the control API and the inspector are refused (listening beyond loopback). */
  get beyondLoopback(): boolean {
    return this.#exposed;
  }

  get url(): string {
    const { address, port } = this.#server.address() as AddressInfo;
    return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  }

  /** Stops listening, ends open exchanges (long-polls included) and the connections to the target. */
  close(): Promise<void> {
    this.#closing = true;
    this.#closed ??= (async () => {
      const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
      this.#server.closeAllConnections();
      await closed;
      await this.#agent.destroy();
    })();
    return this.#closed;
  }

  /**
   * The last line for an exchange: an error nothing below expected is told to the caller and the client gets
   * the proxy's 502 envelope (or a cut connection once the answer has begun), instead of an unhandled
   * rejection ending the process with the run's reports unwritten.
   */
  #failed(res: ServerResponse, error: unknown): void {
    this.options.onInternalError?.(error);
    if (!res.headersSent && !res.destroyed)
      answerError(res, 502, 'PROXY_ERROR', `teamchat proxy: this exchange failed inside the proxy (${describe(error)})`);
    else res.destroy();
  }

  async #forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A client that goes away mid-body or mid-answer: the error is the exchange's end, not the process's.
    req.on('error', () => res.destroy());
    res.on('error', () => res.destroy());
    // Only an origin-form target (`/path?query`) can be appended to the target's URL. An absolute-form one
    // (a client set up with HTTP_PROXY) or `*` (OPTIONS *) was answered 502 "the target did not answer" and
    // counted against the target (exit 1) though it never left the proxy: the client is told instead.
    if (!(req.url ?? '/').startsWith('/')) {
      req.resume();
      answerError(
        res,
        400,
        'BAD_REQUEST',
        `teamchat proxy: the request target must be a path (/api/v1/…), not ${JSON.stringify(redactPath(req.url ?? ''))}; point the client's server URL at the proxy rather than using it as an HTTP proxy`,
      );
      return;
    }
    if (reachesControl(this.#base, req.url ?? '/') && (this.#exposed || !isLocalHost(req.headers.host, this.options.host))) {
      req.resume();
      answerError(
        res,
        403,
        'PROXY_CONTROL_REFUSED',
        this.#exposed
          ? 'teamchat proxy: listening beyond loopback, it does not forward the control API (/__mock/) or the inspector (/, /__inspector/); use the server itself from its own machine'
          : 'teamchat proxy: the control API (/__mock/) and the inspector are forwarded only for a Host that is an IP address, localhost or --host (a page on another name could read every API key by DNS rebinding)',
      );
      return;
    }
    const started = performance.now();
    const abort = new AbortController();
    // A client that goes away (a long-poll cancelled) ends the exchange with the target too.
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    const requestCopy = new Capture();
    // undici may end the body stream with the request's error (the client went away): that ends the exchange.
    requestCopy.on('error', () => abort.abort());
    const hasBody =
      req.headers['content-length'] !== undefined ? req.headers['content-length'] !== '0' : req.headers['transfer-encoding'] !== undefined;
    const captured = (status: number, responseHeaders: Captured['responseHeaders'], responseBody: Buffer | null): Captured => ({
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      requestHeaders: req.headers,
      requestBody: hasBody ? requestCopy.kept() : Buffer.alloc(0),
      status,
      responseHeaders,
      responseBody,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
    let upstream: Awaited<ReturnType<typeof request>>;
    try {
      upstream = await request(this.#base + (req.url ?? '/'), {
        method: (req.method ?? 'GET') as 'GET',
        headers: forwardable(req.headers),
        body: hasBody ? req.pipe(requestCopy) : null,
        dispatcher: this.#agent,
        signal: abort.signal,
      });
    } catch (e) {
      if (abort.signal.aborted || this.#closing || res.destroyed) return;
      const reason = describe(e);
      if (!res.headersSent)
        answerError(res, 502, 'PROXY_TARGET_UNREACHABLE', `teamchat proxy: the target ${this.#base} did not answer (${reason})`);
      this.options.onExchange({ ...captured(502, {}, null), unreachable: reason });
      return;
    }
    const responseCopy = new Capture();
    try {
      // Inside the try: a header Node refuses to write (or a client gone meanwhile) must also free the target's body.
      res.writeHead(upstream.statusCode, forwardable(upstream.headers) as Record<string, string | string[]>);
      await pipeline(upstream.body, responseCopy, res);
    } catch (e) {
      // The client or the target went away mid-answer: the exchange is incomplete, so not judged.
      upstream.body.destroy();
      if (res.headersSent || res.destroyed) res.destroy();
      else answerError(res, 502, 'PROXY_ERROR', `teamchat proxy: the target's answer could not be passed on (${describe(e)})`);
      return;
    }
    this.options.onExchange(captured(upstream.statusCode, upstream.headers, responseCopy.kept()));
  }
}

/**
 * Requests Node's HTTP parser refuses before the proxy sees them (headers past MAX_HEADER_BYTES, a malformed
 * request line) get the proxy's JSON envelope too, as the mock answers them; they reach no target.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  const [status, msg] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, `teamchat proxy: request headers are too large (limit: ${MAX_HEADER_BYTES} bytes)`]
      : [400, 'teamchat proxy: malformed HTTP request'];
  endWithJson(socket, status, { result: 'error', code: 'BAD_REQUEST', msg });
}

/** The proxy's own answer, in the API's error envelope (clients parse JSON whatever the status). */
function answerError(res: ServerResponse, status: number, code: string, msg: string): void {
  const body = Buffer.from(JSON.stringify({ result: 'error', code, msg }));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length }).end(body);
}

function forwardable(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase()),
  );
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k) && !named.has(k)) out[k] = v;
  return out;
}

function describe(e: unknown): string {
  const err = e as { code?: string; cause?: { code?: string }; message?: string };
  return err.cause?.code ?? err.code ?? err.message ?? String(e);
}

/** Passes bytes on unchanged, keeping the first BODY_CAP of them. */
class Capture extends Transform {
  #chunks: Buffer[] = [];
  #size = 0;
  #over = false;

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (!this.#over) {
      this.#size += chunk.length;
      if (this.#size > BODY_CAP) {
        this.#over = true;
        this.#chunks = [];
      } else this.#chunks.push(chunk);
    }
    done(null, chunk);
  }

  /** What was kept, or null when the body passed the cap. */
  kept(): Buffer | null {
    return this.#over ? null : Buffer.concat(this.#chunks);
  }
}
