import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { startTarget, type TestTarget } from './target.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRules } from '../../src/catalogue.js';
import type { RuleDef } from '../../src/model.js';
import { ResponseSchemas } from '../../src/openapi.js';
import { ContractFacts } from '../../src/proxy/contract.js';
import { DECODED_CAP, responseBody } from '../../src/proxy/params.js';
import { startProxy } from '../../src/proxy/proxy.js';

/**
 * Input the proxy must survive without misreporting: an answer compressed far past what it decodes to judge
 * (a gzip bomb, which once stalled and crashed it), and request targets it cannot forward (absolute-form,
 * `*`), which it once answered as "the target did not answer" and counted against the target.
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

/** Sends raw request bytes; the status line and body of the answer. */
function raw(url: string, text: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(text));
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
