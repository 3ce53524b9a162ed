import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { REDACTED, redacted, TOO_DEEP } from '../../src/http/request-log.js';
import { serveLogger, type LogFormat, type LogLevel } from '../../src/log.js';
import { call, startTestServer, type Who } from '../helpers/test-server.js';

/**
 * `teamchat serve`'s request log, through the logger the CLI makes (mock-server/src/log.ts)
 * written to a buffer. The CLI's own flags and its shutdown line: cli/test/teamchat.test.ts.
 */

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function logged(level: LogLevel, format: LogFormat = 'json') {
  const out: string[] = [];
  server = await startTestServer({ requestLog: await serveLogger({ level, format, out: { write: (s: string) => out.push(s) } }) });
  const member = server.control.world('demo').credentials.member as Who & { user_id: number };
  return { out, member, server };
}

/** The json lines written so far, parsed. */
const lines = (out: string[]) =>
  out
    .join('')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('the request log (json)', () => {
  it('one line per request: time, realm, user, method, path, status, ms', async () => {
    const { out, member, server } = await logged('info');
    const answer = await call(server, 'GET', '/api/v1/users/me', { as: member, query: { api_key: member.api_key } });
    expect(answer.status).toBe(200);
    await vi.waitFor(() => expect(lines(out)).toHaveLength(1));
    const [line] = lines(out);
    expect(line).toMatchObject({ level: 30, realm: 'demo', user: member.email, method: 'GET', path: '/api/v1/users/me', status: 200 });
    expect(line!.time).toEqual(expect.any(Number));
    expect(line!.ms).toEqual(expect.any(Number));
    expect(line!.msg).toBe(`demo ${member.email} GET /api/v1/users/me 200 ${String(line!.ms)}ms`);
    // No bodies at info, and the query string (which may hold an api_key) is not part of the path.
    expect(line).not.toHaveProperty('req');
    expect(line).not.toHaveProperty('res');
    expect(out.join('')).not.toContain(member.api_key);
  });

  it('an error answer adds its code and msg; a refused caller has no realm or user; a 404 outside the API too', async () => {
    const { out, member, server } = await logged('info');
    await call(server, 'GET', '/api/v1/streams', { as: member, query: { include_public: '1' } });
    await call(server, 'GET', '/api/v1/users/me', { as: { email: member.email, api_key: 'wrong' } });
    await call(server, 'GET', '/no/such/page');
    await vi.waitFor(() => expect(lines(out)).toHaveLength(3));
    const [bad, refused, missing] = lines(out);
    expect(bad).toMatchObject({ status: 400, user: member.email, error: { code: 'BAD_REQUEST', msg: 'include_public is not a boolean' } });
    expect(bad!.msg).toMatch(/ 400 [\d.]+ms BAD_REQUEST: include_public is not a boolean$/);
    expect(refused).toMatchObject({ status: 401, realm: null, user: null, error: { code: 'INVALID_API_KEY', msg: 'Malformed API key' } });
    expect(missing).toMatchObject({ method: 'GET', path: '/no/such/page', status: 404, error: { msg: 'Not Found' } });
  });

  it('the effective method of a POST with a method field, and the path as sent', async () => {
    const { out, member, server } = await logged('info');
    await call(server, 'POST', '//api/v1/users/me', { as: member, form: { method: 'GET' } });
    await vi.waitFor(() => expect(lines(out)).toHaveLength(1));
    expect(lines(out)[0]).toMatchObject({ method: 'GET', path: '//api/v1/users/me', status: 200 });
  });
});

