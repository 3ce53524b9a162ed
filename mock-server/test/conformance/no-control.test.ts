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
import { knownUsers, readWorldState, withoutUsersBeyond, worldChanges, type WorldState } from './world-state.js';

/**
 * The proof that the suite is right about a server that, like every real one, has no control API.
 * Without isolated realms, every scenario must own its state (or run alone and put shared fixtures
 * back), so the whole suite (both tiers) passes with 1 and 4 workers, in shuffled orders and in the catalogue's
 * (destructive scenarios included in the 4-worker runs), twice in a row on one server (the second run on the world
 * the first, destructive one left), and leaves the world's channels, subscriptions and users as it found them.
 * After each run, the world as every user of the world file reads it through the API (world-state.ts: realm
 * settings, users and their profile data, groups, channels, subscriptions and their settings, statuses, user
 * settings, drafts, snippets, views, scheduled messages, reminders, alert words, topic policies, stars,
 * linkifiers, emoji) is as the fresh server showed it; what the suite makes and cannot delete may remain, out of
 * the way: users it made deactivated, its channels archived, its messages sent. Since every run starts from the
 * world as it was (up to that residue), the run in a row stands for any number of them. A second test runs it
 * against a realm of another seed and realm ID, described by a world file, so no scenario can lean on the demo
 * fixture's names, IDs or content. The suite speaks only HTTP to the mock.
 *
 * A run spends most of its time waiting (scenarios that wait for an event that must not come, scenarios that
 * run alone), so the runs that need no particular server state go on at the same time, each on a server of its
 * own, started in the first hook: the two in a row, the 1-worker run, and the other seed's. Each test waits for
 * the runs it judges.
 */
let catalogue: RuleDef[];
let schemas: ResponseSchemas;

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

// Every scenario of both tiers runs (SCENARIOS is not filtered): the result records both.
const suite = (target: Target, workers: number, seed?: number, allowDestructive = false) =>
  runScenarios({
    target,
    scenarios: SCENARIOS,
    catalogue,
    schemas,
    workers,
    slow: false,
    allowDestructive,
    tiers: ['spec', 'companion'],
    ...(seed === undefined ? {} : { seed }),
  });

/**
 * The runs, by server: two in a row on one (the second is the one a whole `--allow-destructive` run is: 4 workers,
 * the catalogue order), and a 1-worker run without the destructive scenarios on a fresh server of its own.
 */
const IN_A_ROW = [
  { workers: 4, seed: randomSeed(), destructive: true },
  { workers: 4, seed: undefined, destructive: true },
];
const ONE_WORKER = [{ workers: 1, seed: randomSeed(), destructive: false }];
type Pass = (typeof IN_A_ROW)[number];
const describePass = ({ workers, seed, destructive }: Pass) =>
  `${workers} workers, seed ${seed ?? '(catalogue order)'}, destructive ${destructive}`;

interface Sequence {
  control: boolean;
  /** The world as the fresh server showed it. */
  world: WorldState;
  /** Each run of the plan, with the world read right after it. */
  passes: { pass: Pass; run: RunResult; world: WorldState }[];
  /** What differs in the shared fixtures after the runs (fixtures.ts). */
  fixtureChanges: string[];
}

/** The plan's runs in a row on one server, the world and the fixtures read before and after. */
async function inARow(url: string, plan: Pass[]): Promise<Sequence> {
  const target = await Target.connect(url);
  const before = await readFixtures(target.baseUrl, target.world);
  const world = await readWorldState(target.baseUrl, target.world);
  const passes: Sequence['passes'] = [];
  for (const pass of plan) {
    const run = await suite(target, pass.workers, pass.seed, pass.destructive);
    passes.push({ pass, run, world: await readWorldState(target.baseUrl, target.world) });
  }
  const changes = fixtureChanges(target.world, before, await readFixtures(target.baseUrl, target.world));
  return { control: target.control, world, passes, fixtureChanges: changes };
}

interface SeededRun {
  email: string;
  seed: number;
  run: RunResult;
  changes: string[];
}

