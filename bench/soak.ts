import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SCENARIOS } from '../conformance/scenarios/index.js';
import { loadCatalogue } from '../conformance/src/catalogue.js';
import type { RuleDef } from '../conformance/src/model.js';
import { ResponseSchemas } from '../conformance/src/openapi.js';
import { runScenarios } from '../conformance/src/runner.js';
import { Target } from '../conformance/src/target.js';
import { FuzzGenerator, type Who } from './fuzz-requests.js';
import { demoAccounts, runWireFuzz } from './wire-fuzz.js';
import {
  addOutcome,
  createRealm,
  deleteRealm,
  emptyOutcome,
  fuzzRun,
  linkifierCycle,
  realmCycle,
  serverMemory,
  type Outcome,
} from './soak-ops.js';
import { start } from './spawn.js';

/**
 * `npm run bench -- soak`: can the mock be left running all day? One `teamchat serve`
 * process (in memory, --expose-gc so the control API's memory figures are live data) takes realm
 * create/delete cycles, linkifier cycles with renders, whole conformance runs and seeded fuzz
 * requests, then seeded wire-level hostile cases (bench/wire-fuzz.ts: cut and malformed bodies, bodies that
 * stop, odd headers, huge narrows, foreign Host/Origin); the table gives the 5xx and failed operations of each phase and the server's memory
 * after a warm-up and at the end. Targets are printed, not asserted: 0 × 5xx, 0 failed operations,
 * end RSS within 15 % of the RSS after warm-up. Smaller counts by option for a quick run.
 */
const OPTIONS = {
  realms: { type: 'string', default: '1000' },
  linkifiers: { type: 'string', default: '300' },
  runs: { type: 'string', default: '100' },
  requests: { type: 'string', default: '20000' },
  wire: { type: 'string', default: '2000' },
  seed: { type: 'string', default: '1414' },
  workers: { type: 'string', default: '4' },
  quick: { type: 'boolean', default: false },
} as const;

const USAGE = `npm run bench -- soak [--realms N] [--linkifiers N] [--runs N] [--requests N] [--wire N] [--seed N] [--workers N] [--quick]
  defaults: 1000 realm cycles, 300 linkifier cycles, 100 conformance runs, 20000 fuzzed requests, 2000 wire cases, seed 1414;
  --quick: 100, 30, 3, 2000 and 300 (about two minutes)`;
/** The wire phase's hang detector: an unrelated request sent while a hostile case is in flight waits less (bench/wire-fuzz.ts). */
const WIRE_BUDGET_MS = 1_000;

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const MiB = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

interface Row {
  phase: string;
  operations: string;
  outcome: Outcome;
  seconds: number;
}