describe('debug: bodies with credentials redacted', () => {
  it('request headers, query and form, and the answer, without Authorization, api_key, password or key', async () => {
    const { out, member, server } = await logged('debug');
    const login = await call(server, 'POST', '/api/v1/fetch_api_key', { form: { username: member.email, password: 'not-it' } });
    expect(login.status).toBe(401);
    await call(server, 'GET', '/api/v1/users/me', { as: member, query: { api_key: member.api_key } });
    const credentials = await call(server, 'GET', '/__mock/realms/demo/credentials');
    expect(credentials.text).toContain(member.api_key);
    await vi.waitFor(() => expect(lines(out)).toHaveLength(3));
    const [fetchKey, me, control] = lines(out) as Array<Record<string, Record<string, Record<string, unknown>>>>;
    expect(fetchKey!.req!.body).toEqual({ username: member.email, password: REDACTED });
    expect(fetchKey!.res!.body).toMatchObject({ result: 'error', code: 'AUTHENTICATION_FAILED' });
    expect(me!.req!.headers).toMatchObject({ authorization: REDACTED });
    expect(me!.req!.query).toEqual({ api_key: REDACTED });
    expect(me!.res!.body).toMatchObject({ result: 'success', user_id: member.user_id });
    const listed = control!.res!.body!.credentials as Array<Record<string, unknown>>;
    expect(listed.length).toBeGreaterThan(1);
    for (const who of listed) expect(who.api_key).toBe(REDACTED);
    const text = out.join('');
    expect(text).not.toContain(member.api_key);
    expect(text).not.toContain('not-it');
    expect(text).not.toContain(Buffer.from(`${member.email}:${member.api_key}`).toString('base64'));
  });

  it('the control token of `GET /?token=…` is in no line, at info or at debug (query, Referer)', async () => {
    const token = 'control-token-for-the-log-0123456789';
    for (const level of ['info', 'debug'] as const) {
      const out: string[] = [];
      const logger = await serveLogger({ level, format: 'json', out: { write: (s: string) => out.push(s) } });
      const server = await startTestServer({ requestLog: logger, controlToken: token });
      try {
        const html = { accept: 'text/html' };
        const page = await call(server, 'GET', '/', { headers: html, query: { token } });
        expect(page.status, level).toBeLessThan(400);
        const referer = `${server.url}/?token=${token}&tab=realms`;
        await call(server, 'GET', '/api/v1/server_settings', { headers: { referer } });
        await vi.waitFor(() => expect(lines(out).length).toBeGreaterThanOrEqual(2));
        expect(out.join(''), level).not.toContain(token);
        if (level === 'debug') {
          const [first, second] = lines(out) as Array<Record<string, Record<string, Record<string, unknown>>>>;
          expect(first!.req!.query).toEqual({ token: REDACTED });
          expect(second!.req!.headers!.referer).toBe(`${server.url}/?token=${REDACTED}&tab=realms`);
        }
      } finally {
        await server.close();
      }
    }
  });

  it('secret names in any case or spelling: apiKey, API-KEY, new_password, x-api-key, access_token', async () => {
    const { out, member, server } = await logged('debug');
    const query = { apiKey: 'v1-apikey', 'API-KEY': 'v2-dashed', new_password: 'v3-password', access_token: 'v4-token' };
    await call(server, 'GET', '/api/v1/users/me', { as: member, query, headers: { 'x-api-key': 'v5-header' } });
    await vi.waitFor(() => expect(lines(out)).toHaveLength(1));
    const text = out.join('');
    for (const value of ['v1-apikey', 'v2-dashed', 'v3-password', 'v4-token', 'v5-header']) expect(text).not.toContain(value);
  });

  it('a body nested past the stack (20,000 arrays) is logged cut at a depth, never a crash', async () => {
    const { out, server } = await logged('debug');
    const deep = `{"event":${'['.repeat(20_000)}${']'.repeat(20_000)},"user_ids":[1]}`;
    const headers = { 'content-type': 'application/json' };
    await call(server, 'POST', '/__mock/realms/demo/events', { headers, body: deep });
    const after = await call(server, 'GET', '/api/v1/server_settings');
    expect(after.status).toBe(200);
    await vi.waitFor(() => expect(lines(out)).toHaveLength(2));
    expect(JSON.stringify(lines(out)[0])).toContain(TOO_DEEP);
    const nested = redacted({ a: [[[[{ api_key: 'k' }]]]] }, 3) as { a: unknown[][] };
    expect(nested).toEqual({ a: [[TOO_DEEP]] });
  });

  it('redaction goes to any depth and any case, and leaves the original alone', () => {
    const original = { a: [{ Key: 'k', deep: { API_KEY: 'x', Password: 'p', keep: 1 } }], Authorization: 'Basic x', keys: ['kept'] };
    expect(redacted(original)).toEqual({
      a: [{ Key: REDACTED, deep: { API_KEY: REDACTED, Password: REDACTED, keep: 1 } }],
      Authorization: REDACTED,
      keys: ['kept'],
    });
    expect(original.a[0]!.deep.API_KEY).toBe('x');
  });
});

describe('levels and formats', () => {
  it('silent writes nothing for a request', async () => {
    const { out, member, server } = await logged('silent');
    await call(server, 'GET', '/api/v1/users/me', { as: member });
    await call(server, 'GET', '/api/v1/streams', { as: member, query: { include_public: '1' } });
    // A line is written when the answer's connection closes: give it the time an info line takes.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(out).toEqual([]);
  });

  it('pretty: one human line per request, with the error code and msg', async () => {
    const { out, member, server } = await logged('info', 'pretty');
    await call(server, 'GET', '/api/v1/streams', { as: member, query: { include_public: '1' } });
    await vi.waitFor(() => expect(out).toHaveLength(1));
    expect(out[0]).toMatch(
      new RegExp(
        `^\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] INFO: demo ${member.email} GET /api/v1/streams 400 [\\d.]+ms BAD_REQUEST: include_public is not a boolean\\n$`,
      ),
    );
  });
});
