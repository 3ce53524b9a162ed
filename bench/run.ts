import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bareCommand,
  coldStart,
  DURATION,
  draftFigures,
  type DraftFigures,
  eventFigures,
  mockCommand,
  requestCases,
  type Case,
  type Load,
  versusBaselines,
  worldOf,
  WRITES,
} from './figures.js';
import { bounds, type FanoutRun } from './fanout-stats.js';
import { exploreFigure, exploreRow } from './explore.js';
import { FANOUT_USERS, fanoutFigure, type FanoutFigure } from './fanout.js';
import { SCALE, scaleFigures } from './scale.js';
import { soak } from './soak.js';
import { PINNED, pinLoadGenerator, startMock, stop } from './spawn.js';

/**
 * `npm run bench`: the figures in one table, each against a baseline run in the same invocation
 * (docs/benchmarks.md). `npm run bench -- --scale`: the read operations on the demo realm and on a
 * 100k-message realm. `npm run bench -- --reads`: only the GET rows of the table. `npm run bench -- --writes`: only the
 * durable-write rows and the event → long-poll latency; `-- --startup`: cold start and idle RSS; `-- --explore`: only the
 * explore row. `npm run bench -- soak [options]`: the soak benchmark (bench/soak.ts).
 * The mock runs compiled (`node bin/teamchat.js`, built first), servers pinned to one core and this
 * load generator to the other where `taskset` exists. BENCH_SECONDS: seconds per throughput run (5).
 * Loopback only.
 */
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);

interface Row {
  figure: string;
  mock: string;
  baseline: string;
  ratio: string;
  target: string;
}

