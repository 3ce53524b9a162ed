import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery, type ParsedUrlQuery } from 'node:querystring';
import accepts from 'accepts';
import escapeHtml from 'escape-html';
import { serialize, type CookieSerializeOptions } from 'cookie';
import send from 'send';
import { urlParts } from './exchange.js';

/**
 * What the pages, files and control calls outside /api/v1 need of a request and an answer, on node's own objects:
 * the express app used to add these as methods by swapping each request's and answer's prototype, and that swap
 * kept every such request's objects alive through the young generation's collections (app.ts `restRouter`).
 * Each does what express's method of the same name did, with the library express used for it.
 */

/** What the rest router's entry (app.ts) sets on a request, as express's app.handle did. */
export interface WebRequest extends IncomingMessage {
  url: string;
  originalUrl: string;
  /** The path of the whole URL (after the `//` collapse), as express's `req.path` read at the top level. */
  path: string;
}

export interface WebResponse extends ServerResponse {
  locals: Record<string, unknown>;
}

/** express's `req.query` with the "simple" parser: node:querystring (a repeated key gives a list). */
export function queryOf(req: IncomingMessage): ParsedUrlQuery {
  return parseQuery(urlParts(req.url ?? '/').query ?? '');
}

/** express's `req.accepts(types)`: the best of `types` for the Accept header, or false. */
export function preferred(req: IncomingMessage, types: string[]): string | false {
  const best = accepts(req).type(types);
  return typeof best === 'string' ? best : false;
}

/**
 * express's `res.type(type).send(text)` for a string: the type with `charset=utf-8`, the length, the text (none for
 * HEAD, which node leaves out itself).
 */
export function sendText(res: ServerResponse, status: number, type: string, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

/**
 * express's `res.redirect(status, location)`: the body in the form the client prefers (plain text, HTML, or none),
 * `Vary: Accept`.
 */
export function redirect(req: IncomingMessage, res: ServerResponse, status: 303, location: string): void {
  const reason = 'See Other';
  const form = preferred(req, ['text/plain', 'text/html']);
  res.setHeader('Location', location);
  res.appendHeader('Vary', 'Accept');
  if (form === 'text/html') {
    const body = `<!DOCTYPE html><head><title>${reason}</title></head><body><p>${reason}. Redirecting to ${escapeHtml(location)}</p></body>`;
    sendText(res, status, 'text/html', body);
  } else if (form === 'text/plain') sendText(res, status, 'text/plain', `${reason}. Redirecting to ${location}`);
  else {
    res.statusCode = status;
    res.setHeader('Content-Length', 0);
    res.end();
  }
}

/** express's `res.cookie(name, value, options)`: one more Set-Cookie header. */
export function setCookie(res: ServerResponse, name: string, value: string, options: CookieSerializeOptions): void {
  res.appendHeader('Set-Cookie', serialize(name, value, options));
}

export interface FileOptions {
  /** The directory `path` is under (else `path` is absolute). */
  root?: string;
  dotfiles?: 'deny';
  /** Headers set on the answer when the file is found. */
  headers?: Record<string, string>;
}

/**
 * express's `res.sendFile(path, options, done)`: the `send` package streams the file (type, length, Last-Modified,
 * ranges); `done` gets its error (`status` 404 for a file that is not there), or nothing once sent.
 */
export function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  options: FileOptions,
  done: (error?: Error & { status?: number }) => void,
): void {
  let called = false;
  const finish = (error?: Error & { status?: number }) => {
    if (called) return;
    called = true;
    done(error);
  };
  // As express: the path URL-encoded (send decodes it), and no ETag (the app had them off).
  const file = send(req, encodeURI(path), { root: options.root, dotfiles: options.dotfiles, etag: false });
  file.on('headers', (answer: ServerResponse) => {
    for (const [name, value] of Object.entries(options.headers ?? {})) answer.setHeader(name, value);
  });
  file.on('directory', () => finish(Object.assign(new Error('EISDIR, read'), { code: 'EISDIR', status: 404 })));
  file.on('error', finish);
  file.on('end', () => finish());
  file.pipe(res);
}
