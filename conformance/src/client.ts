import { FormData, request } from 'undici';
import type { Exchange } from './model.js';
import { curlLine, keyVariable, redactBody, redactHeaders, redactParams } from './redact.js';

/** A parameter value as a scenario writes it; lists and objects go on the wire JSON-encoded (spec §1). */
export type Param = string | number | boolean | null | undefined | unknown[] | Record<string, unknown>;
export type Params = Record<string, Param>;

export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** The JSON body (an empty object when the answer was not JSON: the envelope check reports that). */
  body: Record<string, unknown>;
  text: string;
  /** Index of this exchange in the scenario's record. */
  index: number;
}

/** A file part of a multipart body (upload-file, companion tier): the only operation that takes one. */
export interface FilePart {
  name: string;
  type: string;
  content: string;
}

export interface Credentials {
  role: string;
  email: string;
  api_key: string;
}

/**
 * How many times a 429 is retried after its Retry-After; then the 429 stands (and is judged like any answer).
 * Workers share a user's budget: a wait of exactly Retry-After frees one slot, which another worker may take
 * first, so a few retries are not enough under contention; RATE_LIMIT_PATIENCE_MS bounds the whole wait.
 */
export const RATE_LIMIT_RETRIES = 20;
/** The most one request waits on 429s in all, in ms: past it the 429 stands, however many retries are left. */
export const RATE_LIMIT_PATIENCE_MS = 60_000;
/** The longest one Retry-After is waited, in seconds: a bounded run even against a server asking for more. */
const MAX_RETRY_AFTER_SECONDS = 30;

/**
 * How long a good client waits after a 429 before sending the request again: the `Retry-After` header's seconds
 * (the reference sends a float: `1.523`), else the body's `retry-after`, else 1 s; at most 30 s.
 */
export function rateLimitWaitMs(headers: Record<string, string | string[] | undefined>, text: string): number {
  const header = headers['retry-after'];
  let seconds = Number(Array.isArray(header) ? header[0] : header);
  if (!Number.isFinite(seconds) || seconds < 0) {
    try {
      seconds = Number((JSON.parse(text) as Record<string, unknown>)['retry-after']);
    } catch {
      seconds = Number.NaN;
    }
  }
  return Math.min(Number.isFinite(seconds) && seconds >= 0 ? seconds : 1, MAX_RETRY_AFTER_SECONDS) * 1000;
}

/**
 * Speaks the API the way spec §1 says: form fields for POST, PATCH and DELETE, the query string for
 * GET, lists and objects JSON-encoded, HTTP Basic with the API email and key (§5). Every exchange is
 * recorded for the report, with the key redacted: its curl line takes the key from `$KEY_<role>`.
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly record: (exchange: Exchange) => number,
    /** Above the 60-second heartbeat (§6.3), so a long-poll under --slow ends with its heartbeat, not a timeout. */
    private readonly timeoutMs = 120_000,
  ) {}

  async call(
    method: string,
    path: string,
    params: Params = {},
    who: Credentials | null = null,
    headers: Record<string, string> = {},
    files: readonly FilePart[] = [],
  ): Promise<Reply> {
    const encoded = encodeParams(params);
    const query = method === 'GET' && Object.keys(encoded).length > 0 ? `?${new URLSearchParams(encoded)}` : '';
    // With files the body is multipart (undici sets its content type and boundary); otherwise a form.
    const body = method === 'GET' ? undefined : files.length > 0 ? multipart(encoded, files) : new URLSearchParams(encoded).toString();
    const sent: Record<string, string> = { ...headers };
    if (who) sent.authorization = `Basic ${Buffer.from(`${who.email}:${who.api_key}`).toString('base64')}`;
    if (typeof body === 'string') sent['content-type'] = 'application/x-www-form-urlencoded';
    const { status, headers: rawHeaders, text, ms } = await this.#send(method, this.baseUrl + path + query, sent, body);
    const replyHeaders = redactHeaders(rawHeaders);
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON: kept as text; the envelope check fails it.
    }
    const shown = { ...redactParams(encoded), ...Object.fromEntries(files.map((f, i) => [`<file ${i + 1}>`, f.name])) };
    const shownPath = method === 'GET' && Object.keys(encoded).length > 0 ? `${path}?${new URLSearchParams(shown)}` : path;
    const index = this.record({
      method,
      path: shownPath,
      as: who?.role ?? null,
      ...(who ? { user: who.email } : {}),
      params: shown,
      status,
      headers: replyHeaders,
      body: redactBody(parsed),
      ms: Math.round(ms * 10) / 10,
      curl: curlLine(
        this.baseUrl,
        method,
        shownPath,
        method === 'GET' ? {} : shown,
        who?.email ?? null,
        who ? keyVariable(who.role) : undefined,
      ),
    });
    const json = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    return { status, headers: replyHeaders, body: json, text, index };
  }

  /**
   * A request that is not part of the record (no redaction, no curl line): the many reads an oracle makes to
   * judge a step. The answer's JSON body, or an empty object.
   */
  async quiet(
    method: string,
    path: string,
    params: Params,
    who: Credentials,
  ): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
    const encoded = encodeParams(params);
    const query = method === 'GET' && Object.keys(encoded).length > 0 ? `?${new URLSearchParams(encoded)}` : '';
    const body = method === 'GET' ? undefined : new URLSearchParams(encoded).toString();
    const sent: Record<string, string> = { authorization: `Basic ${Buffer.from(`${who.email}:${who.api_key}`).toString('base64')}` };
    if (body !== undefined) sent['content-type'] = 'application/x-www-form-urlencoded';
    // reset false: undici closes the connection after a DELETE with a body (a server might not read it), and
    // explore's oracles delete a queue per fresh register; the spec's DELETE takes form fields (§1), so the
    // connection is kept.
    const { status, text } = await this.#send(method, this.baseUrl + path + query, sent, body, false);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    const json = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    return { status, body: json, text };
  }

  /** Sends, and after a 429 waits as asked and sends again (RATE_LIMIT_RETRIES, RATE_LIMIT_PATIENCE_MS); the answer that stands. */
  async #send(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | FormData | undefined,
    reset?: boolean,
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string; ms: number }> {
    for (let attempt = 0, waited = 0; ; attempt++) {
      const started = performance.now();
      const res = await request(url, {
        method: method as 'GET',
        headers,
        body,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        ...(reset === undefined ? {} : { reset }),
      });
      const text = await res.body.text();
      const ms = performance.now() - started;
      // A rate limit is the server protecting itself, not an answer to judge: wait as asked and send it again.
      // Only the answer that stands is recorded.
      const wait = res.statusCode === 429 ? rateLimitWaitMs(res.headers, text) : 0;
      if (res.statusCode === 429 && attempt < RATE_LIMIT_RETRIES && waited + wait <= RATE_LIMIT_PATIENCE_MS) {
        waited += wait;
        await new Promise((resolve) => setTimeout(resolve, wait));
        continue;
      }
      return { status: res.statusCode, headers: res.headers, text, ms };
    }
  }
}

function multipart(fields: Record<string, string>, files: readonly FilePart[]): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('file', new Blob([f.content], { type: f.type }), f.name);
  return form;
}

export function encodeParams(params: Params): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    out[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return out;
}
