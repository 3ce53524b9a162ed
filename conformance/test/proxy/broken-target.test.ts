import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { FormData, request } from 'undici';
import { startTarget, type TestTarget } from './target.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRules } from '../../src/catalogue.js';
import type { RuleDef, RunResult } from '../../src/model.js';
import { OPENAPI_PATH, ResponseSchemas } from '../../src/openapi.js';
import { main } from '../../src/proxy/cli.js';
import { ContractFacts } from '../../src/proxy/contract.js';
import { startProxy, type RunningProxy } from '../../src/proxy/proxy.js';
import { junitSchemaErrors } from '../report/junit-schema.js';

/**
 * The proxy in front of a deliberately broken server: a small node:http server whose
 * answers are right except for one planted fault per request. Every fault must be reported with the rule
 * it breaks, and the answers must reach the client byte for byte.
 */
const KEY = 'SeCrEtKeY-0123456789abcdef';
const AUTH = `Basic ${Buffer.from(`iago@broken.test:${KEY}`).toString('base64')}`;

type Body = Record<string, unknown>;
let api: OpenAPIV3_1.Document;
const example = (path: string, method: 'get' | 'post' | 'patch', status: string, name: string): Body => {
  const op = api.paths![path]![method]!;
  const json = (op.responses![status] as OpenAPIV3_1.ResponseObject).content!['application/json']!;
  return structuredClone((json.examples![name] as OpenAPIV3_1.ExampleObject).value as Body);
};

/** What the broken server answers, by method and path; each entry plants one fault (or none: the control). */
function broken(): Record<string, () => [number, Body]> {
  const settings = { ...example('/api/v1/server_settings', 'get', '200', 'current'), service_feature_level: 400, zulip_feature_level: 400 };
  const drafts = example('/api/v1/drafts', 'get', '200', 'one-draft');
  delete drafts.drafts; // a dropped required field
  const messages = example('/api/v1/messages', 'get', '200', 'newest');
  (messages.messages as Body[])[0]!.subject = ''; // the empty topic shown to a client that did not declare support
  const register: Body = {
    ...example('/api/v1/register', 'post', '200', 'messages-only'),
    service_feature_level: 400,
    zulip_feature_level: 400,
  };
  (register.unread_msgs as { streams: Body[] }).streams[0]!.topic = ''; // to a client without empty_topic_name
  const message = { ...(messages.messages as Body[])[0]! };
  return {
    'GET /api/v1/server_settings': () => [200, settings],
    'POST /api/v1/register': () => [200, register],
    'GET /api/v1/events': () => [200, { result: 'success', msg: '', events: [{ type: 'message', id: 0, message, flags: [] }] }],
    'GET /api/v1/drafts': () => [200, drafts],
    // NOT_FOUND answered as BAD_REQUEST for an unknown navigation view.
    'PATCH /api/v1/navigation_views/nowhere': () => [404, { result: 'error', code: 'BAD_REQUEST', msg: 'Navigation view does not exist.' }],
    // An error answered as a success, both ways.
    'POST /api/v1/messages/render': () => [200, { result: 'error', code: 'BAD_REQUEST', msg: 'Missing content' }],
    'POST /api/v1/drafts': () => [400, { result: 'success', msg: '', ids: [1] }],
    // An unknown parameter (`colour`) used, not listed in ignored_parameters_unsupported.
    'HEAD /api/v1/users/me': () => [200, {}],
    'GET /api/v1/users/me': () => [200, example('/api/v1/users/me', 'get', '200', Object.keys(examplesOf('/api/v1/users/me'))[0]!)],
    // Fields of level 407 (channel delete-permission groups) while the server announced 400.
    'GET /api/v1/streams': () => [200, example('/api/v1/streams', 'get', '200', 'one-channel')],
    'GET /api/v1/messages': () => [200, messages],
    // A documented code with a message of its own words.
    'POST /api/v1/messages': () => [
      400,
      { result: 'error', code: 'REQUEST_VARIABLE_MISSING', msg: 'content is needed', var_name: 'content' },
    ],
    // BAD_REQUEST with the 404 another operation documents: get-message documents it with 400 only.
    'GET /api/v1/messages/7': () => [404, { result: 'error', code: 'BAD_REQUEST', msg: 'Invalid message(s)' }],
  };
}
const examplesOf = (path: string) =>
  ((api.paths![path]!.get!.responses!['200'] as OpenAPIV3_1.ResponseObject).content!['application/json']!.examples ?? {}) as Record<
    string,
    unknown
  >;