export async function soak(argv: string[]): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: argv, options: OPTIONS }).values;
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const count = (name: string, quick: number) => {
    const n = values.quick && !argv.some((a) => a.startsWith(`--${name}`)) ? quick : Number(values[name]);
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number\n${USAGE}`);
    return n;
  };
  const plan = {
    realms: count('realms', 100),
    linkifiers: count('linkifiers', 30),
    runs: count('runs', 3),
    requests: count('requests', 2000),
    wire: count('wire', 300),
    seed: count('seed', 1414),
    workers: Math.max(1, count('workers', 4)),
  };

  const dir = await mkdtemp(join(tmpdir(), 'teamchat-soak-'));
  const server = await start(
    // No request log: the soak watches the server's memory, not a log of every request it answers.
    [here('../mock-server/src/cli.ts'), 'serve', '--port', '0', '--in-memory', '--log-level', 'silent', '--zuliprc-dir', dir],
    {},
    ['--expose-gc'],
    'pipe',
  );
  // The server's complaints are kept (and counted) rather than flooding the table.
  const stderr: string[] = [];
  server.child.stderr!.on('data', (chunk: Buffer) => stderr.push(...chunk.toString().split('\n').filter(Boolean)));
  const began = performance.now();
  const rows: Row[] = [];
  let warm: { rss: number; heapUsed: number };
  let end: { rss: number; heapUsed: number };
  let fuzzStatuses = '';
  let wireStatuses = '';
  try {
    const generator = await FuzzGenerator.create(plan.seed);
    const suite = { catalogue: await loadCatalogue(), schemas: await ResponseSchemas.load() };
    // The linkifiers live in a realm of their own, so the conformance runs see the demo realm as shipped.
    const setup = emptyOutcome();
    const linkRealm = await createRealm(server.url, setup);
    if (!linkRealm) throw new Error(`cannot create the linkifier realm: ${setup.failures.join('; ')}`);
    const admin = linkRealm.world.credentials.administrator as Who;
    let linkifier = 0;

    const phase = async (name: string, operations: string, body: (out: Outcome) => Promise<void>) => {
      const started = performance.now();
      const out = emptyOutcome();
      await body(out);
      rows.push({ phase: name, operations, outcome: out, seconds: (performance.now() - started) / 1000 });
      console.error(`soak: ${name} done (${((performance.now() - began) / 1000).toFixed(0)} s)`);
    };
    const realms = (n: number) => async (out: Outcome) => {
      for (let i = 0; i < n; i++) addOutcome(out, await realmCycle(server.url));
    };
    const linkifiers = (n: number) => async (out: Outcome) => {
      for (let i = 0; i < n; i++) addOutcome(out, await linkifierCycle(server.url, admin, ++linkifier));
    };
    const runs = (n: number) => async (out: Outcome) => {
      for (let i = 0; i < n; i++) {
        addOutcome(out, await conformanceRun(server.url, suite, plan.workers, i + 1));
        // The longest phase (about half a minute a run on a busy 2-core machine): show it moving.
        if ((i + 1) % 10 === 0)
          console.error(`soak: ${i + 1} of ${n} conformance runs (${((performance.now() - began) / 1000).toFixed(0)} s)`);
      }
    };
    const statuses: Record<number, number> = {};
    const fuzz = (n: number) => async (out: Outcome) => {
      const run = await fuzzRun(server.url, generator, n);
      addOutcome(out, run);
      for (const [status, k] of Object.entries(run.statuses)) statuses[Number(status)] = (statuses[Number(status)] ?? 0) + k;
    };

    // Warm-up: every kind of work once or a little, so the baseline holds the JIT, caches and pools.
    await phase('warm-up', `10 realms, 10 linkifiers, 1 run, 500 requests`, async (out) => {
      await realms(10)(out);
      await linkifiers(10)(out);
      await runs(1)(out);
      await fuzz(500)(out);
    });
    warm = await serverMemory(server.url);
    await phase('realm create/delete', `${plan.realms} cycles`, realms(plan.realms));
    await phase('linkifier create/update/delete + renders', `${plan.linkifiers} cycles`, linkifiers(plan.linkifiers));
    await phase('conformance runs', `${plan.runs} runs × ${SCENARIOS.length} scenarios`, runs(plan.runs));
    for (const key of Object.keys(statuses)) delete statuses[Number(key)];
    await phase('fuzzed requests', `${plan.requests} requests, seed ${plan.seed}`, fuzz(plan.requests));
    fuzzStatuses = Object.entries(statuses)
      .map(([status, k]) => `${status}: ${k}`)
      .join(', ');
    await phase('wire-level hostile cases', `${plan.wire} cases, seed ${plan.seed}`, async (out) => {
      const wire = await runWireFuzz(server.url, {
        seed: plan.seed,
        count: plan.wire,
        accounts: await demoAccounts(server.url),
        budgetMs: WIRE_BUDGET_MS,
        caseTimeoutMs: 10_000,
      });
      out.requests += wire.cases;
      for (const failure of wire.failures) (/: status 5\d\d/.test(failure) ? out.serverErrors : out.failures).push(failure);
      wireStatuses = Object.entries(wire.statuses)
        .map(([status, k]) => `${status}: ${k}`)
        .join(', ');
    });
    await deleteRealm(server.url, linkRealm.realmId, setup);
    rows.push({ phase: 'set-up (the linkifier realm)', operations: '1 realm', outcome: setup, seconds: 0 });
    // A phase that took the server down is in the table; the end figure is then missing, not the report.
    end = await serverMemory(server.url).catch(() => ({ rss: NaN, heapUsed: NaN }));
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((done) => (server.child.exitCode !== null ? done(null) : server.child.once('exit', done)));
    await rm(dir, { recursive: true, force: true });
  }
  report(rows, warm, end, stderr, (performance.now() - began) / 1000);
  // Proof that the fuzz reached the operations rather than stopping at authentication or routing.
  console.log(`\nFuzzed requests by answer status: ${fuzzStatuses}`);
  // A wire case's "timeout" is a body that stops, left unanswered until this side gave up: not a failure.
  console.log(`Wire-level cases by answer: ${wireStatuses}`);
}

/** One whole conformance run, as `teamchat conform` runs it (all scenarios, its isolated realms). */
async function conformanceRun(
  url: string,
  suite: { catalogue: RuleDef[]; schemas: ResponseSchemas },
  workers: number,
  n: number,
): Promise<Outcome> {
  const out = emptyOutcome();
  let run;
  try {
    const target = await Target.connect(url);
    run = await runScenarios({
      target,
      scenarios: SCENARIOS,
      catalogue: suite.catalogue,
      schemas: suite.schemas,
      workers,
      slow: false,
      allowDestructive: false,
    });
  } catch (e) {
    out.failures.push(`conformance run ${n} could not run: ${(e as Error).message}`);
    return out;
  }
  for (const s of run.scenarios) {
    out.requests += s.exchanges.length;
    for (const x of s.exchanges) {
      if (x.status >= 500) out.serverErrors.push(`conformance run ${n}, ${s.id}: ${x.method} ${x.path} → ${x.status}`);
    }
    if (s.status === 'failed' || s.status === 'error')
      out.failures.push(`conformance run ${n}: ${s.id} ${s.status}: ${s.reason ?? s.checks.find((c) => !c.ok)?.message ?? ''}`);
  }
  return out;
}

function report(
  rows: Row[],
  warm: { rss: number; heapUsed: number },
  end: { rss: number; heapUsed: number },
  stderr: string[],
  seconds: number,
): void {
  console.log(`\nSoak: one teamchat serve process (in memory, --expose-gc), ${(seconds / 60).toFixed(1)} min in all\n`);
  console.log('| phase | operations | requests | 5xx | failed operations | time (s) |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows)
    console.log(
      `| ${r.phase} | ${r.operations} | ${r.outcome.requests} | ${r.outcome.serverErrors.length} | ${r.outcome.failures.length} | ${r.seconds.toFixed(1)} |`,
    );
  console.log('\n| server memory | RSS (MiB) | heap used (MiB) |');
  console.log('|---|---|---|');
  console.log(`| after warm-up | ${MiB(warm.rss)} | ${MiB(warm.heapUsed)} |`);
  console.log(`| end | ${MiB(end.rss)} | ${MiB(end.heapUsed)} |`);
  const fiveXx = rows.reduce((n, r) => n + r.outcome.serverErrors.length, 0);
  const failed = rows.reduce((n, r) => n + r.outcome.failures.length, 0);
  const growth = (end.rss / warm.rss - 1) * 100;
  const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log('\nTargets');
  console.log(`- 0 × 5xx: ${fiveXx} (${mark(fiveXx === 0)})`);
  console.log(`- 0 failed operations: ${failed} (${mark(failed === 0)})`);
  console.log(
    `- end RSS within 15 % of the RSS after warm-up: ${growth >= 0 ? '+' : ''}${growth.toFixed(1)} % (${mark(Math.abs(growth) <= 15)})`,
  );
  // The first few problems of each phase, each naming its request so it can be replayed.
  for (const r of rows) {
    const problems = [...r.outcome.serverErrors.map((p) => `5xx: ${p}`), ...r.outcome.failures.map((p) => `failed: ${p}`)];
    if (problems.length === 0) continue;
    console.log(`\n${r.phase}: first problems (of ${problems.length})`);
    for (const p of problems.slice(0, 5)) console.log(`- ${p.length > 400 ? `${p.slice(0, 400)}…` : p}`);
  }
  if (stderr.length > 0)
    console.log(`\nThe server wrote ${stderr.length} lines to stderr; the last: ${stderr[stderr.length - 1]!.slice(0, 300)}`);
}
