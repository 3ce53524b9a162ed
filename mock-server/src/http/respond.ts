import type { ErrorRequestHandler, Response } from 'express';
import type { Features } from '../config/features.js';
import { ApiError, errorAtLevel, internalError, stateWriteFailed } from '../domain/errors.js';
import { StateWriteFailed } from '../store/errors.js';
import { bodyErrorToApiError } from './body.js';

/**
 * JSON out without express's ETag hashing and res.json overhead (those defaults
 * cost ~40 % of throughput before any work of ours). The text goes to the socket as a string: copying
 * it into a Buffer first measured slower (an allocation outside the pool for most answers).
 */
export function sendJson(res: Response, status: number, body: unknown, headers?: Record<string, string>): string {
  const text = JSON.stringify(body);
  sendJsonText(res, status, text, headers);
  return text;
}

/** JSON already serialized (a kept answer, http/answer-cache.ts, knows its length): sent as it is. */
export function sendJsonText(
  res: Response,
  status: number,
  text: string,
  headers?: Record<string, string>,
  byteLength: number = Buffer.byteLength(text),
): void {
  res.status(status);
  if (headers) for (const name in headers) res.setHeader(name, headers[name]!);
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Content-Length', byteLength);
  res.end(text);
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

export function sendError(res: Response, error: ApiError): void {
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
 * 500 only for what nobody foresaw (logged, because it is a bug).
 */
export const errorHandler: ErrorRequestHandler = (error: unknown, _req, res, _next) => {
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
};
