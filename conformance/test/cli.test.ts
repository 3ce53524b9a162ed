import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import escape from 'escape-html';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main, type CliDeps } from '../src/cli.js';
import { junitSchemaErrors } from './report/junit-schema.js';
import { scenario } from '../src/dsl.js';
import type { RuleDef } from '../src/model.js';

/**
 * The CLI against a tiny fake target (node:http, never the mock server): no control API, a register
 * that reports a feature level, and two endpoints the injected scenarios call.
 */
const requests: string[] = [];
function fakeTarget(req: IncomingMessage, res: ServerResponse): void {
  requests.push(`${req.method} ${req.url}`);
  const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  req.resume();
  req.on('end', () => {
    const path = req.url!.split('?')[0];
    if (path!.startsWith('/__mock/')) return json(404, { result: 'error', msg: 'Not found', code: 'NOT_FOUND' });
    if (req.method === 'POST' && path === '/api/v1/register')
      return json(200, { result: 'success', msg: '', queue_id: 'q-1', last_event_id: -1, service_feature_level: 333 });
    if (req.method === 'DELETE' && path === '/api/v1/events') return json(200, { result: 'success', msg: '' });
    if (path === '/api/v1/fake/ok') return json(200, { result: 'success', msg: '', value: 42 });
    return json(404, { result: 'error', msg: 'Not found', code: 'NOT_FOUND' });
  });
}

const CATALOGUE: RuleDef[] = [
  { id: 'R1-1', section: '1', area: 'conventions', text: 'The fake endpoint answers 42.' },
  { id: 'R1-2', section: '1', area: 'conventions', text: 'An unknown path is an error.' },
];

const passing = scenario({
  id: 'fake/ok',
  title: 'the fake endpoint answers 42',
  rules: ['R1-1'],
  when: (ctx) => ctx.as('member').get('/api/v1/fake/ok'),
  then: (ctx, reply) => void ctx.expectSuccess('R1-1', reply, { value: 42 }),
});
const failing = scenario({
  id: 'fake/wrong',
  title: 'an unknown path expects a success (and gets a 404)',
  rules: ['R1-2'],
  tags: ['broken'],
  when: (ctx) => ctx.as('member').get('/api/v1/fake/missing'),
  then: (ctx, reply) => void ctx.expectSuccess('R1-2', reply),
});
const erroring = scenario({
  id: 'fake/setup',
  title: 'a setup step that fails',
  rules: ['R1-2'],
  given: (ctx) => ctx.must({ status: 500, headers: {}, body: {}, text: 'boom', index: -1 }, 'creating a channel'),
  when: (ctx) => ctx.as('member').get('/api/v1/fake/ok'),
  then: (ctx, reply) => void ctx.expectSuccess('R1-2', reply),
});
const slow = scenario({ ...passing, id: 'fake/slow', title: 'waits in real time', slow: true });

let server: Server;
let url: string;
let dir: string;
let out: string[];
let err: string[];

beforeAll(async () => {
  server = createServer(fakeTarget);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'conform-cli-'));
  out = [];
  err = [];
  requests.length = 0;
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const deps = (scenarios: CliDeps['scenarios'] = [passing, failing, slow]): CliDeps => ({
  scenarios,
  catalogue: CATALOGUE,
  stdout: { write: (s: string) => out.push(s) },
  stderr: { write: (s: string) => err.push(s) },
});
const conform = (args: string[], d: CliDeps = deps()) =>
  main(['conform', '--world', 'fixtures/world.demo.json', '--report-dir', dir, ...args], d);

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });
/** The three reports of a run that could not start: one JUnit case erroring with the reason; returns the reason. */
async function startFailure(reports = dir): Promise<string> {
  expect((await readdir(reports)).sort()).toEqual(['conformance.html', 'junit.xml', 'report.json']);
  const junitText = await readFile(join(reports, 'junit.xml'), 'utf8');
  expect(await junitSchemaErrors(junitText)).toEqual([]);
  const junit = xml.parse(junitText);
  expect(junit.testsuites).toMatchObject({ tests: '1', failures: '0', errors: '1' });
  expect(junit.testsuites.testsuite).toMatchObject({ skipped: '0' });
  expect(junit.testsuites.testsuite.testcase).toMatchObject({ classname: 'run', name: 'run/start: the conformance run starts' });
  const reason: string = junit.testsuites.testsuite.testcase.error.message;
  expect(reason).toMatch(/^the run could not start: /);
  const report = JSON.parse(await readFile(join(reports, 'report.json'), 'utf8'));
  expect(report.stopped.kind).toBe('not-started');
  expect(reason).toBe(`the run could not start: ${report.stopped.message}`);
  expect(await readFile(join(reports, 'conformance.html'), 'utf8')).toContain(`The run could not start: ${escape(report.stopped.message)}`);
  return reason;
}

