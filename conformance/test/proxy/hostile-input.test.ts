import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { startTarget, type TestTarget } from './target.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRules } from '../../src/catalogue.js';
import type { RuleDef } from '../../src/model.js';
import { ResponseSchemas } from '../../src/openapi.js';
import { ContractFacts } from '../../src/proxy/contract.js';
import { MAX_HEADER_BYTES } from '../../src/proxy/forward.js';
import { DECODED_CAP, requestParams, responseBody } from '../../src/proxy/params.js';
import { isLoopbackAddress } from '../../src/proxy/exposure.js';
import { startProxy } from '../../src/proxy/proxy.js';

/**
 * Input the proxy must survive without misreporting: an answer compressed far past what it decodes to judge
 * (a gzip bomb, which once stalled and crashed it), request targets it cannot forward (absolute-form, `*`),
 * which it once answered as "the target did not answer" and counted against the target, a multipart body cut
 * before its closing boundary (its file stream's error once ended the process), and headers past its limit.
 */
let schemas: ResponseSchemas;
let facts: ContractFacts;
let catalogue: RuleDef[];
let target: TestTarget;
let targetUrl: string;
const reached: string[] = [];
/** JSON nested deeper than a recursive walk of it can go (800 KB, under the capture cap). */
const DEEP = `{"result":"success","msg":"","streams":${'['.repeat(400_000)}${']'.repeat(400_000)}}`;
/** 32 MiB of spaces: valid JSON whitespace around nothing, 32 KiB once gzipped. */
const BOMB = gzipSync(Buffer.alloc(2 * DECODED_CAP, 0x20), { level: 9 });

beforeAll(async () => {
  [schemas, facts, catalogue] = await Promise.all([ResponseSchemas.load(), ContractFacts.load(), loadRules()]);
  target = await startTarget((req, res) => {
    reached.push(req.url ?? '');
    if (req.url === '/api/v1/users/me')
      return void res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(BOMB);
    if (req.url?.startsWith('/api/v1/streams')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(DEEP);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"success","msg":""}');
  });
  targetUrl = target.url;
}, 30_000);
afterAll(() => target.close());

/**
 * Sends raw request bytes (with `Connection: close`, so the server ends the connection after its answer) and
 * keeps the connection open: a client that half-closes at once would lose a forwarded answer. The status
 * line's code and the body of the answer.
 */
function raw(url: string, text: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const answer = Buffer.concat(chunks).toString('utf8');
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1]), body: answer.slice(answer.indexOf('\r\n\r\n') + 4) });
    });
  });
}

describe('teamchat proxy under hostile input', () => {
  it('decodes a compressed answer only up to DECODED_CAP', () => {
    expect(responseBody(BOMB, 'gzip')).toBeNull();
    expect(responseBody(gzipSync('{"result":"success","msg":""}'), 'gzip')).toEqual({ result: 'success', msg: '' });
  });

  it('forwards a gzip bomb unchanged and leaves it unjudged rather than decoding it whole', async () => {
    const proxy = await startProxy({ target: targetUrl, schemas, facts, catalogue });
    const res = await request(`${proxy.url}/api/v1/users/me`);
    const bytes = Buffer.from(await res.body.arrayBuffer());
    await proxy.stop();
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(bytes.equals(BOMB)).toBe(true);
    expect([proxy.recorder.exchanges, proxy.recorder.judged, proxy.recorder.violations]).toEqual([1, 0, 0]);
  });

  it('forwards an answer nested too deep to judge, reports it unjudged, and keeps running', async () => {
    const output: string[] = [];
    const proxy = await startProxy({ target: targetUrl, out: { write: (t: string) => output.push(t) }, schemas, facts, catalogue });
    const deep = await request(`${proxy.url}/api/v1/streams?api_key=SeCrEt`);
    expect(await deep.body.text()).toBe(DEEP);
    const after = await request(`${proxy.url}/api/v1/server_settings`);
    expect(after.statusCode).toBe(200);
    await after.body.text();
    const run = await proxy.stop();
    const unjudged = run.scenarios.find((s) => s.id === 'proxy.unjudged');
    expect(unjudged?.status).toBe('error');
    expect(unjudged?.exchanges.map((x) => x.path)).toEqual(['/api/v1/streams?api_key=%3Credacted%3E']);
    expect(unjudged?.exchanges[0]!.curl).toBe(`curl -sS -X GET '${targetUrl}/api/v1/streams?api_key=%3Credacted%3E'`);
    expect(output.join('')).toMatch(/! GET \/api\/v1\/streams\?api_key=%3Credacted%3E: forwarded, but not judged/);
    expect(output.join('')).not.toContain('SeCrEt');
    expect([proxy.recorder.exchanges, proxy.recorder.unjudged]).toEqual([2, 1]);
  });

  it.each([
    ['an absolute-form target', `GET ${'http://elsewhere.test/api/v1/users/me?api_key=SeCrEt'} HTTP/1.1`],
    ['the asterisk form', 'OPTIONS * HTTP/1.1'],
  ])('answers %s with a JSON 400 of its own, neither forwarded nor counted against the target', async (_name, line) => {
    const proxy = await startProxy({ target: targetUrl, schemas, facts, catalogue });
    reached.length = 0;
    const res = await raw(proxy.url, `${line}\r\nHost: x\r\nConnection: close\r\n\r\n`);
    const run = await proxy.stop();
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect(res.body).not.toContain('SeCrEt');
    expect(reached).toEqual([]);
    expect(proxy.recorder.unreachable).toBe(0);
    expect(run.scenarios).toEqual([]);
  });
});

