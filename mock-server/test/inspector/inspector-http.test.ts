import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { call, startTestServer } from '../helpers/test-server.js';
import { openQueue, send } from '../helpers/harness.js';
import { openFeed, type Feed } from './support.js';

/**
 * The inspector over HTTP (the page itself in Chromium: inspector-browser.test.ts): content
 * negotiation at GET /, what the capture records and how it redacts, the queue listing the page shows, the cap on
 * live pages and the freeing of their streams. Exposure behind a control token: inspector-token.test.ts.
 */
let server: MockServer;
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const member = () => server.control.credentials('demo').find((c) => c.email.startsWith('andrew@'))!;

describe('GET /', () => {
  it('gives a browser the page, under a policy that loads nothing from elsewhere', async () => {
    const res = await call(server, 'GET', '/', { headers: HTML });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<script type="module" src="/__inspector/inspector.js">');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    for (const file of ['inspector.js', 'faults.js', 'events.js', 'inspector.css'])
      expect((await call(server, 'GET', `/__inspector/${file}`)).status).toBe(200);
  });

  it('keeps the JSON stub for curl (*/*), scripts (no Accept) and JSON clients', async () => {
    for (const headers of [{ accept: '*/*' }, {}, { accept: 'application/json' }] as Record<string, string>[]) {
      const res = await call(server, 'GET', '/', { headers });
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ result: 'success', control: '/__mock', api: '/api/v1' });
    }
  });

  it('is not served, nor anything recorded, without the control API', async () => {
    const bare = await startTestServer({ control: false });
    try {
      const page = await call(bare, 'GET', '/', { headers: HTML });
      expect(page.body).toMatchObject({ result: 'success', control: null });
      expect((await call(bare, 'GET', '/__inspector/feed')).status).toBe(404);
      expect((await call(bare, 'GET', '/__inspector/exchanges/1')).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});

describe('the request capture', () => {
  it('records method, path, realm, user, status, latency and the error of each request, and shows it on the feed', async () => {
    const feed = await openFeed(server);
    try {
      const who = member();
      await call(server, 'GET', '/api/v1/messages', { as: who, query: { anchor: 'foo', num_before: '1', num_after: '1' } });
      const summary = await feed.next('exchange', (x) => x.path === '/api/v1/messages');
      expect(summary).toMatchObject({
        method: 'GET',
        path: '/api/v1/messages',
        realm: 'demo',
        user: who.email,
        status: 400,
        code: 'BAD_REQUEST',
        msg: 'Invalid anchor',
        validation: true,
      });
      expect(summary.ms).toBeGreaterThanOrEqual(0);
      // A state push follows the request (realms, clocks, queues).
      const state = await feed.next('state');
      expect((state.realms as { realm_id: string }[]).map((r) => r.realm_id)).toContain('demo');
    } finally {
      feed.close();
    }
  });

  it('marks a missing parameter as a validation error and names the parameter', async () => {
    const feed = await openFeed(server);
    try {
      await send(server, member(), { type: 'stream', to: '"general"' });
      const summary = await feed.next('exchange', (x) => x.method === 'POST' && x.path === '/api/v1/messages');
      expect(summary).toMatchObject({ status: 400, code: 'REQUEST_VARIABLE_MISSING', validation: true, var_name: 'content' });
      // A refused login is an error, not a validation error.
      await call(server, 'GET', '/api/v1/users/me', { as: { email: 'nobody@x.test', api_key: 'wrong' } });
      expect(await feed.next('exchange', (x) => x.path === '/api/v1/users/me')).toMatchObject({ status: 401, validation: false });
    } finally {
      feed.close();
    }
  });

  it('shows the bodies of an exchange with every credential redacted, the form password and the answered api_key alike', async () => {
    const feed = await openFeed(server);
    try {
      const who = member();
      const password = 'not-the-password';
      await call(server, 'POST', '/api/v1/fetch_api_key', { form: { username: who.email, password } });
      await call(server, 'GET', `/__mock/realms/demo/credentials`);
      const credentials = await feed.next('exchange', (x) => x.path === '/__mock/realms/demo/credentials');
      const login = feed.seen.find((x) => x.path === '/api/v1/fetch_api_key')!;
      const shownLogin = (await call(server, 'GET', `/__inspector/exchanges/${login.id}`)).body.exchange as Json;
      expect(JSON.stringify(shownLogin)).not.toContain(password);
      expect(shownLogin.request).toMatchObject({ type: 'application/x-www-form-urlencoded' });
      expect(JSON.parse((shownLogin.request as Json).text as string)).toEqual({ username: who.email, password: '[redacted]' });
      const shown = (await call(server, 'GET', `/__inspector/exchanges/${credentials.id}`)).body.exchange as Json;
      const text = (shown.response as Json).text as string;
      expect(text).toContain(who.email);
      expect(text).not.toContain(who.api_key);
      expect(text).toContain('"api_key": "[redacted]"');
    } finally {
      feed.close();
    }
  });

  it('leaves out its own traffic, and answers a clear 404 for an exchange it no longer holds', async () => {
    const feed = await openFeed(server);
    try {
      const res = await call(server, 'GET', '/__inspector/exchanges/99999999');
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ result: 'error', code: 'NOT_FOUND' });
      expect((await call(server, 'GET', '/__inspector/exchanges/x')).status).toBe(404);
      await call(server, 'GET', '/api/v1/server_settings');
      await feed.next('exchange', (x) => x.path === '/api/v1/server_settings');
      expect(feed.seen.filter((x) => String(x.path).startsWith('/__inspector/'))).toEqual([]);
    } finally {
      feed.close();
    }
  });
});

