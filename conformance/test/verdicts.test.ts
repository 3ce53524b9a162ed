import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, type CliDeps } from '../src/cli.js';
import { ApiClient } from '../src/client.js';
import { scenario } from '../src/dsl.js';
import type { Exchange, RuleDef } from '../src/model.js';
import { ResponseSchemas } from '../src/openapi.js';
import { runScenarios } from '../src/runner.js';
import { failureLimit, NOT_RUN_MAX_FAILURES } from '../src/stopped.js';
import { Target } from '../src/target.js';
import { fakeApi, useLoopbackServer } from './helpers/loopback.js';
import { junitSchemaErrors } from './report/junit-schema.js';

/**
 * What a server implementer acts on, against a tiny fake target (node:http, never the mock server): runs that
 * stop at a failure limit (`--bail`, `--max-failures`, the library's options) and curl lines that name the
 * user whose key they need.
 */
const CATALOGUE: RuleDef[] = [{ id: 'R1-2', section: '1', area: 'conventions', text: 'An unknown path is an error.' }];
const failing = (n: number) =>
  scenario({
    id: `fake/wrong-${n}`,
    title: `expects a success from a path that is not there (${n})`,
    rules: ['R1-2'],
    when: (ctx) => ctx.as(n % 2 ? 'member' : 'guest').get(`/api/v1/fake/missing-${n}`),
    then: (ctx, reply) => void ctx.expectSuccess('R1-2', reply),
  });
const FAILING = [1, 2, 3, 4, 5].map(failing);

const fake = useLoopbackServer(fakeApi());

