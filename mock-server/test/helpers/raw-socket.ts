import { connect, type Socket } from 'node:net';

/**
 * One HTTP/1.1 conversation on a raw socket, for what a fetch client will not send: a body cut short, a body
 * that stops arriving, headers whose body never follows. `send` writes its parts in order; the answer is
 * everything the server wrote until it closed the connection, `until` said enough, or `limitMs` passed (then
 * the socket is destroyed: every conversation ends).
 */
export interface RawAnswer {
  /** Everything received, status line and headers included. */
  text: string;
  /** The server closed the connection (not the test's limit). */
  closedByServer: boolean;
  /** Status of the last (final) response in `text`, or null. */
  status: number | null;
  /** The JSON body of the last response, or null when there is none or it is not JSON. */
  json: Record<string, unknown> | null;
}

export interface RawOptions {
  until?: (text: string) => boolean;
  limitMs?: number;
  /** Called once connected, with the socket (to write more later, or to drop it). */
  onSocket?: (socket: Socket) => void;
}

export function rawExchange(url: string, parts: (string | Buffer)[], options: RawOptions = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    let settled = false;
    const finish = (closedByServer: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(limit);
      socket.destroy();
      done({ text, closedByServer, ...parse(text) });
    };
    const limit = setTimeout(() => finish(false), options.limitMs ?? 5_000);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      if (options.until?.(text)) finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.once('connect', () => {
      options.onSocket?.(socket);
      for (const part of parts) socket.write(part);
    });
  });
}

/** A complete JSON answer has arrived (its Content-Length bytes after the headers). */
export function hasJsonAnswer(text: string): boolean {
  const { status, json } = parse(text);
  return status !== null && status >= 200 && json !== null;
}

function parse(text: string): { status: number | null; json: Record<string, unknown> | null } {
  // The final response: a 100 Continue may precede it.
  const starts = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)];
  const last = starts.at(-1);
  if (!last) return { status: null, json: null };
  const response = text.slice(last.index);
  const split = response.indexOf('\r\n\r\n');
  const length = /\r\ncontent-length: (\d+)/i.exec(response.slice(0, split))?.[1];
  const body = split < 0 ? '' : response.slice(split + 4);
  let json: Record<string, unknown> | null = null;
  if (length !== undefined && Buffer.byteLength(body) >= Number(length)) {
    try {
      json = JSON.parse(body) as Record<string, unknown>;
    } catch {
      json = null;
    }
  }
  return { status: Number(last[1]), json };
}

/** The head of a request: request line, Host, the given headers, blank line. */
export function head(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = Object.entries({ host: '127.0.0.1', ...headers }).map(([k, v]) => `${k}: ${v}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}
