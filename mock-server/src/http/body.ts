import busboy from 'busboy';
import type { ServerResponse } from 'node:http';
import express from 'express';
import {
  ApiError,
  badRequest,
  malformedUrl,
  payloadTooLarge,
  unreadableBody,
  unsupportedCharset,
  unsupportedEncoding,
} from '../domain/errors.js';
import type { UploadedFile } from '../domain/live/uploads.js';
import type { ApiRequest } from './exchange.js';
import type { RawValues } from './params.js';

/**
 * Request bodies (reference doc "Where parameters come from"): URL-encoded forms and multipart forms,
 * for POST, PATCH and DELETE alike. Any other body (JSON included) is never read as parameters. A
 * missing or empty body means "no parameters", so the operation answers its own missing-parameter
 * error, never a parser error (the JavaScript client sends empty multipart POSTs).
 *
 * Values land in null-prototype objects, so keys such as `__proto__` are ordinary (ignored) keys.
 */
export const BODY_LIMIT_BYTES = 1024 * 1024;
const FIELD_LIMIT = 1000;

/** The same fields on express's requests, for what reads both (the inspector's capture, the request log). */
declare module 'express-serve-static-core' {
  interface Request {
    /** Body parameters as text, last value of a repeated key winning (as Django's QueryDict.get). */
    form?: RawValues;
    /** File parts of a multipart body (POST /user_uploads); their part names are not parameters. */
    files?: UploadedFile[];
  }
}

/** How much of a file part is kept: the upload limit plus one byte, so "too large" can be told. */
export interface BodyOptions {
  maxFileBytes: number;
}

const readFormText = express.text({ type: 'application/x-www-form-urlencoded', limit: BODY_LIMIT_BYTES, defaultCharset: 'utf-8' });

/** Without options (every operation but upload-file, the control API) file parts are counted, their bytes discarded. */
type Next = (error?: unknown) => void;

export function bodyParser(options: BodyOptions = { maxFileBytes: 0 }): (req: ApiRequest, res: ServerResponse, next: Next) => void {
  return (req, res, next) => {
    req.form = Object.create(null) as RawValues;
    const type = (req.headers['content-type'] ?? '').toLowerCase();
    if (req.headers['content-length'] === '0') return next();
    if (type.startsWith('application/x-www-form-urlencoded')) return parseUrlEncoded(req, res, next);
    if (type.startsWith('multipart/form-data')) return parseMultipart(req, next, options);
    next();
  };
}

function parseUrlEncoded(req: ApiRequest, res: ServerResponse, next: Next): void {
  const done = (error: unknown, text: string) => {
    if (error) return next(error);
    const params = new URLSearchParams(text);
    let count = 0;
    for (const [key, value] of params) {
      if (++count > FIELD_LIMIT) return next(badRequest(`Too many parameters (limit: ${FIELD_LIMIT}).`));
      req.form![key] = value;
    }
    next();
  };
  if (isPlainUtf8Form(req)) return readPlainBody(req, done);
  readFormText(req, res, (error?: unknown) => {
    const text = typeof req.body === 'string' ? req.body : '';
    req.body = undefined;
    done(error, text);
  });
}

/** What clients send nearly always: a UTF-8 form of a stated length, neither compressed nor chunked. */
const PLAIN_FORM_TYPES = new Set([
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8',
  'application/x-www-form-urlencoded;charset=utf-8',
]);

function isPlainUtf8Form(req: ApiRequest): boolean {
  const { headers } = req;
  const length = Number(headers['content-length']);
  return (
    PLAIN_FORM_TYPES.has((headers['content-type'] ?? '').toLowerCase()) &&
    headers['content-encoding'] === undefined &&
    headers['transfer-encoding'] === undefined &&
    headers['content-length'] !== undefined &&
    Number.isInteger(length) &&
    length > 0 &&
    length <= BODY_LIMIT_BYTES &&
    !req.socket.destroyed
  );
}

/**
 * Reads such a body as express.text would (same text: UTF-8 with replacement characters, a leading BOM
 * dropped) without its per-request machinery (content-type parsing, charset lookup, stream decoder),
 * which cost ~10 % of a small POST. Anything else goes through express.text, so every error stays its.
 */
