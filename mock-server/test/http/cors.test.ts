import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { main } from '../../src/cli.js';
import { canonicalOrigin } from '../../src/http/cors.js';
import { call, credentials, startTestServer } from '../helpers/test-server.js';

/**
 * CORS for the origins the developer names (`--cors-origin`, config `corsOrigins`; http/cors.ts): their preflights
 * and answers on /api/v1 and /user_uploads carry what a browser needs for Basic-auth calls; any other origin gets
 * no CORS header, and the control API and the inspector never answer cross-origin. The browser's side of it is
 * cors-browser.test.ts.
 */
const APP = 'http://localhost:3000';
let server: MockServer;
let plain: MockServer;

beforeAll(async () => {
  server = await startTestServer({ corsOrigins: ['http://LOCALHOST:3000/'] });
  plain = await startTestServer();
});
afterAll(async () => {
  await server.close();
  await plain.close();
});

const preflight = (s: MockServer, path: string, origin: string, method = 'POST') =>
  call(s, 'OPTIONS', path, {
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' },
  });

describe('an allowed origin', () => {
  it('gets its preflight answered (204) with the methods, headers and credentials a Basic-auth call needs', async () => {
    for (const path of ['/api/v1/messages', '/api/v1/users/me/subscriptions', '/user_uploads/2/ab/file.txt', '/api/v1/no/such/path']) {
      const res = await preflight(server, path, APP, path.startsWith('/user') ? 'GET' : 'POST');
      expect(res.status, path).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(APP);
      expect(res.headers['access-control-allow-credentials']).toBe('true');
      expect(String(res.headers['access-control-allow-methods']).split(', ')).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      expect(String(res.headers['access-control-allow-headers'])).toMatch(/^Authorization, Content-Type\b/);
      expect(Number(res.headers['access-control-max-age'])).toBeGreaterThan(0);
      expect(res.headers.vary).toContain('Origin');
    }
  });

  it('may read the answers, errors included, and the retry and rate-limit headers', async () => {
    const ok = await call(server, 'GET', '/api/v1/users/me', { as: credentials(server).member!, headers: { origin: APP } });
    expect(ok.status).toBe(200);
    expect(ok.headers['access-control-allow-origin']).toBe(APP);
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    expect(String(ok.headers['access-control-expose-headers'])).toBe(
      'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
    );
    expect(ok.headers.vary).toContain('Origin');
    const refused = await call(server, 'GET', '/api/v1/users/me', { headers: { origin: APP } });
    expect(refused.status).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(APP);
  });
});

describe('any other origin', () => {
  it('gets no CORS header on a preflight or an answer, so its browser keeps the answer from the page', async () => {
    for (const origin of ['http://localhost:3001', 'https://localhost:3000', 'http://evil.example', 'null']) {
      const pre = await preflight(server, '/api/v1/messages', origin);
      expect(pre.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(pre.headers['access-control-allow-credentials'], origin).toBeUndefined();
      const res = await call(server, 'GET', '/api/v1/users/me', { as: credentials(server).member!, headers: { origin } });
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(res.headers.vary, origin).toContain('Origin');
    }
  });

  it('gets none from a server without --cors-origin, whose answers do not vary by Origin either', async () => {
    const pre = await preflight(plain, '/api/v1/messages', APP);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const res = await call(plain, 'GET', '/api/v1/users/me', { as: credentials(plain).member!, headers: { origin: APP } });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
  });
});

describe('the control API and the inspector', () => {
  it('never answer cross-origin, not even an allowed origin', async () => {
    for (const path of ['/__mock/realms/demo/credentials', '/__inspector/feed']) {
      const pre = await preflight(server, path, APP, 'GET');
      expect(pre.status, path).toBe(403);
      expect(pre.headers['access-control-allow-origin'], path).toBeUndefined();
      const res = await call(server, 'GET', path, { headers: { origin: APP } });
      expect(res.status, path).toBe(403);
      expect(res.headers['access-control-allow-origin'], path).toBeUndefined();
      expect(res.text).not.toContain('api_key');
    }
  });
});

describe('the allow-list', () => {
  it('holds origins as browsers send them, and refuses what is not an origin', async () => {
    expect(canonicalOrigin('HTTP://LocalHost:3000/')).toBe('http://localhost:3000');
    expect(canonicalOrigin('http://127.0.0.1:80')).toBe('http://127.0.0.1');
    expect(canonicalOrigin('https://[::1]:8443')).toBe('https://[::1]:8443');
    for (const bad of ['localhost:3000', 'ftp://host', 'http://host/app', 'http://host?x=1', 'http://u:p@host', 'not a url'])
      expect(() => canonicalOrigin(bad), bad).toThrow(/origin/);
    await expect(startTestServer({ corsOrigins: ['http://host/app'] })).rejects.toThrow(/not an origin/);
  });

  it('teamchat serve refuses a --cors-origin or --allow-host that is not one with a usage error (exit 2)', async () => {
    for (const [flag, value, says] of [
      ['--cors-origin', 'localhost:3000', /cors-origin.*localhost:3000 is not an http or https origin/],
      ['--cors-origin', 'http://localhost:3000/app', /not an origin: give scheme, host and port only/],
      ['--allow-host', 'http://mock.internal', /allow-host.*is not a host name/],
      ['--allow-host', 'mock.internal:9991', /is not a host name: give the name alone/],
    ] as const) {
      const err: string[] = [];
      const io = { stdout: { write: () => true }, stderr: { write: (s: string) => (err.push(s), true) } };
      expect(await main(['serve', '--in-memory', '--port', '0', flag, value], io), value).toBe(2);
      expect(err.join(''), value).toMatch(says);
    }
  });
});
