import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { hostnameOf } from '../../../cli/hosts.js';
import { ownerOnly } from '../../src/http/owner-guard.js';
import { call, callControl, credentials, startTestServer } from '../helpers/test-server.js';

/**
 * The control API and the inspector obey only the developer (http/owner-guard.ts): what a web page of another
 * site can send (a form, a text/plain or multipart body, a bare POST), a foreign Host (DNS rebinding) and a foreign
 * Origin change nothing and read nothing. The API under /api/v1 is not concerned.
 */
let server: MockServer;
let open: MockServer;
const TOKEN = 'owner-guard-test-token-0123456789';

beforeAll(async () => {
  server = await startTestServer({ allowHosts: ['mock.internal'] });
  open = await startTestServer({ controlToken: TOKEN });
});
afterAll(async () => {
  await server.close();
  await open.close();
});

const port = () => new URL(server.url).port;
const realms = (s = server) => s.control.listRealms().map((r) => r.realm_id);

describe('a call that changes something', () => {
  it('as a form (what any web page can post cross-site) answers 415 JSON and creates nothing', async () => {
    const res = await call(server, 'POST', '/__mock/realms', { form: { realm_id: 'from-a-form' } });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: expect.stringContaining('Content-Type: application/json') });
    expect(realms()).not.toContain('from-a-form');
  });

  it('as multipart or as JSON sent as text/plain answers 415 and moves no clock', async () => {
    const before = demoNow();
    const multipart = await call(server, 'POST', '/__mock/realms/demo/clock/advance', { multipart: { seconds: '86400' } });
    expect(multipart.status).toBe(415);
    const text = await call(server, 'POST', '/__mock/realms/demo/clock/advance', {
      headers: { 'content-type': 'text/plain' },
      body: '{"seconds":86400}',
    });
    expect(text.status).toBe(415);
    expect(text.body.msg).toContain('not text/plain');
    expect(demoNow()).toBe(before);
  });

  it('with a body but no Content-Type (a no-cors fetch of a Blob) answers 415, even with the header', async () => {
    const res = await call(server, 'POST', '/__mock/realms', { body: '{"realm_id":"typeless"}', headers: { 'x-teamchat-control': '1' } });
    expect(res.status).toBe(415);
    expect(realms()).not.toContain('typeless');
  });

  it('without a body needs X-Teamchat-Control (400 naming it), and passes with it', async () => {
    await server.control.saveSnapshot('demo', 'kept');
    const bare = await call(server, 'DELETE', '/__mock/realms/demo/snapshots/kept');
    expect(bare.status).toBe(400);
    expect(bare.body.msg).toContain('X-Teamchat-Control: 1');
    expect(server.control.listSnapshots('demo')).toContain('kept');
    const bareReset = await call(server, 'POST', '/__mock/realms/demo/reset');
    expect(bareReset.status).toBe(400);
    expect((await callControl(server, 'DELETE', '/__mock/realms/demo/snapshots/kept')).status).toBe(200);
    expect(server.control.listSnapshots('demo')).not.toContain('kept');
  });

  it('as JSON (any charset parameter) is taken', async () => {
    const res = await call(server, 'POST', '/__mock/realms', {
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
      body: JSON.stringify({ realm_id: 'by-json' }),
    });
    expect(res.status).toBe(201);
    expect(realms()).toContain('by-json');
    expect((await callControl(server, 'DELETE', '/__mock/realms/by-json')).status).toBe(200);
  });

  it('is refused the same way behind a control token, after the token is checked', async () => {
    const bearer = { authorization: `Bearer ${TOKEN}` };
    const res = await call(open, 'POST', '/__mock/realms', { headers: bearer, form: { realm_id: 'tokened-form' } });
    expect(res.status).toBe(415);
    expect(realms(open)).not.toContain('tokened-form');
    expect((await call(open, 'POST', '/__mock/realms', { headers: bearer, json: { realm_id: 'tokened' } })).status).toBe(201);
  });
});