const mb = (bytes: number | null) => (bytes === null ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(0)} MB`);
const rps = (n: number) => `${Math.round(n)} req/s`;
const cpu = (l: Load) => (l.cpuUs == null ? '' : `, CPU ${Math.round(l.cpuUs)} µs/req`);
/** Baseline CPU per request / the mock's: like the throughput ratio (higher is better), from CPU time, not wall time. */
const cpuPerRequestRatio = (mock: Load, baseline: Load) =>
  mock.cpuUs && baseline.cpuUs ? `; by CPU per request ${(baseline.cpuUs / mock.cpuUs).toFixed(2)}×` : '';

function build(): void {
  // Start-up and request figures are those of the compiled build users run, never of tsx.
  const result = spawnSync('npm', ['run', 'build'], { cwd: here('..'), stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error('npm run build failed');
}

/**
 * The request rows: every case of the request table, or only its reads (`--reads`: the same rows, measured the
 * same way, without the writes).
 */
async function requestRows(dir: string, only: (c: Case) => boolean = () => true): Promise<Row[]> {
  const rows: Row[] = [];
  const mock = await startMock(['--in-memory', '--zuliprc-dir', dir]);
  try {
    const world = await worldOf(mock.url);
    const cases = requestCases(world).filter(only);
    for (const v of await versusBaselines(mock, cases, new Set(['GET /api/v1/streams']))) {
      rows.push({
        figure: `${v.name} vs ${v.baselineName} (same bytes)`,
        mock: `${rps(v.mock.rps)}, p99 ${Math.round(v.mock.p99)} ms${cpu(v.mock)}${v.mock.failures ? `, ${v.mock.failures} failed` : ''}`,
        baseline: `${rps(v.baseline.rps)}, p99 ${Math.round(v.baseline.p99)} ms${cpu(v.baseline)}`,
        ratio: `${(v.mock.rps / v.baseline.rps).toFixed(2)}×${cpuPerRequestRatio(v.mock, v.baseline)}`,
        target: v.name === 'GET /api/v1/streams' && v.baselineName.includes('express') ? '≥ 0.8×' : '',
      });
    }
  } finally {
    await stop(mock);
  }
  return rows;
}

async function readRows(): Promise<Row[]> {
  const dir = await mkdtemp(join(tmpdir(), 'teamchat-bench-'));
  try {
    return await requestRows(dir, (c) => c.method === 'GET');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The durable-write rows (demo realm and the larger realm) and the event → long-poll latency, as in the whole table. */
async function writeRows(): Promise<Row[]> {
  const dir = await mkdtemp(join(tmpdir(), 'teamchat-bench-'));
  try {
    const rows = [draftRow('demo realm', await draftFigures(dir, null, { amount: WRITES }))];
    rows.push(await largeDraftRow(dir));
    rows.push(...latencyRows(await eventFigures(dir)));
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Event → waiting long-poll, for an event injected through the control API and for one an API write makes. */
function latencyRows(events: Awaited<ReturnType<typeof eventFigures>>): Row[] {
  const { bareLatency: bare } = events;
  const row = (mock: typeof bare, how: string): Row => ({
    figure: `event ${how} → waiting long-poll answer (${mock.samples} samples)`,
    mock: `p50 ${mock.p50Ms} ms, p99 ${mock.p99Ms} ms (the ${mock.warmUp.samples} warm-up rounds before: p50 ${mock.warmUp.p50Ms} ms, p99 ${mock.warmUp.p99Ms} ms)`,
    baseline: `p50 ${bare.p50Ms} ms, p99 ${bare.p99Ms} ms (bare node:http holding the poll; warm-up p50 ${bare.warmUp.p50Ms} ms, p99 ${bare.warmUp.p99Ms} ms)`,
    ratio: `p99 ${mock.p99Ms >= bare.p99Ms ? '+' : ''}${(mock.p99Ms - bare.p99Ms).toFixed(2)} ms`,
    target: 'p99 ≤ 5 ms',
  });
  return [row(events.latency, 'injected through the control API'), row(events.apiLatency, 'of an API write (a direct message)')];
}

/** Cold start (spawn to first 200) and idle RSS, against a bare node:http server's. */
async function startupRows(dir: string): Promise<Row[]> {
  const cold = await coldStart(mockCommand(dir), COLD_RUNS);
  const bare = await coldStart(bareCommand(), COLD_RUNS);
  return [
    {
      figure: `cold start: node bin/teamchat.js serve (fresh state file) to first 200, median of ${COLD_RUNS}`,
      mock: `${cold.medianMs.toFixed(0)} ms (${cold.runsMs.join(', ')})`,
      baseline: `${bare.medianMs.toFixed(0)} ms (bare node:http)`,
      ratio: `${(cold.medianMs / bare.medianMs).toFixed(1)}× slower`,
      target: '≤ 500 ms',
    },
    {
      figure: 'RSS idle (1 s after the first 200)',
      mock: mb(cold.idleRss),
      baseline: `${mb(bare.idleRss)} (bare node:http)`,
      ratio: cold.idleRss && bare.idleRss ? `${(cold.idleRss / bare.idleRss).toFixed(1)}×` : 'n/a',
      target: '≤ 90 MB',
    },
  ];
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'teamchat-bench-'));
  const rows: Row[] = [];
  try {
    rows.push(...(await requestRows(dir)));

    const drafts = await draftFigures(dir, null, { amount: WRITES });
    rows.push(draftRow('demo realm', drafts));
    rows.push(await largeDraftRow(dir));

    rows.push(...(await startupRows(dir)));
    rows.push({
      figure: `RSS after ${WRITES.toLocaleString('en-US')} durable draft writes`,
      mock: mb(drafts.rssAfterWrites),
      baseline: '',
      ratio: '',
      target: '≤ 150 MB',
    });

    const events = await eventFigures(dir);
    rows.push(...latencyRows(events));
    rows.push({
      figure: `${events.idle.queues} idle event queues`,
      mock: `${events.idle.heapBytesPerQueue} B heap each, RSS ${events.idle.rssDeltaBytes >= 0 ? '+' : '−'}${(Math.abs(events.idle.rssDeltaBytes) / 1024 / 1024).toFixed(1)} MiB`,
      baseline: '',
      ratio: '',
      target: '',
    });
    rows.push(await conformanceRow(dir));
    rows.push(exploreRow(await exploreFigure(dir)));
    rows.push(...(await fanoutRows(dir)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  print(
    `One run, ${PINNED ? 'servers pinned to core 1 and the load generator to core 0 (taskset)' : 'unpinned (no taskset)'}, 50 connections, ${DURATION} s per throughput run; ratios are mock / baseline`,
    rows,
  );
}

/** The whole conformance suite as a user runs it: the compiled mock, `teamchat conform` in another process. */
async function conformanceRow(dir: string): Promise<Row> {
  const server = await startMock(['--in-memory', '--zuliprc-dir', dir]);
  try {
    const began = performance.now();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        process.execPath,
        [here('../bin/teamchat.js'), 'conform', '--target', server.url, '--reporter', 'json', '--report-dir', dir],
        { stdio: 'ignore' },
      );
      child.once('exit', resolve);
    });
    const seconds = (performance.now() - began) / 1000;
    const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as { totals: Record<string, number>; ms: number };
    const t = report.totals;
    return {
      figure: 'conformance suite against the mock (teamchat conform, 4 workers)',
      mock: `exit ${code}: ${t.passed ?? 0} passed, ${t.failed ?? 0} failed, ${t.error ?? 0} errors; run ${(report.ms / 1000).toFixed(1)} s, wall ${seconds.toFixed(1)} s`,
      baseline: '',
      ratio: '',
      target: '≤ 15 s',
    };
  } finally {
    await stop(server);
  }
}

/** The fan-out rows, one per N of BENCH_FANOUT_USERS, after a line saying what bounds N on this machine. */
async function fanoutRows(dir: string): Promise<Row[]> {
  console.log(`fan-out: ${bounds().text}`);
  const rows: Row[] = [];
  for (const users of FANOUT_USERS) {
    // A setup that cannot finish here (a loaded machine: 10,000 polls not waiting within 120 s) is a row that
    // says so; the rest of the table is still printed.
    const figure = await fanoutFigure(dir, users).catch((error: unknown) => ({
      users,
      skipped: `failed: ${error instanceof Error ? error.message : String(error)}`,
      seconds: 0,
    }));
    rows.push(fanoutRow(figure));
  }
  return rows;
}

const fanoutCell = (r: FanoutRun) =>
  `last delivery p50 ${r.lastP50} ms, p99 ${r.lastP99} ms; each delivery p50 ${r.deliveryP50} ms, p99 ${r.deliveryP99} ms; first warm-up message ${r.firstMs} ms; CPU per message: server ${r.serverCpuMs ?? 'n/a'} ms, load generator ${r.clientCpuMs} ms; RSS ${mb(r.rss)} (peak ${mb(r.peakRss)})`;

/** Server CPU per message, mock / bare: steadier than wall time on a shared machine (the two run one after the other). */
const cpuRatio = (mock: FanoutRun, bare: FanoutRun) =>
  mock.serverCpuMs === null || !bare.serverCpuMs ? 'n/a' : `${(mock.serverCpuMs / bare.serverCpuMs).toFixed(1)}×`;

function fanoutRow(f: FanoutFigure): Row {
  const n = f.users.toLocaleString('en-US');
  const target = f.users <= 1000 ? '≤ 2× (p50)' : f.users <= 10_000 ? 'last ≤ 1,500 ms, RSS ≤ 600 MB' : '';
  if (!f.mock || !f.bare)
    return { figure: `fan-out to ${n} waiting long-polls`, mock: `not run: ${f.skipped}`, baseline: '', ratio: '', target };
  return {
    figure: `fan-out of one channel message to ${n} waiting long-polls (${f.mock.messages} messages, ${f.seconds} s)`,
    mock: fanoutCell(f.mock),
    baseline: `${fanoutCell(f.bare)} (bare node:http, the same ${f.answerBytes} B per poll)`,
    ratio: `${(f.mock.lastP50 / f.bare.lastP50).toFixed(1)}× (p50 of last delivery); server CPU ${cpuRatio(f.mock, f.bare)}`,
    target,
  };
}

/** A larger realm for the write figure: a whole-file rewrite costs in proportion to the data, a journal does not. */
const DRAFT_REALM_MESSAGES = 10_000;
/** The larger realm's target; the demo realm's row has none (92 KiB rewrite about as cheap as a journal line). */
const DRAFT_TARGET = '≥ 20×, p99 ≤ 20 ms';

/** The timed drafts row at the larger realm, with its target. */
async function largeDraftRow(dir: string): Promise<Row> {
  const figures = await draftFigures(dir, DRAFT_REALM_MESSAGES, { duration: DURATION });
  return draftRow(`realm of ${DRAFT_REALM_MESSAGES.toLocaleString('en-US')} messages`, figures, DRAFT_TARGET);
}

function draftRow(realm: string, d: DraftFigures, target = ''): Row {
  return {
    figure: `durable POST /api/v1/drafts (fsync), ${realm}, vs whole-file JSON rewrite + fsync of the same data (${(d.stateBytes / 1024).toFixed(0)} KiB)`,
    mock: `${rps(d.mock.rps)}, p99 ${d.mock.p99} ms${cpu(d.mock)}${d.mock.failures ? `, ${d.mock.failures} failed` : ''}`,
    baseline: `${rps(d.baseline.rps)}, p99 ${d.baseline.p99} ms${cpu(d.baseline)}${d.floor ? `; floor (bare node:http, each body to an O_DSYNC journal in group commits): ${rps(d.floor.rps)}, p99 ${d.floor.p99} ms${cpu(d.floor)}` : ''}`,
    ratio: `${(d.mock.rps / d.baseline.rps).toFixed(1)}×`,
    target,
  };
}

function print(title: string, rows: object[], headers = ['figure', 'mock', 'baseline', 'ratio', 'target']): void {
  console.log(`\n${title}\n`);
  console.log(`| ${headers.join(' | ')} |`);
  console.log(`|${headers.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${Object.values(r).join(' | ')} |`);
}

const argv = process.argv.slice(2);
if (argv[0] === 'soak') await soak(argv.slice(1));
else {
  pinLoadGenerator();
  build();
  if (argv.includes('--scale')) {
    const rows = await scaleFigures();
    const size = `${SCALE.messages.toLocaleString('en-US')} messages, ${SCALE.users.toLocaleString('en-US')} users, ${SCALE.channels} channels`;
    print(`Scale: one request at a time, demo realm vs a realm of ${size} (--messages/--users/--channels); ratio = scaled / demo`, rows, [
      'figure',
      'demo realm',
      'scaled realm',
      'ratio',
      'target',
    ]);
  } else if (argv.includes('--reads')) {
    print('Reads only (the GET rows of `npm run bench`); ratios are mock / baseline', await readRows());
  } else if (argv.includes('--explore')) {
    const dir = await mkdtemp(join(tmpdir(), 'teamchat-bench-'));
    try {
      print('Explore only (a row of `npm run bench`)', [exploreRow(await exploreFigure(dir))]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  } else if (argv.includes('--startup')) {
    const dir = await mkdtemp(join(tmpdir(), 'teamchat-bench-'));
    try {
      print('Start-up only (the cold start and idle RSS rows of `npm run bench`)', await startupRows(dir));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  } else if (argv.includes('--writes')) {
    print('Writes only (the durable-write and event latency rows of `npm run bench`); ratios are mock / baseline', await writeRows());
  } else if (argv.includes('--fanout')) {
    const dir = await mkdtemp(join(tmpdir(), 'teamchat-bench-'));
    try {
      print('Fan-out only (the last rows of `npm run bench`); ratios are mock / baseline', await fanoutRows(dir));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  } else await main();
}