/** One destructive run, shuffled, against the server of another seed with the world file of its realm. */
async function seededRun(url: string, worldFile: string): Promise<SeededRun> {
  const target = await Target.connect(url, worldFile);
  const before = await readFixtures(target.baseUrl, target.world);
  const seed = randomSeed();
  const run = await suite(target, 4, seed, true);
  const changes = fixtureChanges(target.world, before, await readFixtures(target.baseUrl, target.world));
  return { email: target.world.credentials.member.email, seed, run, changes };
}

let plain: MockServer;
let single: MockServer;
let described: MockServer;
let served: MockServer;
let dir: string | undefined;
let sequences: Promise<Sequence[]>;
let seeded: Promise<SeededRun>;
beforeAll(async () => {
  catalogue = await loadRules();
  schemas = await ResponseSchemas.load();
  // The running clock of a real server: scheduled times are relative to the target's own now.
  plain = await startTestServer({ control: false, clock: 'system' });
  single = await startTestServer({ control: false, clock: 'system' });
  const options = { seed: 7, defaultRealm: 'acme', clock: 'system' as const };
  // The world file comes from the control API of one mock; the suite runs against a second one made
  // from the same seed without it, as it would against a real server and the file its admin wrote.
  described = await startTestServer(options);
  const res = await request(`${described.url}/__mock/realms/acme/world`);
  const { world } = (await res.body.json()) as { world: unknown };
  dir = await mkdtemp(join(tmpdir(), 'world-seed-7-'));
  await writeFile(join(dir, 'world.json'), JSON.stringify(world));
  served = await startTestServer({ ...options, control: false });
  sequences = Promise.all([inARow(plain.url, IN_A_ROW), inARow(single.url, ONE_WORKER)]);
  seeded = seededRun(served.url, join(dir, 'world.json'));
  // Awaited by the tests; a rejection before then is theirs to report, not an unhandled one.
  sequences.catch(() => undefined);
  seeded.catch(() => undefined);
});
afterAll(async () => {
  // The runs end before their servers close, whether or not a test waited for them.
  await Promise.allSettled([sequences, seeded]);
  await Promise.all([plain?.close(), single?.close(), described?.close(), served?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
}, 600_000);

describe('the whole suite against the mock without its control API', () => {
  it('passes two runs in a row on the same server with 4 workers, shuffled then in order, and one with 1 worker, shuffled, and leaves the fixtures as it found them', async () => {
    const all = await sequences;
    expect(all.flatMap((s) => s.passes.map((p) => p.pass))).toEqual([...IN_A_ROW, ...ONE_WORKER]);
    for (const { control, passes, fixtureChanges: changes } of all) {
      expect(control).toBe(false);
      for (const { pass, run } of passes) {
        expect(run.totals.failed + run.totals.error, `${describePass(pass)}:\n${problems(run)}`).toBe(0);
        expect(run.totals.passed, describePass(pass)).toBeGreaterThan(pass.destructive ? 400 : 300);
        expect(run.targetKind).toBe('server');
        expect(run.seed).toBe(pass.seed);
      }
      expect(changes).toEqual([]);
    }
  }, 600_000);

  it('leaves the world as every user reads it as it found it, after each run', async () => {
    for (const { world: before, passes } of await sequences) {
      const known = knownUsers(before);
      for (const { pass, world } of passes) {
        const { changed, added } = worldChanges(before, withoutUsersBeyond(world, known));
        expect(changed, describePass(pass)).toEqual([]);
        // Only users the suite made, each deactivated (every reader lists it among the inactive; its profile data).
        const unexpected = added.filter((path) => !/^(\w+\.realm_non_active_users|profile_data)\.\d+$/.test(path));
        expect(unexpected, describePass(pass)).toEqual([]);
      }
    }
  }, 600_000);
});

describe('the whole suite against a realm of another seed, described by a world file', () => {
  it('passes with the world file of that realm, destructive scenarios included, and leaves its fixtures as found', async () => {
    const { email, seed, run, changes } = await seeded;
    expect(email).not.toMatch(/@demo\./);
    expect(run.totals.failed + run.totals.error, `seed ${seed}:\n${problems(run)}`).toBe(0);
    expect(run.totals.passed).toBeGreaterThan(320);
    expect(changes).toEqual([]);
  }, 600_000);
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