describe('teamchat conform', () => {
  it('exits 0 when every selected scenario passes (skips allowed) and writes the three reports', async () => {
    expect(await conform(['--target', url, '--grep', '^fake/(ok|slow)$'])).toBe(0);
    expect((await readdir(dir)).sort()).toEqual(['conformance.html', 'junit.xml', 'report.json']);
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));
    expect(report).toMatchObject({
      target: url,
      targetKind: 'server',
      featureLevel: 333,
      totals: { passed: 1, failed: 0, error: 0, skipped: 1 },
    });
    expect(report.coverage).toEqual({ covered: 1, total: 2, sections: [{ section: '1', covered: 1, total: 2, failing: 0 }] });
    expect(report.scenarios[1]).toMatchObject({ id: 'fake/slow', status: 'skipped', reason: 'waits in real time: run with --slow' });
    expect(requests).toContain('GET /api/v1/fake/ok');
    const text = out.join('');
    expect(text).toContain(`2 scenarios against ${url} (server, feature level 333)`);
    expect(text).toContain('Scenarios: 1 passed, 0 failed, 0 errors, 1 skipped (2)');
    expect(text).toContain(`html report: ${join(dir, 'conformance.html')}`);
    expect(await readFile(join(dir, 'conformance.html'), 'utf8')).toContain('data-scenario-id="fake/ok" data-status="passed"');
  });

  it('exits 1 when a scenario fails, and reports it against its rule', async () => {
    expect(await conform(['--target', url])).toBe(1);
    const junitText = await readFile(join(dir, 'junit.xml'), 'utf8');
    expect(await junitSchemaErrors(junitText)).toEqual([]);
    const junit = xml.parse(junitText);
    expect(junit.testsuites).toMatchObject({ tests: '3', failures: '1', errors: '0' });
    const suites = [junit.testsuites.testsuite].flat() as { skipped: string }[];
    expect(suites.reduce((sum, suite) => sum + Number(suite.skipped), 0)).toBe(1);
    expect(out.join('')).toContain('F1 [R1-2] expected success: status 404');
    expect(out.join('')).toContain('\n  F fake/wrong  F1\n');
  });

  it('exits 1 when a scenario errors (could not set up)', async () => {
    expect(await conform(['--target', url, '--reporter', 'json'], deps([passing, erroring]))).toBe(1);
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));
    expect(report.totals).toEqual({ passed: 1, failed: 0, error: 1, skipped: 0 });
  });

  it('filters by --tags and --rules, and --slow runs the slow scenario', async () => {
    expect(await conform(['--target', url, '--tags', 'broken', '--reporter', 'json'])).toBe(1);
    expect(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')).scenarios.map((s: { id: string }) => s.id)).toEqual(['fake/wrong']);
    expect(await conform(['--target', url, '--rules', 'R1-1', '--slow', '--reporter', 'json'])).toBe(0);
    expect(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')).totals).toEqual({ passed: 2, failed: 0, error: 0, skipped: 0 });
  });

  it('runs the spec tier by default; --tier companion and --tier all select by tier, recorded in the reports', async () => {
    const companion = {
      ...passing,
      id: 'companion/extra/ok',
      title: 'a companion scenario',
      rules: ['C.extra-1', 'R1-2'],
      tier: 'companion' as const,
    };
    const rules: RuleDef[] = [
      ...CATALOGUE,
      {
        id: 'C.extra-1',
        section: 'GET /fake',
        area: 'extra',
        text: 'x',
        tier: 'companion',
        source: { kind: 'reference', operation: 'fake' },
      },
    ];
    const run = async (args: string[]) => {
      expect(
        await conform(['--target', url, '--reporter', 'json,junit', ...args], { ...deps([passing, companion]), catalogue: rules }),
      ).toBe(0);
      const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));
      const junit = xml.parse(await readFile(join(dir, 'junit.xml'), 'utf8'));
      const props = [junit.testsuites.testsuite].flat()[0].properties.property as { name: string; value: string }[];
      return {
        ids: report.scenarios.map((s: { id: string; area: string }) => `${s.area}: ${s.id}`),
        rules: report.rules.map((r: { id: string }) => r.id),
        tiers: report.tiers,
        junit: props.find((p) => p.name === 'tier')?.value,
      };
    };
    expect(await run([])).toEqual({ ids: ['fake: fake/ok'], rules: ['R1-1', 'R1-2'], tiers: ['spec'], junit: 'spec' });
    // A companion run shows its own rules, and the spec rules its scenarios check.
    expect(await run(['--tier', 'companion'])).toEqual({
      ids: ['companion/extra: companion/extra/ok'],
      rules: ['R1-2', 'C.extra-1'],
      tiers: ['companion'],
      junit: 'companion',
    });
    expect(await run(['--tier', 'all'])).toEqual({
      ids: ['fake: fake/ok', 'companion/extra: companion/extra/ok'],
      rules: ['R1-1', 'R1-2', 'C.extra-1'],
      tiers: ['spec', 'companion'],
      junit: 'all',
    });
    expect(await conform(['--target', url, '--tier', 'none'], deps([passing, companion]))).toBe(2);
    expect(err.join('')).toMatch(/--tier.*none.*Allowed choices are spec, companion, all/);
  });

  it('writes only the reports asked for', async () => {
    expect(await conform(['--target', url, '--grep', 'ok', '--reporter', 'junit'])).toBe(0);
    expect(await readdir(dir)).toEqual(['junit.xml']);
    expect(out.join('')).not.toContain('Scenarios:');
  });

  it('--shuffle orders the run by a seed it prints and records; --seed repeats that order', async () => {
    const many = Array.from({ length: 8 }, (_, i) => ({ ...passing, id: `fake/ok-${i}` }));
    const ids = async () =>
      JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')).scenarios.map((s: { id: string }) => s.id) as string[];
    expect(await conform(['--target', url, '--shuffle', '--reporter', 'console,json,junit,html'], deps(many))).toBe(0);
    const seed = Number(/shuffled with seed (\d+)/.exec(out.join(''))?.[1]);
    expect(Number.isInteger(seed)).toBe(true);
    expect(out.join('')).toContain(`repeat it with --seed ${seed}`);
    expect(JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')).seed).toBe(seed);
    expect(await readFile(join(dir, 'junit.xml'), 'utf8')).toContain(`<property name="shuffle_seed" value="${seed}"/>`);
    expect(await readFile(join(dir, 'conformance.html'), 'utf8')).toContain(`data-seed="${seed}"`);
    const first = await ids();
    expect(await conform(['--target', url, '--seed', String(seed), '--reporter', 'json'], deps(many))).toBe(0);
    expect(await ids()).toEqual(first);
    expect(await conform(['--target', url, '--seed', '-1'], deps(many))).toBe(2);
  });

  it('exits 2 when the target cannot be reached, and still writes the reports with the reason', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await conform(['--target', `http://127.0.0.1:${port}`])).toBe(2);
    expect(err.join('')).toContain(`cannot reach http://127.0.0.1:${port}`);
    expect(await startFailure()).toContain(`cannot reach http://127.0.0.1:${port}`);
  });

  it('exits 2 on a world file that does not match the schema, or cannot be read', async () => {
    const bad = join(dir, 'bad-world.json');
    await writeFile(bad, JSON.stringify({ realm: { name: 'x' } }));
    expect(await main(['conform', '--target', url, '--world', bad, '--report-dir', join(dir, 'r')], deps())).toBe(2);
    expect(err.join('')).toContain('does not match fixtures/world.schema.json');
    expect(await startFailure(join(dir, 'r'))).toContain('does not match fixtures/world.schema.json');
    expect(await main(['conform', '--target', url, '--world', join(dir, 'missing.json'), '--report-dir', dir], deps())).toBe(2);
    expect(err.join('')).toContain('cannot read world file');
    expect(requests.filter((r) => r.startsWith('GET /api/v1/fake'))).toEqual([]);
  });

  it.each([
    [['--grep', 'nothing-matches'], 'no scenario matches the filters (3 scenarios in all)'],
    [['--rules', 'R4.8'], '--rules: no rule of the catalogue matches R4.8'],
  ])('exits 2 on %j before running anything, with the reason in the reports', async (args, message) => {
    expect(await conform(['--target', url, ...args])).toBe(2);
    expect(err.join('')).toContain(message);
    expect(requests.filter((r) => r.startsWith('GET /api/v1/fake'))).toEqual([]);
    expect(await startFailure()).toContain(message);
  });

  it.each([
    [['--grep', '('], "option '--grep <regex>' argument '(' is invalid"],
    [['--workers', '0'], 'Must be a positive integer'],
    [['--reporter', 'pdf'], 'Unknown reporter pdf'],
    [['--frobnicate'], "unknown option '--frobnicate'"],
  ])('a usage error (%j) exits 2 and leaves the last reports as they were', async (args, message) => {
    expect(await conform(['--target', url, '--grep', '^fake/ok$'])).toBe(0);
    const last = await readFile(join(dir, 'report.json'), 'utf8');
    const before = (await readdir(dir)).sort();
    expect(await conform(['--target', url, ...args])).toBe(2);
    expect(err.join('')).toContain(message);
    expect((await readdir(dir)).sort()).toEqual(before);
    expect(await readFile(join(dir, 'report.json'), 'utf8')).toBe(last);
    // And where no report was yet: none is made.
    expect(await main(['conform', '--frobnicate', '--report-dir', join(dir, 'ci'), '--reporter', 'junit'], deps())).toBe(2);
    expect(await readdir(dir)).not.toContain('ci');
  });

  it('writes no report for --help', async () => {
    expect(await conform(['--help'])).toBe(0);
    expect(await readdir(dir)).toEqual([]);
  });

  it('exits 2 on a target that is not an http URL, and without any target', async () => {
    expect(await conform(['--target', 'ftp://example.test'])).toBe(2);
    expect(err.join('')).toContain('Must be an http or https URL');
    expect(err.join('').trim().split('\n')).toHaveLength(2); // the problem and the hint, not the whole help
    const noUrl = join(dir, 'world.json');
    const world = JSON.parse(await readFile('fixtures/world.demo.json', 'utf8'));
    delete world.base_url;
    await writeFile(noUrl, JSON.stringify(world));
    expect(await main(['conform', '--world', noUrl, '--report-dir', dir], deps())).toBe(2);
    expect(err.join('')).toContain('--target is required');
  });

  it('prints the help and exits 0', async () => {
    expect(await main(['conform', '--help'], deps())).toBe(0);
    expect(out.join('')).toContain('Usage: teamchat conform [options]');
    expect(out.join('')).toContain('Exit codes: 0 all passed');
  });
});