describe('bodies and headers the proxy cannot read', () => {
  const TRUNCATED = '--X\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\n\r\nabc';

  it('a multipart body whose file part is cut before its closing boundary: no parameters, no crash', async () => {
    expect(await requestParams('/api/v1/user_uploads', 'multipart/form-data; boundary=X', Buffer.from(TRUNCATED))).toBeNull();
    const cutField = '--X\r\nContent-Disposition: form-data; name="content"\r\n\r\nhal';
    expect(await requestParams('/api/v1/messages', 'multipart/form-data; boundary=X', Buffer.from(cutField))).toBeNull();
    expect(await requestParams('/api/v1/messages', 'multipart/form-data', Buffer.from(TRUNCATED))).toBeNull();
  });

  it('forwards such a body to the target as it came, and keeps serving', async () => {
    const failures: unknown[] = [];
    const proxy = await startProxy({ target: targetUrl, schemas, facts, catalogue, onInternalError: (e) => failures.push(e) });
    reached.length = 0;
    for (const path of ['/api/v1/server_settings', '/__mock/realms', '/api/v1/user_uploads']) {
      const res = await request(`${proxy.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=X' },
        body: TRUNCATED,
      });
      expect(res.statusCode, path).toBe(200);
      await res.body.text();
    }
    const after = await request(`${proxy.url}/api/v1/server_settings`);
    expect(after.statusCode).toBe(200);
    await after.body.text();
    await proxy.stop();
    expect(reached).toEqual(['/api/v1/server_settings', '/__mock/realms', '/api/v1/user_uploads', '/api/v1/server_settings']);
    expect(proxy.recorder.exchanges).toBe(4);
    expect(failures).toEqual([]);
  });

  it(`takes request headers up to the mock's ${MAX_HEADER_BYTES} bytes; past them a JSON 431 of its own`, async () => {
    const proxy = await startProxy({ target: targetUrl, schemas, facts, catalogue });
    reached.length = 0;
    const big = await raw(
      proxy.url,
      `GET /api/v1/users/me/x HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40_000)}\r\nConnection: close\r\n\r\n`,
    );
    expect(big.status).toBe(200);
    const huge = await raw(
      proxy.url,
      `GET /api/v1/users/me/y HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70_000)}\r\nConnection: close\r\n\r\n`,
    );
    expect(huge.status).toBe(431);
    expect(JSON.parse(huge.body)).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: `teamchat proxy: request headers are too large (limit: ${MAX_HEADER_BYTES} bytes)`,
    });
    const garbage = await raw(proxy.url, 'NOT HTTP AT ALL\r\n\r\n');
    expect(garbage.status).toBe(400);
    expect(JSON.parse(garbage.body)).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    await proxy.stop();
    expect(reached).toEqual(['/api/v1/users/me/x']);
  });
});

