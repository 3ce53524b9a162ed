import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main, type CliDeps } from '../src/cli.js';
import { junitSchemaErrors } from './report/junit-schema.js';
import { scenario, type Scenario } from '../src/dsl.js';
import type { RuleDef } from '../src/model.js';

/**
 * CI-proof runs: what a CI job sees when the target is wrong or goes away, against small
 * in-test targets on loopback (never the mock server).
 */

type Handler = (req: IncomingMessage, res: ServerResponse, path: string) => void;
const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

/** A Team Chat-like target without the control API: register answers level 333; `extra` serves the rest. */
const teamChat =
  (extra: Handler): Handler =>
  (req, res, path) => {
    if (req.method === 'POST' && path === '/api/v1/register')
      return json(res, 200, { result: 'success', msg: '', queue_id: 'q-1', last_event_id: -1, service_feature_level: 333 });
    if (req.method === 'DELETE' && path === '/api/v1/events') return json(res, 200, { result: 'success', msg: '' });
    extra(req, res, path);
  };
const notFound: Handler = (_req, res) => json(res, 404, { result: 'error', msg: 'Not found', code: 'NOT_FOUND' });

let servers: Server[] = [];
let dir: string;
let out: string[];
let err: string[];

async function serve(handler: Handler): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(req, res, req.url!.split('?')[0]!));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conform-ci-'));
  out = [];
  err = [];
});
afterEach(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  servers = [];
  await rm(dir, { recursive: true, force: true });
});

const CATALOGUE: RuleDef[] = [{ id: 'R1-1', section: '1', area: 'conventions', text: 'The fake endpoint answers 42.' }];
const okAt = (id: string, path = '/api/v1/fake/ok', over: Partial<Scenario> = {}): Scenario =>
  scenario({
    id,
    title: `${id} answers 42`,
    rules: ['R1-1'],
    when: (ctx) => ctx.as('member').get(path),
    then: (ctx, reply) => void ctx.expectSuccess('R1-1', reply, { value: 42 }),
    ...over,
  });
const answer42: Handler = (_req, res, path) =>
  path.startsWith('/api/v1/fake/')
    ? json(res, 200, { result: 'success', msg: '', value: 42 })
    : json(res, 404, { result: 'error', msg: 'Not found', code: 'NOT_FOUND' });

const deps = (scenarios: Scenario[]): CliDeps => ({
  scenarios,
  catalogue: CATALOGUE,
  stdout: { write: (s: string) => out.push(s) },
  stderr: { write: (s: string) => err.push(s) },
});
const conform = (target: string, scenarios: Scenario[], args: string[] = []) =>
  main(['conform', '--target', target, '--report-dir', dir, ...args], deps(scenarios));
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });
const readJson = async () => JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));

describe('a run that cannot start', () => {
  it('against a target answering 404 to everything: exit 2, the three reports with the reason', async () => {
    const { url } = await serve(notFound);
    expect(await conform(url, [okAt('fake/ok')])).toBe(2);
    expect((await readdir(dir)).sort()).toEqual(['conformance.html', 'junit.xml', 'report.json']);
    const junitText = await readFile(join(dir, 'junit.xml'), 'utf8');
    expect(await junitSchemaErrors(junitText)).toEqual([]);
    const junit = xml.parse(junitText);
    expect(junit.testsuites).toMatchObject({ tests: '1', errors: '1' });
    const reason = junit.testsuites.testsuite.testcase.error.message as string;
    expect(reason).toContain('register as the world');
    expect(reason).toContain('the target has no POST /api/v1/register: give the base URL of a Team Chat server');
    expect(err.join('')).toContain('the target has no POST /api/v1/register');
    expect((await readJson()).stopped).toMatchObject({ kind: 'not-started' });
    expect(await readFile(join(dir, 'conformance.html'), 'utf8')).toContain('the target has no POST /api/v1/register');
  });

  it.each(['/api/v1', '/api/v1/'])(
    'against a target URL ending in %s: the hint is to drop the suffix, not the credentials',
    async (suffix) => {
      const { url } = await serve(teamChat(notFound));
      expect(await conform(url + suffix, [okAt('fake/ok')])).toBe(2);
      const message = err.join('');
      expect(message).toContain('drop the /api/v1 suffix from the target URL: the suite adds it');
      expect(message).not.toContain('credentials');
      expect((await readJson()).stopped.message).toContain('drop the /api/v1 suffix');
    },
  );

  it('against a target that does not speak the API: one line saying so, exit 2, no hint about world files', async () => {
    const { url } = await serve((_req, res) => res.writeHead(501, { 'content-type': 'text/html' }).end('<h1>Not Implemented</h1>'));
    expect(await conform(url, [okAt('fake/ok')])).toBe(2);
    expect(err.join('')).toBe(
      `teamchat conform: the target at ${url} does not answer the Team Chat API (POST /api/v1/register answered 501 text/html; GET /api/v1/server_settings answered 501 text/html)\n`,
    );
    expect((await readJson()).stopped).toMatchObject({ kind: 'not-started' });
    expect(out.join('') + err.join('')).not.toContain('--world');
  });

  it('refused credentials: the hint names the world file given, or says none was', async () => {
    const { url } = await serve((_req, res) => json(res, 401, { result: 'error', msg: 'Invalid API key', code: 'UNAUTHORIZED' }));
    expect(await conform(url, [okAt('fake/ok')], ['--world', 'fixtures/world.demo.json'])).toBe(2);
    expect(err.join('')).toContain('check the credentials in fixtures/world.demo.json');
    err.length = 0;
    expect(await conform(url, [okAt('fake/ok')])).toBe(2);
    expect(err.join('')).toContain(
      "no --world file was given, so the demo realm's credentials were sent: pass --world FILE describing the target",
    );
  });
});