describe('GET /__inspector/operations', () => {
  it("lists the document's operations for the fault rule form", async () => {
    const res = await call(server, 'GET', '/__inspector/operations');
    expect(res.status).toBe(200);
    const operations = res.body.operations as { operation: string; method: string; path: string }[];
    expect(operations).toContainEqual({ operation: 'send-message', method: 'POST', path: '/api/v1/messages' });
    expect(operations).toContainEqual({ operation: 'get-own-user', method: 'GET', path: '/api/v1/users/me' });
    expect(new Set(operations.map((o) => o.operation)).size).toBe(operations.length);
  });
});

describe('GET /__mock/realms/:realm/queues', () => {
  it("lists a realm's live queues with their pending events", async () => {
    const who = member();
    const { queueId } = await openQueue(server, who, { event_types: '["message"]' });
    await send(server, who, { type: 'stream', to: 'home', topic: 'inspector', content: 'queued for the inspector' });
    const res = await call(server, 'GET', '/__mock/realms/demo/queues');
    expect(res.status).toBe(200);
    const queue = (res.body.queues as Json[]).find((q) => q.queue_id === queueId);
    expect(queue).toMatchObject({ user_id: expect.any(Number), email: who.email, event_types: ['message'], pending: 1, waiting: false });
    expect((queue!.events as Json[])[0]).toMatchObject({ type: 'message', id: 0 });
    expect((await call(server, 'GET', '/__mock/realms/nowhere/queues')).body).toMatchObject({ result: 'error', code: 'NOT_FOUND' });
  });
});

describe('the latest conformance report', () => {
  it('is listed on the feed and served sandboxed from the report directory, nothing else from there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tc-inspector-report-'));
    const own = await startTestServer({ reportDir: dir });
    try {
      const before = await openFeed(own);
      expect(((await before.next('hello')).state as { report: { files: unknown[] } }).report.files).toEqual([]);
      before.close();
      await writeFile(join(dir, 'conformance.html'), '<!doctype html><title>report</title><p>42 passed</p>');
      await writeFile(join(dir, 'secret.txt'), 'not for the page');
      const feed = await openFeed(own);
      const { report } = (await feed.next('hello')).state as { report: { files: { name: string; url: string }[] } };
      feed.close();
      expect(report.files.map((f) => [f.name, f.url])).toEqual([['conformance.html', '/__inspector/report/conformance.html']]);
      const page = await call(own, 'GET', '/__inspector/report/conformance.html');
      expect(page.status).toBe(200);
      expect(page.text).toContain('42 passed');
      expect(page.headers['content-security-policy']).toMatch(/^sandbox allow-scripts;/);
      expect((await call(own, 'GET', '/__inspector/report/junit.xml')).body).toMatchObject({
        result: 'error',
        code: 'BAD_REQUEST',
        msg: 'Not Found',
      });
      expect((await call(own, 'GET', '/__inspector/report/secret.txt')).status).toBe(404);
      expect((await call(own, 'GET', '/__inspector/report/..%2Fsecret.txt')).status).toBe(404);
    } finally {
      await own.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('live pages', () => {
  it('are capped with a clear error, each freed when its connection closes', async () => {
    const feeds: Feed[] = [];
    try {
      for (let i = 0; i < 16; i++) feeds.push(await openFeed(server));
      const refused = await call(server, 'GET', '/__inspector/feed');
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
      expect(refused.body.msg).toMatch(/Too many inspector pages/);
      // One page goes: its place is free again (the server noticed the closed connection).
      feeds.pop()!.close();
      await expect
        .poll(
          async () =>
            (await openFeed(server).then(
              (f) => (feeds.push(f), 200),
              () => 400,
            )) === 200,
        )
        .toBe(true);
    } finally {
      for (const feed of feeds) feed.close();
    }
  });

  it('end when the server closes', async () => {
    const own = await startTestServer();
    const feed = await openFeed(own);
    await own.close();
    await expect(feed.ended).resolves.toBe(true);
  });
});

type Json = Record<string, unknown>;
