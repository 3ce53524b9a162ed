import { connect } from 'node:net';
import type { MockServer } from '../../src/app.js';
import { basic, type Who } from '../helpers/test-server.js';

/** What a raw socket saw of one request: every byte, and how the connection ended. */
export interface SocketFate {
  bytes: Buffer;
  /** The socket error's code (ECONNRESET for a reset), or null when it ended cleanly. */
  error: string | null;
  /** 'data' events after the request was written (a trickled answer arrives in several). */
  reads: number;
}

/**
 * One GET on a raw socket, read until the server ends the connection (`Connection: close` asks it to after an
 * answer) or `limitMs` passes (then the socket is destroyed, so every exchange ends).
 */
export function rawGet(server: MockServer, path: string, who: Who, limitMs = 10_000): Promise<SocketFate> {
  const { hostname, port } = new URL(server.url);
  return new Promise((done) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let error: string | null = null;
    let reads = 0;
    const limit = setTimeout(() => socket.destroy(), limitMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      reads++;
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => {
      clearTimeout(limit);
      done({ bytes: Buffer.concat(chunks), error, reads });
    });
    socket.once('connect', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: ${basic(who)}\r\nConnection: close\r\n\r\n`),
    );
  });
}

/** Splits an HTTP/1.1 answer into its head (lower-case header names) and its body bytes. */
export function parseAnswer(bytes: Buffer): { status: number; headers: Record<string, string>; body: Buffer } {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no HTTP head in ${JSON.stringify(bytes.toString('latin1').slice(0, 80))}`);
  const [statusLine, ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: bytes.subarray(end + 4) };
}
