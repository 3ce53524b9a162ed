import { connect } from 'node:net';

/**
 * Hostile requests at the wire: request bytes built by hand (so a body may be cut, a header doubled or a length
 * lie) and sent over a raw socket, and the answer read back whatever it is. Shared by the hostile-input tests
 * (mock-server/test/hostile/) and the wire fuzzer (bench/wire-fuzz.ts, also a phase of the soak benchmark).
 * Loopback only: every URL given here is the address of a server the caller started.
 */

/** What came back on a raw exchange. `answered`: a whole HTTP answer; otherwise why there is none. */
export interface RawAnswer {
  outcome: 'answered' | 'closed' | 'timeout' | 'error';
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the first byte sent to the answer (or to giving up). */
  ms: number;
  error?: string;
}

export interface ExchangeOptions {
  /** Give up after this long (the socket is destroyed): every exchange is bounded. */
  timeoutMs: number;
}

/** Splits the head of an answer into status and headers (names in lower case, repeats joined by ", "). */
function parseHead(head: string): { status: number; headers: Record<string, string> } {
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0), headers };
}

/** The body of a chunked answer once its last chunk has arrived, else null. */
function dechunk(raw: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    if (eol < 0) return null;
    const size = parseInt(raw.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size)) return null;
    if (size === 0) return Buffer.concat(parts);
    if (raw.length < eol + 2 + size + 2) return null;
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/**
 * Sends `chunks` over one connection to the server of `url` and reads the first answer. The socket is never
 * half-closed by this side: a request whose body is shorter than its Content-Length is a body that stops, and
 * the server must decide what to do about it. Resolves at the first whole answer, when the server closes, or at
 * the time-out; never rejects.
 */
export function exchange(url: string, chunks: (string | Buffer)[], { timeoutMs }: ExchangeOptions): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  const began = performance.now();
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    let settled = false;
    const socket = connect(Number(port), hostname.replace(/^\[|\]$/g, ''));
    const finish = (outcome: RawAnswer['outcome'], error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const headEnd = received.indexOf('\r\n\r\n');
      const head = headEnd < 0 ? { status: 0, headers: {} } : parseHead(received.subarray(0, headEnd).toString('latin1'));
      const rest = headEnd < 0 ? Buffer.alloc(0) : received.subarray(headEnd + 4);
      const body = head.headers['transfer-encoding']?.includes('chunked') ? (dechunk(rest) ?? rest) : rest;
      const answered = outcome === 'answered' || (outcome === 'closed' && head.status > 0);
      resolve({
        outcome: answered ? 'answered' : outcome,
        ...head,
        body: body.toString('utf8'),
        ms: performance.now() - began,
        ...(error === undefined ? {} : { error }),
      });
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const { headers } = parseHead(received.subarray(0, headEnd).toString('latin1'));
      const rest = received.subarray(headEnd + 4);
      const length = headers['content-length'] === undefined ? null : Number(headers['content-length']);
      if (headers['transfer-encoding']?.includes('chunked') ? dechunk(rest) !== null : length !== null && rest.length >= length)
        finish('answered');
    });
    socket.on('error', (e: NodeJS.ErrnoException) => finish('error', e.code ?? e.message));
    socket.on('close', () => finish('closed'));
  });
}

export interface RequestParts {
  method: string;
  /** Path and query string. */
  path: string;
  /** The Host header: the server's own `host:port` unless given; null sends none. */
  host?: string | null;
  headers?: [string, string][];
  body?: string | Buffer;
  /** Content-Length to declare: the body's length unless given; null sends none. */
  contentLength?: number | null;
}

/** The bytes of one HTTP/1.1 request to the server of `url`. */
export function httpRequest(url: string, parts: RequestParts): Buffer {
  const body = parts.body === undefined ? Buffer.alloc(0) : Buffer.from(parts.body);
  const lines = [`${parts.method} ${parts.path} HTTP/1.1`];
  const host = parts.host === undefined ? new URL(url).host : parts.host;
  if (host !== null) lines.push(`Host: ${host}`);
  for (const [name, value] of parts.headers ?? []) lines.push(`${name}: ${value}`);
  const length = parts.contentLength === undefined ? (parts.body === undefined ? null : body.length) : parts.contentLength;
  if (length !== null) lines.push(`Content-Length: ${length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

export interface Account {
  email: string;
  api_key: string;
}

export const basic = (who: Account): [string, string] => [
  'Authorization',
  `Basic ${Buffer.from(`${who.email}:${who.api_key}`).toString('base64')}`,
];

export interface Part {
  name: string;
  /** A file part when given. */
  filename?: string;
  content: string | Buffer;
}

/** A multipart/form-data body with its closing boundary, and the Content-Type that names the boundary. */
export function multipart(boundary: string, parts: Part[]): { body: Buffer; type: [string, string] } {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename === undefined ? '' : `; filename="${part.filename}"\r\nContent-Type: application/octet-stream`;
    pieces.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${file}\r\n\r\n`),
      Buffer.from(part.content),
    );
    pieces.push(Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(pieces), type: ['Content-Type', `multipart/form-data; boundary=${boundary}`] };
}

/** The issue's body: a file part cut before its closing boundary (its stream once ended the process). */
export const TRUNCATED_MULTIPART = {
  body: '--X\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nabc',
  type: ['Content-Type', 'multipart/form-data; boundary=X'] as [string, string],
};

/** `depth` nested arrays: deeper than any recursive walk of the parsed value can go once depth is in the thousands. */
export const deepArray = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** A search narrow of `words` words of `length` characters each (a search term per word). */
export function searchNarrow(words: number, length = 5): string {
  const word = (i: number) => `w${i.toString(36)}`.padEnd(length, 'x').slice(0, Math.max(length, 1));
  return JSON.stringify([{ operator: 'search', operand: Array.from({ length: words }, (_, i) => word(i)).join(' ') }]);
}

/** A URL-encoded form body. */
export const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();

export const FORM_TYPE: [string, string] = ['Content-Type', 'application/x-www-form-urlencoded'];
export const JSON_TYPE: [string, string] = ['Content-Type', 'application/json'];

/** Whether an answer is the API's error envelope: JSON `{result: 'error', code: string, msg: string}`. */
export function isErrorEnvelope(answer: RawAnswer): boolean {
  try {
    const body = JSON.parse(answer.body) as { result?: unknown; code?: unknown; msg?: unknown };
    return body.result === 'error' && typeof body.code === 'string' && typeof body.msg === 'string';
  } catch {
    return false;
  }
}

/** Whether an answer's body is JSON. */
export function isJson(answer: RawAnswer): boolean {
  try {
    JSON.parse(answer.body);
    return true;
  } catch {
    return false;
  }
}

/** GET /api/v1/server_settings (no credentials needed): the health request, its answer and wait. */
export function health(url: string, timeoutMs: number): Promise<RawAnswer> {
  return exchange(url, [httpRequest(url, { method: 'GET', path: '/api/v1/server_settings' })], { timeoutMs });
}

/** One line naming an answer, for failure messages. */
export function describeAnswer(answer: RawAnswer): string {
  if (answer.outcome !== 'answered')
    return `no answer (${answer.outcome}${answer.error ? `: ${answer.error}` : ''}) after ${Math.round(answer.ms)} ms`;
  return `${answer.status} ${JSON.stringify(answer.body.slice(0, 200))} after ${Math.round(answer.ms)} ms`;
}
