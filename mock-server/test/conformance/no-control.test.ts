import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRules } from '../../../conformance/src/catalogue.js';
import { fixtureChanges, readFixtures } from '../../../conformance/src/fixtures.js';
import type { RuleDef, RunResult } from '../../../conformance/src/model.js';
import { ResponseSchemas } from '../../../conformance/src/openapi.js';
import { runScenarios } from '../../../conformance/src/runner.js';
import { randomSeed } from '../../../conformance/src/schedule.js';
import { Target } from '../../../conformance/src/target.js';
import { SCENARIOS } from '../../../conformance/scenarios/index.js';
import { scenario } from '../../../conformance/src/dsl.js';
import type { MockServer } from '../../src/app.js';
import { startTestServer } from '../helpers/test-server.js';

/**
 * The proof that the suite is right about a server that, like every real one, has no control API.
 * Without isolated realms, every scenario must own its state (or run alone and put shared fixtures
 * back), so the whole suite passes three times in a row on one server, with 1 and 4 workers and in
 * shuffled orders (destructive scenarios included in two of them), and leaves the world's channels,
 * subscriptions and users as it found them. A second test
 * runs it against a realm of another seed and realm ID, described by a world file, so no scenario can
 * lean on the demo fixture's names, IDs or content. The suite speaks only HTTP to the mock.
 */
let catalogue: RuleDef[];
let schemas: ResponseSchemas;
beforeAll(async () => {
  catalogue = await loadRules();
  schemas = await ResponseSchemas.load();
});

const problems = (run: RunResult) =>
  run.scenarios
    .filter((s) => s.status === 'failed' || s.status === 'error')
    .map(
      (s) =>
        `${s.id} ${s.status}: ${s.reason ?? ''} ${s.checks
          .filter((c) => !c.ok)
          .map((c) => c.message)
          .join(' | ')}`,
    )
    .join('\n');

const suite = (target: Target, workers: number, seed?: number, allowDestructive = false) =>
  runScenarios({
    target,
    scenarios: SCENARIOS,
    catalogue,
    schemas,
    workers,
    slow: false,
    allowDestructive,
    ...(seed === undefined ? {} : { seed }),
  });

describe('the whole suite against the mock without its control API', () => {
  let server: MockServer;
  beforeAll(async () => {
    // The running clock of a real server: scheduled times are relative to the target's own now.
    server = await startTestServer({ control: false, clock: 'system' });
  });
  afterAll(() => server.close());

  it('passes three runs in a row on the same server, with 1 and 4 workers, shuffled, and leaves the fixtures as it found them', async () => {
    const target = await Target.connect(server.url);
    expect(target.control).toBe(false);
    const before = await readFixtures(target.baseUrl, target.world);
    // The later runs add the destructive scenarios: they re-role and deactivate users of their own only.
    const plan = [
      { workers: 1, seed: randomSeed(), destructive: false },
      { workers: 4, seed: randomSeed(), destructive: true },
      { workers: 4, seed: undefined, destructive: true },
    ];
    for (const { workers, seed, destructive } of plan) {
      const run = await suite(target, workers, seed, destructive);
      expect(
        run.totals.failed + run.totals.error,
        `${workers} workers, seed ${seed ?? '(catalogue order)'}, destructive ${destructive}:\n${problems(run)}`,
      ).toBe(0);
      expect(run.totals.passed).toBeGreaterThan(destructive ? 320 : 300);
      expect(run.targetKind).toBe('server');
      expect(run.seed).toBe(seed);
    }
    expect(fixtureChanges(target.world, before, await readFixtures(target.baseUrl, target.world))).toEqual([]);
  }, 300_000);
});

describe('the whole suite against a realm of another seed, described by a world file', () => {
  let described: MockServer;
  let served: MockServer;
  let dir: string;
  beforeAll(async () => {
    const options = { seed: 7, defaultRealm: 'acme', clock: 'system' as const };
    // The world file comes from the control API of one mock; the suite runs against a second one made
    // from the same seed without it, as it would against a real server and the file its admin wrote.
    described = await startTestServer(options);
    const res = await request(`${described.url}/__mock/realms/acme/world`);
    const { world } = (await res.body.json()) as { world: unknown };
    dir = await mkdtemp(join(tmpdir(), 'world-seed-7-'));
    await writeFile(join(dir, 'world.json'), JSON.stringify(world));
    served = await startTestServer({ ...options, control: false });
  });
  afterAll(async () => {
    await Promise.all([described.close(), served.close()]);
    await rm(dir, { recursive: true, force: true });
  });

  it('passes with the world file of that realm, destructive scenarios included, and leaves its fixtures as found', async () => {
    const target = await Target.connect(served.url, join(dir, 'world.json'));
    expect(target.world.credentials.member.email).not.toMatch(/@demo\./);
    const before = await readFixtures(target.baseUrl, target.world);
    const seed = randomSeed();
    const run = await suite(target, 4, seed, true);
    expect(run.totals.failed + run.totals.error, `seed ${seed}:\n${problems(run)}`).toBe(0);
    expect(run.totals.passed).toBeGreaterThan(320);
    expect(fixtureChanges(target.world, before, await readFixtures(target.baseUrl, target.world))).toEqual([]);
  }, 300_000);
});

describe('the runner around a scenario that changes shared fixtures', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startTestServer({ control: false });
  });
  afterAll(() => server.close());

  // Serial scenarios written to leave changes behind, as a careless scenario (or a wrong server) would.
  const careless = scenario({
    id: 'guard/careless',
    title: 'changes a world channel and a subscription without putting them back',
    rules: ['R4.16-1'],
    serial: true,
    async when(ctx) {
      ctx.must(
        await ctx.as('member_3').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: ctx.channel('public_2').name }] }),
        'join public_2',
      );
      return ctx.as('administrator').patch(`/api/v1/streams/${ctx.channel('public').stream_id}`, {
        description: ctx.unique('left behind'),
        message_retention_days: 90,
      });
    },
    then: (ctx, res) => void ctx.expectSuccess('R4.16-1', res),
  });
  const deactivating = scenario({
    id: 'guard/deactivating',
    title: 'deactivates a world user, which no operation undoes',
    rules: ['R4.17-1'],
    serial: true,
    when: (ctx) => ctx.as('administrator').delete(`/api/v1/users/${ctx.user('member_3').user_id}`),
    then: (ctx, res) => void ctx.expectSuccess('R4.17-1', res),
  });

  it('puts back what a serial scenario left changed, and makes an error of what it cannot put back', async () => {
    const target = await Target.connect(server.url);
    const before = await readFixtures(target.baseUrl, target.world);
    const run = await runScenarios({ target, scenarios: [careless], catalogue, schemas, workers: 1, slow: false, allowDestructive: true });
    expect(run.scenarios[0]!.status, problems(run)).toBe('passed');
    expect(fixtureChanges(target.world, before, await readFixtures(target.baseUrl, target.world))).toEqual([]);

    const broken = await runScenarios({
      target,
      scenarios: [deactivating],
      catalogue,
      schemas,
      workers: 1,
      slow: false,
      allowDestructive: true,
    });
    expect(broken.scenarios[0]).toMatchObject({ status: 'error' });
    // Named once, with the bot it owned (§4.17: deactivated with its owner), not as every subscription lost.
    expect(broken.scenarios[0]!.reason).toBe(
      "left the world's shared fixtures changed and could not put them back: member_3: is_active false, was true; bot: is_active false, was true",
    );
  }, 60_000);
});
