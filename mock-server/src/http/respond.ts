import type { ServerResponse } from 'node:http';
import type { Features } from '../config/features.js';
import { jsonTextsOf } from '../contract/json-text.js';
import { ApiError, errorAtLevel, internalError, stateWriteFailed } from '../domain/errors.js';
import { StateWriteFailed } from '../store/errors.js';
import { bodyErrorToApiError } from './body.js';

/**
 * JSON out without express's ETag hashing and res.json overhead (those defaults
 * cost ~40 % of throughput before any work of ours). The text goes to the socket as a string: copying
 * it into a Buffer first measured slower (an allocation outside the pool for most answers).
 */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): string {
  const text = answerText(body);
  sendJsonText(res, status, text, headers);
  return text;
}

/** JSON already serialized (a kept answer, http/answer-cache.ts, knows its length): sent as it is. */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  text: string,
  headers?: Record<string, string>,
  byteLength: number = Buffer.byteLength(text),
): void {
  // res.status() re-validates the code on every answer; ours are the catalogue's.
  res.statusCode = status;
  if (headers) for (const name in headers) res.setHeader(name, headers[name]!);
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', byteLength);
  res.end(text);
}

/**
 * The answer's text: `JSON.stringify(body)`, except that a top-level list with texts kept beside it
 * (contract/json-text.ts: a fan-out's event texts) has those texts spliced as made. Keys in the same order, and
 * `undefined` (or function) values left out, as JSON.stringify does.
 */
export function answerText(body: unknown): string {
  if (!splices(body)) return JSON.stringify(body);
  let out = '';
  for (const key in body) {
    if (!Object.hasOwn(body, key)) continue;
    const text = valueText(body[key]);
    if (text !== undefined) out += `${out ? ',' : ''}${JSON.stringify(key)}:${text}`;
  }
  return `{${out}}`;
}

/** Whether an answer object holds a list with kept texts: one look per top-level value. */
function splices(body: unknown): body is Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  for (const key in body) {
    const value = (body as Record<string, unknown>)[key];
    if (Array.isArray(value) && jsonTextsOf(value) !== undefined) return true;
  }
  return false;
}

function valueText(value: unknown): string | undefined {
  const kept = Array.isArray(value) ? jsonTextsOf(value) : undefined;
  if (!kept) return JSON.stringify(value) as string | undefined;
  const list = value as unknown[];
  let out = '';
  for (let i = 0; i < list.length; i++) {
    // In an array, what JSON.stringify leaves out of an object (undefined, a function) is null.
    const text = kept[i] ?? (JSON.stringify(list[i]) as string | undefined) ?? 'null';
    out += i === 0 ? text : `,${text}`;
  }
  return `[${out}]`;
}

let dateSecond = Number.NaN;
let dateText = '';

/** The Date header's text for a time in ms, made once per second (one clock second serves every request in it). */
export function httpDate(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== dateSecond) {
    dateText = new Date(second * 1000).toUTCString();
    dateSecond = second;
  }
  return dateText;
}

export function sendError(res: ServerResponse, error: ApiError): void {
  sendJson(res, error.status, error.body(), error.headers);
}

/** Errors of the layers below the API (the store's, the body parsers') become catalogue errors here. */
function toApiError(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof StateWriteFailed) return stateWriteFailed();
  return bodyErrorToApiError(error);
}

/**
 * The only place errors become responses: every error is the JSON envelope of §7, never HTML, and a
 * 500 only for what nobody foresaw (logged, because it is a bug). Express's error handler (its four parameters)
 * and the API front door's (http/front-door.ts).
 */
export function errorHandler(
  error: unknown,
  _req: unknown,
  res: ServerResponse & { locals?: Record<string, unknown> },
  _next: unknown,
): void {
  let apiError = toApiError(error);
  if (!apiError) {
    console.error('teamchat-kit: unexpected error (this is a bug):', error);
    apiError = internalError();
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  // Unset before the pipeline knew the realm (and in a bare response): the current texts.
  const features = res.locals?.features as Features | undefined;
  sendError(res, features ? errorAtLevel(apiError, features) : apiError);
}
