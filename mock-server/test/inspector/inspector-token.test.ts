import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { call, startTestServer } from '../helpers/test-server.js';
import { openFeed } from './support.js';

/**
 * The inspector behind the control token: the page is part of the control API and follows its
 * rule. A browser gives the token once as `/?token=…` and gets a session cookie (inspector/session.ts); without
 * it nothing about the server is shown: no page, no feed, no exchange, no report, and the control API stays shut.
 */
const TOKEN = 'inspector-test-token-0123456789';
const HTML = { accept: 'text/html' };
let server: MockServer;

beforeAll(async () => {
  server = await startTestServer({ controlToken: TOKEN });
});
afterAll(() => server.close());

async function login(): Promise<string> {
  const res = await call(server, 'GET', '/', { headers: HTML, query: { token: TOKEN } });
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/');
  const cookie = String(res.headers['set-cookie']);
  expect(cookie).toMatch(/^teamchat_inspector=[\w-]+; Path=\/; HttpOnly; SameSite=Strict$/);
  expect(cookie).not.toContain(TOKEN);
  return cookie.split(';', 1)[0]!;
}

describe('without the token', () => {
  it('a browser gets a form asking for it (401), with nothing about realms or traffic', async () => {
    await call(server, 'GET', '/api/v1/server_settings');
    const res = await call(server, 'GET', '/', { headers: HTML });
    expect(res.status).toBe(401);
    expect(res.text).toContain('name="token"');
    expect(res.text).not.toContain('inspector.js');
    for (const leak of ['demo', 'server_settings', 'andrew@']) expect(res.text).not.toContain(leak);
  });

  it('a wrong token is refused the same way, and sets no cookie', async () => {
    const res = await call(server, 'GET', '/', { headers: HTML, query: { token: 'wrong' } });
    expect(res.status).toBe(401);
    expect(res.text).toContain('That is not the control token.');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('the feed, the exchanges and the report answer 401 JSON', async () => {
    for (const path of [
      '/__inspector/feed',
      '/__inspector/exchanges/1',
      '/__inspector/report/conformance.html',
      '/__inspector/operations',
    ]) {
      const res = await call(server, 'GET', path);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
    }
    await expect(openFeed(server)).rejects.toThrow(/401/);
  });

  it('a forged cookie opens nothing', async () => {
    const cookie = 'teamchat_inspector=forged';
    expect((await call(server, 'GET', '/', { headers: { ...HTML, cookie } })).status).toBe(401);
    expect((await call(server, 'GET', '/__inspector/feed', { headers: { cookie } })).status).toBe(401);
    expect((await call(server, 'GET', '/__mock/realms', { headers: { cookie, 'x-teamchat-inspector': '1' } })).status).toBe(401);
  });
});

describe('with the session cookie', () => {
  it('the page and its feed open, and the token given in the address is redacted from the log', async () => {
    const cookie = await login();
    const page = await call(server, 'GET', '/', { headers: { ...HTML, cookie } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('inspector.js');
    const feed = await openFeed(server, { cookie });
    try {
      const hello = await feed.next('hello');
      expect(JSON.stringify(hello)).not.toContain(TOKEN);
      const given = feed.seen.find((x) => x.path === '/' && x.status === 303)!;
      const shown = await call(server, 'GET', `/__inspector/exchanges/${given.id}`, { headers: { cookie } });
      expect(shown.status).toBe(200);
      expect(shown.text).not.toContain(TOKEN);
      expect((shown.body.exchange as { query: unknown }).query).toEqual({ token: '[redacted]' });
    } finally {
      feed.close();
    }
  });

  it("drives the control API only together with the page's header (a cross-site form cannot add one)", async () => {
    const cookie = await login();
    expect((await call(server, 'GET', '/__mock/realms', { headers: { cookie } })).status).toBe(401);
    const listed = await call(server, 'GET', '/__mock/realms', { headers: { cookie, 'x-teamchat-inspector': '1' } });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ result: 'success' });
    // The bearer token keeps working as before.
    expect((await call(server, 'GET', '/__mock/realms', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });
});
