import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { packagePath } from '../../cli/package-root.js';
import { isMockStatus, Target, TargetError } from '../src/target.js';

/**
 * What the suite takes its target for, against node:http stand-ins on loopback (never the mock itself): a mock
 * only when `/__mock/` answers as the mock's control API does, a server otherwise (never asked for a world file),
 * and a target that does not speak the API at all named in one line, without a hint about world files.
 */
type Handler = (req: IncomingMessage, res: ServerResponse, path: string) => void;
const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

let servers: Server[] = [];
let paths: string[] = [];

async function serve(handler: Handler): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url!.split('?')[0]!;
      paths.push(`${req.method} ${path}`);
      handler(req, res, path);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  servers = [];
  paths = [];
});

/** Register as a Team Chat server answers it (spec §4.21), at level 333; `rest` serves everything else. */
const teamChat =
  (rest: Handler): Handler =>
  (req, res, path) => {
    if (req.method === 'POST' && path === '/api/v1/register')
      return json(res, 200, { result: 'success', msg: '', queue_id: 'q-1', last_event_id: -1, service_feature_level: 333 });
    if (req.method === 'DELETE' && path === '/api/v1/events') return json(res, 200, { result: 'success', msg: '' });
    rest(req, res, path);
  };

/** The mock's GET /__mock/ answer, as docs/control-api.md describes it. */
const MOCK_STATUS = {
  result: 'success',
  msg: '',
  service: 'teamchat-kit 0.1.0 (feature level 412)',
  realms: [{ realm_id: 'demo', name: 'Demo', fixture: 'demo', seed: 1, feature_level: 412, now: 1, clock_offset: 0, users: 30 }],
  clock: { mode: 'frozen', server_now: 1 },
  queues: 0,
  memory: { rss: 1, heap_used: 1 },
};

describe('a target is a mock only if its /__mock/ answers like the mock', () => {
  it.each([
    ['an empty JSON object', {}],
    ['a success envelope', { result: 'success', msg: '' }],
    ['realms and a clock without the service name', { ...MOCK_STATUS, service: undefined }],
    ['another service name', { ...MOCK_STATUS, service: 'acme chat 2.0' }],
    ['realms that are not realms', { ...MOCK_STATUS, realms: ['demo'] }],
  ])('a catch-all answering 200 with %s is a server, never asked for a world file', async (_name, body) => {
    const url = await serve(teamChat((_req, res) => json(res, 200, body)));
    const target = await Target.connect(url);
    expect(target.control).toBe(false);
    expect(target.featureLevel).toBe(333);
    expect(paths.filter((p) => p.includes('/__mock/'))).toEqual(['GET /__mock/']);
  });

  it('a catch-all answering 200 with an HTML page is a server', async () => {
    const url = await serve(teamChat((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>')));
    expect((await Target.connect(url)).control).toBe(false);
  });

  it("the mock's own answer: a mock, whose demo realm's world file the suite reads", async () => {
    const world = JSON.parse(await readFile(packagePath('fixtures/world.demo.json'), 'utf8')) as unknown;
    const url = await serve(
      teamChat((_req, res, path) => {
        if (path === '/__mock/') return json(res, 200, MOCK_STATUS);
        if (path === '/__mock/realms/demo/world') return json(res, 200, { result: 'success', msg: '', world });
        json(res, 404, { result: 'error', code: 'BAD_REQUEST', msg: 'Not Found' });
      }),
    );
    const target = await Target.connect(url);
    expect(target.control).toBe(true);
    expect(paths).toContain('GET /__mock/realms/demo/world');
  });

  it('isMockStatus: only a 200 JSON answer with every part of the shape', () => {
    expect(isMockStatus(200, JSON.stringify(MOCK_STATUS))).toBe(true);
    expect(isMockStatus(201, JSON.stringify(MOCK_STATUS))).toBe(false);
    expect(isMockStatus(200, JSON.stringify({ ...MOCK_STATUS, clock: {} }))).toBe(false);
    expect(isMockStatus(200, JSON.stringify({ ...MOCK_STATUS, result: 'error' }))).toBe(false);
    expect(isMockStatus(200, 'not json')).toBe(false);
  });
});

describe('a target that does not speak the API', () => {
  const refuse = async (handler: Handler, world?: string): Promise<TargetError> => {
    const url = await serve(handler);
    const error = await Target.connect(url, world).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TargetError);
    return error as TargetError;
  };

  it('answering 501 text/html to everything: one line saying so, no hint about world files', async () => {
    const error = await refuse((_req, res) => res.writeHead(501, { 'content-type': 'text/html' }).end('<h1>Not Implemented</h1>'));
    const url = `http://127.0.0.1:${(servers[0]!.address() as AddressInfo).port}`;
    expect(error.message).toBe(
      `the target at ${url} does not answer the Team Chat API (POST /api/v1/register answered 501 text/html; GET /api/v1/server_settings answered 501 text/html)`,
    );
    expect(error.message).not.toMatch(/--world|credentials/);
  });

  it('answering JSON that is not the envelope: named as such', async () => {
    const error = await refuse((_req, res) => json(res, 200, {}));
    expect(error.message).toMatch(
      /does not answer the Team Chat API \(POST \/api\/v1\/register answered 200 application\/json, not the API's envelope; GET \/api\/v1\/server_settings answered 200 application\/json, not the API's envelope\)$/,
    );
  });

  it('answering 404 without a content type', async () => {
    const error = await refuse((_req, res) => res.writeHead(404).end());
    expect(error.message).toMatch(/register answered 404 without a content type; .*server_settings answered 404 without a content type\)$/);
  });

  it('a server whose register alone is broken: named, since server_settings speaks the API', async () => {
    const error = await refuse((_req, res, path) =>
      path === '/api/v1/server_settings'
        ? json(res, 200, { result: 'success', msg: '', service_feature_level: 333 })
        : res.writeHead(500, { 'content-type': 'text/plain' }).end('boom'),
    );
    expect(error.message).toMatch(
      /^POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/register answered 500 text\/plain, though GET \/api\/v1\/server_settings/,
    );
    expect(error.message).not.toContain('--world');
  });

  it('an API refusing the credentials: the world file is what to change', async () => {
    const unauthorized: Handler = (_req, res) => json(res, 401, { result: 'error', code: 'UNAUTHORIZED', msg: 'Invalid API key' });
    expect((await refuse(unauthorized)).message).toMatch(/pass --world FILE describing the target$/);
    expect((await refuse(unauthorized, 'fixtures/world.demo.json')).message).toMatch(
      /check the credentials in fixtures\/world\.demo\.json$/,
    );
  });

  it('another error of the API: its answer, without a hint about world files', async () => {
    const error = await refuse((_req, res) => json(res, 400, { result: 'error', code: 'BAD_REQUEST', msg: 'Invalid event type' }));
    expect(error.message).toBe(
      `register as the world's member failed (400): {"result":"error","code":"BAD_REQUEST","msg":"Invalid event type"}`,
    );
  });
});
