import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * A JSON answer written straight to a socket, for requests Node's HTTP server refuses before any handler sees them
 * (headers too large, a malformed or late request): stock clients parse JSON whatever the status. Used by the
 * mock and by `teamchat proxy`, so it imports neither. A socket whose answer is already under way (headers sent)
 * cannot take another one, and is closed instead.
 */
export function endWithJson(socket: Duplex, status: number, body: unknown): void {
  const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || current?.headersSent) {
    socket.destroy();
    return;
  }
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