function readPlainBody(req: ApiRequest, done: (error: unknown, text: string) => void): void {
  const chunks: Buffer[] = [];
  let finished = false;
  const finish = (error: unknown, text: string) => {
    if (finished) return;
    finished = true;
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('aborted', onAborted);
    req.off('error', onAborted);
    done(error, text);
  };
  const onData = (chunk: Buffer) => chunks.push(chunk);
  const onEnd = () => {
    const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
    finish(null, text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  };
  // The client went away mid-body: what express.text reports as `request.aborted`.
  const onAborted = () => finish(unreadableBody(), '');
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('aborted', onAborted);
  req.on('error', onAborted);
}

function parseMultipart(req: ApiRequest, next: Next, options: BodyOptions): void {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: { fieldSize: BODY_LIMIT_BYTES, fields: FIELD_LIMIT, files: 16, fileSize: options.maxFileBytes },
      defParamCharset: 'utf8',
    });
  } catch {
    return next(badRequest('Malformed multipart body.'));
  }
  let settled = false;
  let total = 0;
  // Every way this body can end calls `fail` or the parser's 'close', once: a truncated form (busboy errors
  // its open file stream and itself), a client that goes away, a limit. Before the file streams had no
  // 'error' listener, so a form cut before its closing boundary was an uncaught exception that ended the process.
  const fail = (error: ApiError) => {
    if (settled) return;
    settled = true;
    req.unpipe(parser);
    parser.destroy(); // frees the open file stream and the bytes it buffered
    if (!req.complete && !req.destroyed) req.resume(); // drain what is left so the connection can answer
    next(error);
  };
  const malformed = () => fail(badRequest('Malformed multipart body.'));
  parser.on('field', (name, value, info) => {
    total += value.length;
    if (info.valueTruncated || total > BODY_LIMIT_BYTES) return fail(payloadTooLarge(`${BODY_LIMIT_BYTES} bytes`));
    req.form![name] = value;
  });
  // Only upload-file takes a file (the route refuses more than one): the first part's bytes are kept,
  // at most the per-file limit, so memory stays bounded; further parts are counted and discarded. The
  // reference reads files apart from the form, so a part name is never an (ignored) parameter.
  const files: UploadedFile[] = [];
  req.files = files;
  parser.on('file', (_name, stream, info) => {
    stream.on('error', malformed);
    const file: UploadedFile = { filename: info.filename ?? '', mimeType: info.mimeType, data: Buffer.alloc(0), truncated: false };
    files.push(file);
    if (files.length > 1) return void stream.resume();
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('limit', () => (file.truncated = true));
    stream.on('end', () => (file.data = Buffer.concat(chunks)));
  });
  parser.on('fieldsLimit', () => fail(badRequest(`Too many parameters (limit: ${FIELD_LIMIT}).`)));
  parser.on('error', malformed);
  parser.on('close', () => {
    if (settled) return;
    settled = true;
    next();
  });
  // The client went away (or the server's request deadline cut it) before the body ended: busboy would
  // wait for bytes that never come.
  req.on('close', () => {
    if (!req.complete) fail(unreadableBody());
  });
  req.on('error', () => fail(unreadableBody()));
  req.pipe(parser);
}

/** body-parser's errors (size, charset, aborted) → the JSON error envelope. */
export function bodyErrorToApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  const e = error as { type?: string; status?: number; limit?: number; charset?: string };
  switch (e?.type) {
    case 'entity.too.large':
      return payloadTooLarge(`${e.limit ?? BODY_LIMIT_BYTES} bytes`);
    case 'charset.unsupported':
      return unsupportedCharset(e.charset ?? '');
    case 'encoding.unsupported':
      return unsupportedEncoding();
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return unreadableBody();
    default:
      // express could not percent-decode a path parameter: the URL names no resource.
      if (error instanceof URIError || /decode param/i.test(String((error as Error)?.message))) return malformedUrl();
      if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) return unreadableBody(e.status);
      return null;
  }
}