describe('listening beyond loopback', () => {
  const refused = [
    '/__mock/realms/demo/credentials',
    '/__MOCK/realms',
    '//__mock/realms',
    '/%5F_mock/realms',
    '/api/v1/../../__mock/realms',
    '/api/v1/%2e%2e/%2E%2e/__mock/realms/demo/credentials',
    '/__inspector/feed',
    '/',
    '/?token=x',
    '/%zz',
  ];

  it('answers 403 JSON for the control API and the inspector, whatever the spelling, and forwards the API', async () => {
    const proxy = await startProxy({ target: targetUrl, schemas, facts, catalogue, beyondLoopback: true });
    reached.length = 0;
    for (const path of refused) {
      const res = await raw(proxy.url, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(res.status, path).toBe(403);
      expect(JSON.parse(res.body), path).toMatchObject({ result: 'error', code: 'PROXY_CONTROL_REFUSED' });
    }
    const api = await request(`${proxy.url}/api/v1/server_settings`);
    expect(api.statusCode).toBe(200);
    await api.body.text();
    await proxy.stop();
    expect(reached).toEqual(['/api/v1/server_settings']);
    expect(proxy.recorder.unreachable).toBe(0);
  });

  it('on loopback (the default) the control API is forwarded', async () => {
    const proxy = await startProxy({ target: targetUrl, schemas, facts, catalogue });
    reached.length = 0;
    const res = await request(`${proxy.url}/__mock/realms`);
    expect(res.statusCode).toBe(200);
    await res.body.text();
    await proxy.stop();
    expect(reached).toEqual(['/__mock/realms']);
  });

  it('on loopback, forwards the control API only for a local Host: a DNS-rebound page gets 403', async () => {
    const proxy = await startProxy({ target: targetUrl, schemas, facts, catalogue });
    reached.length = 0;
    const { port } = new URL(proxy.url);
    for (const host of [`evil.example:${port}`, 'localhost.evil.example', '']) {
      const header = host === '' ? '' : `Host: ${host}\r\n`;
      const answer = await raw(proxy.url, `GET /__mock/realms/demo/credentials HTTP/1.1\r\n${header}Connection: close\r\n\r\n`);
      expect(answer.status, host).toBe(403);
      expect(JSON.parse(answer.body), host).toMatchObject({ result: 'error', code: 'PROXY_CONTROL_REFUSED' });
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const answer = await raw(proxy.url, `GET /__mock/realms HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(answer.status, host).toBe(200);
    }
    await proxy.stop();
    expect(reached).toEqual(['/__mock/realms', '/__mock/realms', '/__mock/realms']);
  });

  it('tells loopback addresses from the others', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', '::ffff:127.0.0.1', 'localhost'])
      expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ['0.0.0.0', '::', '192.168.1.2', '10.0.0.1', '::ffff:10.0.0.1', '128.0.0.1'])
      expect(isLoopbackAddress(address), address).toBe(false);
  });
});

describe('secrets in the reports', () => {
  it('no secret-named value stays in the run, whatever the name is spelt (apiKey, API-KEY, access_token)', async () => {
    const output: string[] = [];
    const proxy = await startProxy({
      target: targetUrl,
      out: { write: (t: string) => output.push(t) },
      verbose: true,
      schemas,
      facts,
      catalogue,
    });
    const query = '?apiKey=SeCrEt-1&API-KEY=SeCrEt-2&access_token=SeCrEt-3&keep=visible';
    const get = await request(`${proxy.url}/api/v1/server_settings${query}`);
    await get.body.text();
    const post = await request(`${proxy.url}/api/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'Api_Key=SeCrEt-4&newPassword=SeCrEt-5&content=visible',
    });
    await post.body.text();
    const run = await proxy.stop();
    const text = JSON.stringify(run) + output.join('');
    expect(text).not.toMatch(/SeCrEt/);
    expect(text).toContain('keep=visible');
  });
});
