import { FormData, request } from 'undici';
import { createMockServer, type MockServer } from '../../src/app.js';
import type { ServerConfig } from '../../src/config/config.js';
import { DEMO_REALM_EPOCH } from '../../src/fixtures/demo-realm.js';

/**
 * An in-process mock server on a free loopback port, in memory, with a frozen clock and realms starting
 * at the fixed DEMO_REALM_EPOCH (so answers and expectations are the same every run), plus a tiny HTTP
 * client that sends what the stock clients send (Basic auth; form, multipart or query parameters).
 */
export async function startTestServer(options: Partial<ServerConfig> = {}): Promise<MockServer> {
  return createMockServer({ port: 0, statePath: null, clock: 'frozen', epoch: DEMO_REALM_EPOCH, ...options });
}

export interface Who {
  email: string;
  api_key: string;
}

export interface CallOptions {
  as?: Who | null;
  form?: Record<string, string>;
  /** A JSON body (the control API takes no forms). */
  json?: unknown;
  multipart?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  text: string;
}

export async function call(server: MockServer, method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const url = new URL(server.url + path);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.append(k, v);
  const headers: Record<string, string> = { ...options.headers };
  if (options.as) headers.authorization = basic(options.as);
  let body: string | Buffer | FormData | undefined = options.body;
  if (options.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.multipart) {
    const form = new FormData();
    for (const [k, v] of Object.entries(options.multipart)) form.append(k, v);
    body = form;
  }
  const res = await request(url, { method: method as 'GET', headers, body, ...(options.signal ? { signal: options.signal } : {}) });
  const text = await res.body.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = { __not_json__: text };
  }
  return { status: res.statusCode, headers: res.headers, body: parsed, text };
}

/**
 * A control API call as the control client makes it: a JSON body, or none, and the header that lets a bodiless
 * call that changes something through (the server refuses forms there: http/owner-guard.ts).
 */
export function callControl(server: MockServer, method: string, path: string, json?: unknown, options: CallOptions = {}): Promise<Reply> {
  const headers = { 'x-teamchat-control': '1', ...options.headers };
  return call(server, method, path, { ...options, headers, ...(json === undefined ? {} : { json }) });
}

export const basic = (who: Who) => `Basic ${Buffer.from(`${who.email}:${who.api_key}`).toString('base64')}`;

/** The demo realm's credentials by world-file role (owner, administrator, member, guest, bot, …). */
export function credentials(server: MockServer, realmId = 'demo'): Record<string, Who & { user_id: number }> {
  return server.control.world(realmId).credentials as Record<string, Who & { user_id: number }>;
}