/** The planted faults: the request, and the rule the proxy must name. */
const PLANTED: { name: string; method: string; path: string; form?: Record<string, string>; rule: string }[] = [
  { name: 'a dropped required field', method: 'GET', path: '/api/v1/drafts', rule: 'R1-3' },
  { name: 'a dropped required field in a gzip-encoded answer', method: 'GET', path: '/api/v1/saved_snippets', rule: 'R1-3' },
  { name: 'a wrong error code', method: 'PATCH', path: '/api/v1/navigation_views/nowhere', form: { is_pinned: 'true' }, rule: 'R7-4' },
  { name: 'an error answered with HTTP 200', method: 'POST', path: '/api/v1/messages/render', form: { content: 'x' }, rule: 'R7-1' },
  { name: 'a success answered with HTTP 400', method: 'POST', path: '/api/v1/drafts', form: { drafts: '[]' }, rule: 'R1-3' },
  { name: 'an unknown parameter not listed as ignored', method: 'GET', path: '/api/v1/users/me?colour=red', rule: 'R1-4' },
  { name: 'a field above the announced feature level', method: 'GET', path: '/api/v1/streams', rule: 'R9-11' },
  { name: 'an empty topic shown without allow_empty_topic_name', method: 'GET', path: '/api/v1/messages?anchor=newest', rule: 'R1-8' },
  {
    name: 'a message not in the documented form',
    method: 'POST',
    path: '/api/v1/messages',
    form: { to: '1', type: 'stream' },
    rule: 'R7-1',
  },
  { name: 'BAD_REQUEST with another status than documented', method: 'GET', path: '/api/v1/messages/7', rule: 'R7-7' },
  {
    name: 'an empty topic in a register answer',
    method: 'POST',
    path: '/api/v1/register',
    form: { event_types: '["message"]' },
    rule: 'R4.21-17',
  },
  {
    name: "an empty topic in the events of that register's queue",
    method: 'GET',
    path: '/api/v1/events?queue_id=fb67bf8a-c031-47cc-84cf-ed80accacda8&last_event_id=-1',
    rule: 'R4.21-17',
  },
];

let target: TestTarget;
let targetUrl: string;
const seen: { path: string; authorization?: string; body: string }[] = [];
let schemas: ResponseSchemas;
let facts: ContractFacts;
let catalogue: RuleDef[];

beforeAll(async () => {
  [api, schemas, facts, catalogue] = await Promise.all([
    SwaggerParser.dereference(OPENAPI_PATH) as Promise<OpenAPIV3_1.Document>,
    ResponseSchemas.load(),
    ContractFacts.load(),
    loadRules(),
  ]);
  const answers = broken();
  target = await startTarget((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        path: req.url ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
        ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
      });
      // A long-poll that never ends on its own: only the proxy's stop may end it.
      if ((req.url ?? '').startsWith('/api/v1/events?queue_id=hold')) return;
      // Big answers (users padded to a size): kept shortened in the report, or past the cap not judged.
      const size = /^\/api\/v1\/users\?chars=(\d+)$/.exec(req.url ?? '');
      if (size)
        return void res.writeHead(200).end(
          JSON.stringify({
            result: 'success',
            msg: '',
            ignored_parameters_unsupported: ['chars'],
            members: [],
            pad: 'x'.repeat(Number(size[1])),
          }),
        );
      // A compressed answer missing its list: judged only if the proxy decodes it.
      if (req.url === '/api/v1/saved_snippets')
        return void res
          .writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
          .end(gzipSync('{"result":"success","msg":""}'));
      const answer = answers[`${req.method} ${(req.url ?? '').split('?')[0]}`];
      const [status, body] = answer ? answer() : [404, { result: 'error', code: 'BAD_REQUEST', msg: 'Not Found' }];
      res.writeHead(status, { 'content-type': 'application/json', 'x-planted': 'yes' }).end(JSON.stringify(body));
    });
  });
  targetUrl = target.url;
}, 30_000);
afterAll(() => target.close());