async function conform(args: string[]) {
  const dir = await mkdtemp(join(tmpdir(), 'conform-verdicts-'));
  const out: string[] = [];
  const err: string[] = [];
  const deps: CliDeps = {
    scenarios: FAILING,
    catalogue: CATALOGUE,
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
  };
  try {
    const code = await main(['conform', '--target', fake.url, '--report-dir', dir, '--workers', '1', ...args], deps);
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8'));
    const junit = await readFile(join(dir, 'junit.xml'), 'utf8');
    return { code, report, junit, out: out.join(''), err: err.join('') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('--max-failures and --bail', () => {
  it('stop after that many failed scenarios: the rest are not run, the reports are written, the run counts as failed', async () => {
    const run = await conform(['--max-failures', '2']);
    expect(run.code).toBe(1);
    expect(run.report.totals).toEqual({ passed: 0, failed: 2, error: 0, skipped: 3 });
    expect(run.report.stopped).toEqual({ kind: 'max-failures', message: 'stopped after 2 failed scenarios (--max-failures 2)' });
    expect(run.report.scenarios.slice(2).map((s: { reason: string }) => s.reason)).toEqual(Array(3).fill(NOT_RUN_MAX_FAILURES));
    expect(await junitSchemaErrors(run.junit)).toEqual([]);
    expect(run.err).toContain('teamchat conform: stopped after 2 failed scenarios (--max-failures 2); 3 of 5 scenarios not run');
    // The progress line of a run cut short still ends with its count.
    expect(run.out).toMatch(/^FF {58} {2}2\/5$/m);
  });

  it('--bail stops at the first, and the smaller limit holds when both are given', async () => {
    const bail = await conform(['--bail', '--max-failures', '3']);
    expect(bail.code).toBe(1);
    expect(bail.report.totals).toMatchObject({ failed: 1, skipped: 4 });
    expect(bail.report.stopped.message).toBe('stopped after 1 failed scenario (--bail)');
    expect(failureLimit({ bail: true, maxFailures: 3 })).toEqual({ maxFailures: 1 });
    expect(failureLimit({ maxFailures: 3 })).toEqual({ maxFailures: 3 });
    expect(failureLimit({})).toEqual({});
  });

  it('a limit the run never reaches changes nothing', async () => {
    const run = await conform(['--max-failures', '5']);
    expect(run.code).toBe(1);
    expect(run.report.totals).toMatchObject({ failed: 5, skipped: 0 });
    expect(run.report).not.toHaveProperty('stopped');
  });

  it('refuses a limit that is not a positive integer', async () => {
    const err: string[] = [];
    const deps: CliDeps = {
      scenarios: FAILING,
      catalogue: CATALOGUE,
      stdout: { write: () => true },
      stderr: { write: (s: string) => err.push(s) },
    };
    expect(await main(['conform', '--target', fake.url, '--max-failures', '0'], deps)).toBe(2);
    expect(err.join('')).toContain('--max-failures');
  });

  it('the library takes the same limit (runConformance passes failureLimit of its options to the runner)', async () => {
    const target = await Target.connect(fake.url);
    const run = await runScenarios({
      target,
      scenarios: FAILING,
      catalogue: CATALOGUE,
      schemas: ResponseSchemas.of({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} }),
      workers: 2,
      slow: false,
      allowDestructive: false,
      ...failureLimit({ maxFailures: 1 }),
    });
    // Two workers: the scenario under way when the limit is reached finishes; nothing starts after.
    expect(run.totals.failed).toBeGreaterThanOrEqual(1);
    expect(run.totals.failed).toBeLessThanOrEqual(2);
    expect(run.totals.skipped).toBe(5 - run.totals.failed);
    expect(run.stopped?.kind).toBe('max-failures');
  });
});

describe('curl lines name the user whose key they need', () => {
  it('takes the key from $KEY_<role>, records the e-mail, and never holds the key', async () => {
    const exchanges: Exchange[] = [];
    const client = new ApiClient(fake.url, (x) => exchanges.push(x) - 1);
    const secret = 'Zz9Zz9Zz9Zz9Zz9Zz9Zz9Zz9Zz9Zz9Zz';
    await client.call('POST', '/api/v1/fake/ok', { content: 'hi' }, { role: 'member_2', email: 'maribel@example.com', api_key: secret });
    await client.call('GET', '/api/v1/fake/ok', { anchor: 'newest' }, { role: 'some role', email: 'x@example.com', api_key: secret });
    await client.call('GET', '/api/v1/fake/ok');
    expect(exchanges.map((x) => x.curl)).toEqual([
      `curl -sS -X POST -u 'maribel@example.com:'"$KEY_member_2" --data-urlencode 'content=hi' '${fake.url}/api/v1/fake/ok'`,
      `curl -sS -X GET -u 'x@example.com:'"$KEY_some_role" '${fake.url}/api/v1/fake/ok?anchor=newest'`,
      `curl -sS -X GET '${fake.url}/api/v1/fake/ok'`,
    ]);
    expect(exchanges.map((x) => x.user)).toEqual(['maribel@example.com', 'x@example.com', undefined]);
    expect(JSON.stringify(exchanges)).not.toContain(secret);
  });

  it('the reports list which world user each variable stands for, never the key', async () => {
    const run = await conform(['--reporter', 'console,json,junit']);
    expect(run.report.keys).toEqual([
      { variable: 'KEY_guest', role: 'guest', emails: [expect.stringMatching(/@/)] },
      { variable: 'KEY_member', role: 'member', emails: [expect.stringMatching(/@/)] },
    ]);
    const [guest, member] = run.report.keys.map((k: { emails: string[] }) => k.emails[0]);
    expect(run.out).toContain(`API keys in the curl lines (set each variable to that user's key):`);
    expect(run.out).toMatch(new RegExp(`\\$KEY_member +member: ${member}`));
    expect(run.out).toContain(`-u '${member}:'"$KEY_member"`);
    expect(run.junit).toContain(`name="key_variable.KEY_guest" value="guest: ${guest}"`);
    const world = JSON.parse(await readFile('fixtures/world.demo.json', 'utf8')) as { credentials: Record<string, { api_key: string }> };
    for (const text of [run.out, JSON.stringify(run.report), run.junit]) expect(text).not.toContain(world.credentials.member!.api_key);
  });
});