describe('a target that stops answering mid-run', () => {
  it('ends the run with one line, marks the rest not run, exits 2', async () => {
    let served = 0;
    const target = await serve(
      teamChat((req, res, path) => {
        answer42(req, res, path);
        // After the fifth scenario's answer the server goes away: open connections cut, new ones refused.
        if (path.startsWith('/api/v1/fake/') && ++served === 5)
          res.on('finish', () => (target.server.closeAllConnections(), target.server.close()));
      }),
    );
    const scenarios = Array.from({ length: 40 }, (_, i) => okAt(`fake/ok-${i}`));
    expect(await conform(target.url, scenarios, ['--workers', '2'])).toBe(2);
    const errors = err.join('');
    const lines = errors.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^teamchat conform: target unreachable since \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(.+\); \d+ of 40 scenarios not run$/,
    );
    // One line for the outage: no error per scenario in the console summary either.
    expect((out.join('') + errors).match(/ECONNREFUSED|other side closed/g)?.length ?? 0).toBeLessThanOrEqual(1);

    const report = await readJson();
    expect(report.stopped).toMatchObject({ kind: 'target-unreachable' });
    expect(report.totals.passed).toBe(5);
    expect(report.totals).toMatchObject({ failed: 0, error: 0, skipped: 35 });
    const notRun = report.scenarios.filter((s: { reason?: string }) => s.reason === 'not run: target unreachable');
    expect(notRun).toHaveLength(35);
    expect(lines[0]).toContain('; 35 of 40 scenarios not run');
    expect(out.join('')).toContain('35 × not run: target unreachable');
    const junitText = await readFile(join(dir, 'junit.xml'), 'utf8');
    expect(await junitSchemaErrors(junitText)).toEqual([]);
    const junit = xml.parse(junitText);
    expect(junit.testsuites).toMatchObject({ tests: '40', failures: '0', errors: '0' });
    const suites = [junit.testsuites.testsuite].flat() as { skipped: string }[];
    expect(suites.reduce((sum, suite) => sum + Number(suite.skipped), 0)).toBe(35);
  });

  it('a transport error while the target still answers stays that scenario’s error', async () => {
    const { url } = await serve(
      teamChat((req, res, path) => {
        // This one endpoint drops the connection; everything else answers.
        if (path === '/api/v1/fake/drop') return req.socket.destroy();
        answer42(req, res, path);
      }),
    );
    expect(await conform(url, [okAt('fake/drop', '/api/v1/fake/drop'), okAt('fake/ok-1'), okAt('fake/ok-2')], ['--workers', '1'])).toBe(1);
    const report = await readJson();
    expect(report.stopped).toBeUndefined();
    expect(report.totals).toEqual({ passed: 2, failed: 0, error: 1, skipped: 0 });
    expect(report.scenarios[0].reason).toMatch(/^the target did not answer: /);
  });
});

describe('report times and skip reasons', () => {
  it('area and JUnit suite times are wall-clock, not summed over parallel workers', async () => {
    const { url } = await serve(teamChat((req, res, path) => void setTimeout(() => answer42(req, res, path), 300)));
    const scenarios = [
      ...Array.from({ length: 4 }, (_, i) => okAt(`slow/s-${i}`)),
      ...Array.from({ length: 4 }, (_, i) => okAt(`other/s-${i}`)),
    ];
    expect(await conform(url, scenarios, ['--workers', '4', '--reporter', 'junit'])).toBe(0);
    type Suite = { name: string; time: string; testcase: { time: string }[] };
    const root = xml.parse(await readFile(join(dir, 'junit.xml'), 'utf8')).testsuites as { time: string; testsuite: Suite[] };
    const run = Number(root.time);
    for (const suite of root.testsuite) {
      const cases = suite.testcase.map((c) => Number(c.time));
      const time = Number(suite.time);
      expect(time).toBeGreaterThanOrEqual(Math.max(...cases) - 0.001);
      expect(time).toBeLessThanOrEqual(run);
      // Four scenarios of at least 300 ms ran side by side: their sum is far more than the area's span.
      expect(time).toBeLessThan(cases.reduce((a, b) => a + b, 0));
    }
  });

  it('level skips say which servers the scenario checks and where the target is', async () => {
    const { url } = await serve(teamChat(answer42));
    const scenarios = [
      okAt('levels/from-later', undefined, { requires: { level: { from: 'include_all' } } }),
      okAt('levels/below-reached', undefined, { requires: { level: { below: 'can_send_message_group' } } }),
      okAt('levels/from-reached', undefined, { requires: { level: { from: 'can_send_message_group' } } }),
      okAt('levels/below-not-reached', undefined, { requires: { level: { below: 'empty_topic_name' } } }),
    ];
    expect(await conform(url, scenarios, ['--reporter', 'json'])).toBe(0);
    const byId = new Map((await readJson()).scenarios.map((s: { id: string }) => [s.id, s]));
    expect(byId.get('levels/from-later')).toMatchObject({
      status: 'skipped',
      reason: 'checks servers at feature level 356 (include_all) or later; the target is at 333',
    });
    expect(byId.get('levels/below-reached')).toMatchObject({
      status: 'skipped',
      reason: 'checks servers older than feature level 333 (can_send_message_group); the target is at 333',
    });
    expect(byId.get('levels/from-reached')).toMatchObject({ status: 'passed' });
    expect(byId.get('levels/below-not-reached')).toMatchObject({ status: 'passed' });
  });
});