const send = async (base: string, p: (typeof PLANTED)[number] | { method: string; path: string; form?: Record<string, string> }) => {
  const res = await request(base + p.path, {
    method: p.method as 'GET',
    headers: { authorization: AUTH, ...(p.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    ...(p.form ? { body: new URLSearchParams(p.form).toString() } : {}),
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
};

/** Each violation of the run as `METHOD path rule`. */
function violations(run: RunResult): { where: string; rule: string | null; message: string }[] {
  return run.scenarios.flatMap((s) =>
    s.checks
      .filter((c) => !c.ok)
      .map((c) => {
        const x = s.exchanges[c.exchange!]!;
        return { where: `${x.method} ${x.path}`, rule: c.rule, message: c.message };
      }),
  );
}

describe('teamchat proxy in front of a broken server', () => {
  let proxy: RunningProxy;
  let run: RunResult;
  const output: string[] = [];
  beforeAll(async () => {
    proxy = await startProxy({ target: targetUrl, out: { write: (s: string) => output.push(s) }, schemas, facts, catalogue });
    await send(proxy.url, { method: 'GET', path: '/api/v1/server_settings' });
    for (const p of PLANTED) await send(proxy.url, p);
    run = await proxy.stop();
  });

  it.each(PLANTED)('reports $name as $rule', (p) => {
    const found = violations(run).filter((v) => v.where === `${p.method} ${p.path}`);
    expect(
      found.map((v) => v.rule),
      JSON.stringify(found),
    ).toContain(p.rule);
  });

  it('prints each violation live with its rule, section and exchange', () => {
    const text = output.join('');
    expect(text).toContain('feature level 400 announced to @broken.test');
    expect(text).toMatch(/✗ R7-4 §7 {2}PATCH \/api\/v1\/navigation_views\/nowhere → 404/);
    expect(text).toMatch(/✗ R9-11 §9 {2}GET \/api\/v1\/streams → 200/);
    expect(text).toContain('can_delete_any_message_group');
  });

  it('forwards the broken answers unchanged and passes credentials through untouched', async () => {
    const again = await startProxy({ target: targetUrl, schemas, facts, catalogue });
    try {
      const direct = await send(
        targetUrl,
        PLANTED.find((p) => p.name === 'a wrong error code')!,
      );
      const proxied = await send(
        again.url,
        PLANTED.find((p) => p.name === 'a wrong error code')!,
      );
      expect(proxied.status).toBe(direct.status);
      expect(proxied.text).toBe(direct.text);
      expect(proxied.headers['x-planted']).toBe('yes');
      const form = new FormData();
      form.append('content', '**hi** ü');
      form.append('api_key', KEY);
      await request(`${again.url}/api/v1/messages/render?api_key=${KEY}`, { method: 'POST', headers: { authorization: AUTH }, body: form });
      const last = seen.at(-1)!;
      expect(last.authorization).toBe(AUTH);
      expect(last.path).toBe(`/api/v1/messages/render?api_key=${KEY}`);
      expect(last.body).toContain('**hi** ü');
      expect(last.body).toContain(KEY);
    } finally {
      await again.stop();
    }
  });

  it('stops with a long-poll open: the waiting client is cut, nothing is judged of it', async () => {
    const polling = await startProxy({ target: targetUrl, schemas, facts, catalogue });
    const waiting = send(polling.url, { method: 'GET', path: '/api/v1/events?queue_id=hold&last_event_id=-1' }).then(
      () => 'answered',
      () => 'cut',
    );
    await new Promise((r) => setTimeout(r, 100));
    const result = await polling.stop();
    expect(await waiting).toBe('cut');
    expect(result.scenarios).toEqual([]);
  });

  it('keeps a big answer shortened, and forwards one past the capture cap whole without judging it', async () => {
    const big = await startProxy({ target: targetUrl, schemas, facts, catalogue });
    const shortened = await send(big.url, { method: 'GET', path: '/api/v1/users?chars=400000' });
    const whole = await send(big.url, { method: 'GET', path: '/api/v1/users?chars=3000000' });
    const result = await big.stop();
    const direct = [
      await send(targetUrl, { method: 'GET', path: '/api/v1/users?chars=400000' }),
      await send(targetUrl, { method: 'GET', path: '/api/v1/users?chars=3000000' }),
    ];
    expect([shortened.text, whole.text]).toEqual(direct.map((d) => d.text));
    const kept = result.scenarios.find((s) => s.id === 'get-users')!.exchanges;
    expect(kept[0]!.body).toMatch(new RegExp(`… \\(${shortened.text.length} characters, the first 262144 kept\\)$`));
    // Past the cap: forwarded whole, not parsed, so neither judged nor kept as a body.
    expect(kept[1]!.body).toBeNull();
    expect(big.recorder.violations).toBe(0);
  });

  it('forwards HEAD without judging its empty body', async () => {
    const head = await startProxy({ target: targetUrl, schemas, facts, catalogue });
    const res = await send(head.url, { method: 'HEAD', path: '/api/v1/users/me' });
    await head.stop();
    expect([res.status, res.text]).toEqual([200, '']);
    expect([head.recorder.exchanges, head.recorder.judged, head.recorder.violations]).toEqual([1, 0, 0]);
  });

  it('answers a JSON 502 when the target is unreachable, and counts it', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const lost = await startProxy({ target: `http://127.0.0.1:${port}`, schemas, facts, catalogue });
    const res = await send(lost.url, { method: 'GET', path: '/api/v1/streams' });
    const result = await lost.stop();
    expect(res.status).toBe(502);
    expect(JSON.parse(res.text)).toMatchObject({ result: 'error', code: 'PROXY_TARGET_UNREACHABLE' });
    expect(lost.recorder.unreachable).toBe(1);
    expect(result.scenarios.find((s) => s.id === 'proxy.target-unreachable')?.status).toBe('error');
  });
});

describe('teamchat proxy as a command', () => {
  it('writes valid reports on exit, exits 1 on violations, and never records the key', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'teamchat-proxy-'));
    try {
      const stop = new AbortController();
      let out = '';
      const io = { stdout: { write: (s: string) => (out += s) }, stderr: { write: (s: string) => (out += s) } };
      const code = main(['--target', targetUrl, '--port', '0', '--report-dir', dir, '--no-color'], io, {
        signal: stop.signal,
        onListening: (url) =>
          void (async () => {
            await send(url, { method: 'GET', path: `/api/v1/drafts?api_key=${KEY}` });
            await send(url, { method: 'POST', path: '/api/v1/messages/render', form: { content: 'x', api_key: KEY } });
            stop.abort();
          })(),
      });
      expect(await code).toBe(1);
      expect((await readdir(dir)).sort()).toEqual(['conformance.html', 'junit.xml', 'report.json']);
      expect(await junitSchemaErrors(await readFile(join(dir, 'junit.xml'), 'utf8'))).toEqual([]);
      const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as RunResult;
      expect(report.scenarios.map((s) => s.id).sort()).toEqual(['get-drafts', 'render-message']);
      expect(report.totals.failed).toBe(2);
      for (const file of await readdir(dir)) expect(await readFile(join(dir, file), 'utf8'), file).not.toContain(KEY);
      expect(out).not.toContain(KEY);
      expect(out).toMatch(/2 exchanges \(2 judged, 2 operations\), \d+ violations/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a missing target with a usage error (exit 2)', async () => {
    let err = '';
    const io = { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) } };
    expect(await main([], io)).toBe(2);
    expect(err).toContain("required option '--target <url>' not specified");
  });
});