describe('the Host rule (DNS rebinding)', () => {
  const foreign = { host: `rebound.example:${9991}` };

  it('refuses a foreign Host on GET credentials, the inspector page, its feed and files (403 naming the rule)', async () => {
    const credentialsRes = await call(server, 'GET', '/__mock/realms/demo/credentials', { headers: foreign });
    expect(credentialsRes.status).toBe(403);
    expect(credentialsRes.body).toEqual({ result: 'error', code: 'UNAUTHORIZED', msg: expect.stringContaining('--allow-host') });
    expect(credentialsRes.text).not.toContain('api_key');
    for (const [path, headers] of [
      ['/', { accept: 'text/html' }],
      ['/__inspector/feed', {}],
      ['/__inspector/inspector.js', {}],
      ['/__inspector/exchanges/1', {}],
      ['/__inspector/operations', {}],
      ['/__MOCK/realms', {}],
    ] as const) {
      const res = await call(server, 'GET', path, { headers: { ...headers, ...foreign } });
      expect(res.status, path).toBe(403);
      expect(res.body.code, path).toBe('UNAUTHORIZED');
    }
  });

  it('refuses a foreign Host on a call that changes something, whatever its body', async () => {
    const res = await callControl(server, 'POST', '/__mock/realms', { realm_id: 'rebound' }, { headers: foreign });
    expect(res.status).toBe(403);
    expect(realms()).not.toContain('rebound');
  });

  it('answers IP addresses, localhost and the names given with --allow-host (any case)', async () => {
    for (const host of [
      `127.0.0.1:${port()}`,
      `127.8.9.10:${port()}`,
      `[::1]:${port()}`,
      `10.1.2.3:${port()}`,
      `localhost:${port()}`,
      'LocalHost',
      'mock.internal',
      `MOCK.internal:${port()}`,
    ]) {
      const res = await call(server, 'GET', '/__mock/realms/demo/credentials', { headers: { host } });
      expect(res.status, host).toBe(200);
    }
    for (const host of ['localhost.', 'evil.localhost', 'mock.internal.evil.example', `127.0.0.1.nip.io:${port()}`]) {
      expect((await call(server, 'GET', '/__mock/', { headers: { host } })).status, host).toBe(403);
    }
  });

  it('answers the name the server was told to listen on', () => {
    const guard = ownerOnly({ host: 'Dev-Box' });
    const outcome = (host: string) => {
      let passed: unknown = 'not called';
      guard({ headers: { host } } as never, {} as never, (error?: unknown) => (passed = error));
      return passed;
    };
    expect(outcome('dev-box:9991')).toBeUndefined();
    expect(outcome('other-box:9991')).toMatchObject({ status: 403 });
  });

  it('reads a Host header as a browser writes it', () => {
    expect(hostnameOf('Example.COM:80')).toBe('example.com');
    expect(hostnameOf('[::1]:9991')).toBe('::1');
    expect(hostnameOf('127.0.0.1')).toBe('127.0.0.1');
    for (const bad of ['', 'a:b:c', 'host:port', 'x y']) expect(hostnameOf(bad), bad).toBeNull();
  });

  it('leaves the API alone: /api/v1 answers any Host', async () => {
    const res = await call(server, 'GET', '/api/v1/users/me', { as: credentials(server).member!, headers: foreign });
    expect(res.status).toBe(200);
  });
});

describe('the Origin rule', () => {
  it('refuses a page of another origin on reads and writes (403), and takes the server’s own', async () => {
    const evil = { origin: 'http://evil.example' };
    const read = await call(server, 'GET', '/__mock/realms/demo/credentials', { headers: evil });
    expect(read.status).toBe(403);
    expect(read.body.msg).toContain('Origin: http://evil.example');
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    const write = await callControl(server, 'POST', '/__mock/realms', { realm_id: 'from-evil' }, { headers: evil });
    expect(write.status).toBe(403);
    expect(realms()).not.toContain('from-evil');
    expect((await call(server, 'GET', '/__mock/', { headers: { origin: 'null' } })).status).toBe(403);
    expect((await call(server, 'GET', '/__inspector/operations', { headers: evil })).status).toBe(403);
    const own = await callControl(server, 'POST', '/__mock/realms/demo/clock/advance', { seconds: 1 }, { headers: { origin: server.url } });
    expect(own.status).toBe(200);
  });
});

/** The demo realm's time (UNIX seconds), which a control call that got through could move. */
const demoNow = () => {
  const clock = server.control.clock('demo');
  if (!('now' in clock)) throw new Error('the demo realm has no clock');
  return clock.now;
};
