import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { request } from 'undici';
import { benchBareWriteToPoll, benchIdleQueues, benchWriteToPoll } from './events.js';
import { cpuMsOfStat, readOr } from './fanout-stats.js';
import { pinned, rssOf, start, startMock, stop, type Started } from './spawn.js';

/**
 * The figures of `npm run bench`, each measured beside its baseline in the same run:
 * request throughput against a tuned express route and a bare node:http server sending the same bytes,
 * durable draft writes against a json-server-style whole-file rewrite, cold start and memory.
 */
export const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const BIN = here('../bin/teamchat.js');

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
  requests: number;
  /**
   * The server's CPU time (user + system) per answered request, in µs, where it was measured (versusBaselines):
   * steadier than throughput on a shared machine, where another process's load takes turns from both servers.
   */
  cpuUs?: number | null;
}

export interface Case {
  name: string;
  path: string;
  method: 'GET' | 'POST';
  body?: string;
  headers: Record<string, string>;
}

export async function load(url: string, c: Case, limit: { duration: number } | { amount: number }): Promise<Load> {
  const result = await autocannon({
    url: url + c.path,
    connections: CONNECTIONS,
    method: c.method,
    headers: c.headers,
    body: c.body,
    ...limit,
  });
  // Answers over the run's measured duration: autocannon's per-second average rounds a run of `amount` requests
  // to whole seconds.
  const rps = result.requests.total / Math.max(0.01, result.duration);
  return {
    rps,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.non2xx,
    requests: result.requests.total,
  };
}

export interface Who {
  email: string;
  api_key: string;
  user_id: number;
  full_name: string;
}
export interface World {
  credentials: { member: Who; member_2: Who };
  channels: { public: { stream_id: number; name: string } };
}

export async function worldOf(url: string): Promise<World> {
  const answer = (await (await request(`${url}/__mock/realms/demo/world`)).body.json()) as { world: World };
  return answer.world;
}

export const basic = (who: Who) => `Basic ${Buffer.from(`${who.email}:${who.api_key}`).toString('base64')}`;
const FORM = 'application/x-www-form-urlencoded';

/** The read and write cases of the request table, for the demo realm's member. */
export function requestCases(world: World): Case[] {
  const auth = basic(world.credentials.member);
  const get = (name: string, path: string): Case => ({ name, path, method: 'GET', headers: { authorization: auth } });
  const post = (name: string, path: string, body: string): Case => ({
    name,
    path,
    method: 'POST',
    body,
    headers: { authorization: auth, 'content-type': FORM },
  });
  return [
    get('GET /api/v1/streams', '/api/v1/streams'),
    get('GET /api/v1/server_settings', '/api/v1/server_settings'),
    get('GET /api/v1/users', '/api/v1/users'),
    post('POST /api/v1/messages/render', '/api/v1/messages/render', 'content=**hello** _world_'),
    // The service syntax: a mention, a channel link, a linkifier match and an emoji.
    post(
      'POST /api/v1/messages/render (service syntax)',
      '/api/v1/messages/render',
      new URLSearchParams({
        content: `Hi @**${world.credentials.member_2.full_name}**, see #42 in #**${world.channels.public.name}** :smile:`,
      }).toString(),
    ),
    // A write per request (in memory): message row, flags of every subscriber, events; the realm grows as it runs.
    post(
      'POST /api/v1/messages',
      '/api/v1/messages',
      new URLSearchParams({ type: 'stream', to: world.channels.public.name, topic: 'bench', content: 'Hello' }).toString(),
    ),
  ];
}

export interface Versus {
  name: string;
  mock: Load;
  baseline: Load;
  baselineName: string;
}

/** Rounds per throughput figure: the mock and its baselines take turns, so a change in the machine's load hits both. */
const ROUNDS = 2;
const WARM_UP_SECONDS = 1;

const mean = (loads: Load[]): Load => ({
  rps: loads.reduce((n, l) => n + l.rps, 0) / loads.length,
  p50: loads.reduce((n, l) => n + l.p50, 0) / loads.length,
  p99: loads.reduce((n, l) => n + l.p99, 0) / loads.length,
  failures: loads.reduce((n, l) => n + l.failures, 0),
  requests: loads.reduce((n, l) => n + l.requests, 0),
  cpuUs: loads.some((l) => l.cpuUs == null) ? null : loads.reduce((n, l) => n + l.cpuUs!, 0) / loads.length,
});

/** CPU ms (user + system) a server process has used so far (Linux /proc), or null elsewhere. */
const cpuMsOf = (server: Started) => cpuMsOfStat(readOr(`/proc/${server.child.pid}/stat`));

/** One load run, with the server's CPU per answered request. */
async function measured(server: Started, c: Case, limit: { duration: number } | { amount: number }): Promise<Load> {
  const before = cpuMsOf(server);
  const result = await load(server.url, c, limit);
  const after = cpuMsOf(server);
  const cpuUs = before === null || after === null || result.requests === 0 ? null : ((after - before) * 1000) / result.requests;
  return { ...result, cpuUs };
}

/**
 * Each case on the mock and on baseline servers sending the bytes the mock sent for it: after a warm-up
 * of each, ROUNDS turns of DURATION / ROUNDS seconds each; the figures are the means of the turns.
 */
export async function versusBaselines(mock: Started, cases: Case[], withNode: Set<string>): Promise<Versus[]> {
  const rows: Versus[] = [];
  for (const c of cases) {
    const sample = await request(mock.url + c.path, { method: c.method, headers: c.headers, body: c.body });
    const bytes = await sample.body.text();
    const baselines = [
      ['tuned express route', './bare-server.ts'],
      ...(withNode.has(c.name) ? [['bare node:http', './bare-node-server.ts']] : []),
    ] as const;
    const servers: Started[] = [];
    try {
      for (const [, script] of baselines) servers.push(await start([here(script)], { BARE_BODY: bytes }));
      const all = [mock, ...servers];
      const turns: Load[][] = all.map(() => []);
      for (const server of all) await load(server.url, c, { duration: WARM_UP_SECONDS });
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, server] of all.entries()) turns[i]!.push(await measured(server, c, { duration: DURATION / ROUNDS }));
      }
      for (const [i, [baselineName]] of baselines.entries()) {
        rows.push({ name: c.name, mock: mean(turns[0]!), baseline: mean(turns[i + 1]!), baselineName });
      }
    } finally {
      for (const server of servers) await stop(server);
    }
  }
  return rows;
}

export const WRITES = 10_000;

export interface DraftFigures {
  mock: Load;
  baseline: Load;
  /** A timed row's floor: bare node:http group-committing each body to an O_DSYNC journal (bench/bare-journal-server.ts). */
  floor: Load | null;
  rssAfterWrites: number | null;
  stateBytes: number;
}

/**
 * Durable POST /api/v1/drafts (state file, fsync before the answer), then the baseline holding the same
 * realm's data (its export) as its JSON database. `messages`: the realm's size (`--messages`; a whole-file
 * rewrite costs in proportion to it); `limit`: the mock's run (WRITES requests for the RSS figure, or
 * DURATION seconds); the baseline always runs DURATION seconds (far fewer requests get through).
 */
export async function draftFigures(
  dir: string,
  messages: number | null,
  limit: { amount: number } | { duration: number },
): Promise<DraftFigures> {
  const state = join(dir, `drafts-${messages ?? 'demo'}.json`);
  const size = messages === null ? [] : ['--messages', String(messages)];
  const mock = await startMock(['--state', state, '--durability', 'fsync', '--zuliprc-dir', dir, ...size]);
  try {
    const world = await worldOf(mock.url);
    const draft = JSON.stringify([{ type: 'stream', to: [world.channels.public.stream_id], topic: 'bench', content: 'A draft' }]);
    const c: Case = {
      name: 'POST /api/v1/drafts',
      path: '/api/v1/drafts',
      method: 'POST',
      body: new URLSearchParams({ drafts: draft }).toString(),
      headers: { authorization: basic(world.credentials.member), 'content-type': FORM },
    };
    const exported = await (await request(`${mock.url}/__mock/realms/demo/export`)).body.text();
    // A timed row is warmed up as the read rows are, on both sides (the baseline gets the data as it was before):
    // the first second of a run measures the JIT and 50 connections opening, not the write path. A row of a set
    // number of writes is not, so its RSS figure stays "after that many writes".
    const timed = 'duration' in limit;
    const m = await measuredAfter(timed, mock, c, limit);
    const rssAfterWrites = rssOf(mock.child);
    await stop(mock);
    const dbPath = join(dir, `db-${messages ?? 'demo'}.json`);
    await writeFile(dbPath, exported);
    const baseline = await baselineRun('./jsonfile-server.ts', { JSONDB_PATH: dbPath }, c, timed);
    // What the disk and Node allow: a server that only makes each body durable (timed rows only).
    const floor = timed ? await baselineRun('./bare-journal-server.ts', { JOURNAL_PATH: join(dir, 'floor.journal') }, c, true) : null;
    return { mock: m, baseline, floor, rssAfterWrites, stateBytes: exported.length };
  } finally {
    await stop(mock);
  }
}

/** One load run, after the read rows' warm-up when `warm`. */
async function measuredAfter(warm: boolean, server: Started, c: Case, limit: { duration: number } | { amount: number }): Promise<Load> {
  if (warm) await load(server.url, c, { duration: WARM_UP_SECONDS });
  return measured(server, c, limit);
}

/** A baseline server (a script of bench/) started, run DURATION seconds, and stopped. */
async function baselineRun(script: string, env: Record<string, string>, c: Case, warm: boolean): Promise<Load> {
  const server = await start([here(script)], env);
  try {
    return await measuredAfter(warm, server, c, { duration: DURATION });
  } finally {
    await stop(server);
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface ColdStart {
  /** Spawn to the first 200 of GET /api/v1/server_settings, median of the runs (ms). */
  medianMs: number;
  runsMs: number[];
  /** VmRSS a second after the first answer, median (bytes). */
  idleRss: number | null;
}

/**
 * `command` (a server taking `--port N`) from spawn to its first 200, `runs` times; the RSS a second
 * later, when start-up garbage has had a chance to go. Polls every 5 ms.
 */
export async function coldStart(command: (port: number) => string[], runs: number): Promise<ColdStart> {
  const times: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < runs; i++) {
    const port = await freePort();
    const args = pinned(command(port));
    const began = performance.now();
    const child = spawn(args[0]!, args.slice(1), { stdio: 'ignore' });
    try {
      for (;;) {
        if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
        const ok = await request(`http://127.0.0.1:${port}/api/v1/server_settings`)
          .then(async (r) => (await r.body.text(), r.statusCode === 200))
          .catch(() => false);
        if (ok) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      times.push(performance.now() - began);
      await new Promise((r) => setTimeout(r, 1000));
      const bytes = rssOf(child);
      if (bytes !== null) rss.push(bytes);
    } finally {
      await stop({ child, url: '', listenMs: 0 });
    }
  }
  return { medianMs: median(times), runsMs: times.map(Math.round), idleRss: rss.length > 0 ? median(rss) : null };
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** The mock's first start on a fresh state file, as `node bin/teamchat.js serve` runs it. */
export const mockCommand = (dir: string) => (port: number) => [
  process.execPath,
  BIN,
  'serve',
  '--port',
  String(port),
  '--state',
  join(dir, `cold-${port}.json`),
  '--zuliprc-dir',
  dir,
];

/** The floor of any Node server: node:http answering `{}` (same polling). */
export const bareCommand = () => (port: number) => [
  process.execPath,
  '-e',
  `require('node:http').createServer((q, s) => s.end('{}')).listen(${port}, '127.0.0.1')`,
];

/**
 * Event → waiting long-poll latency and idle queue memory, on the compiled mock with --expose-gc; then the same
 * latency rounds against a bare node:http server holding the poll (its answer the size of the mock's), the floor.
 */
export async function eventFigures(dir: string) {
  const server = await startMock(['--in-memory', '--zuliprc-dir', dir], ['--expose-gc']);
  let figures;
  try {
    figures = {
      latency: await benchWriteToPoll(server.url, 1000, 'control'),
      apiLatency: await benchWriteToPoll(server.url, 1000, 'api'),
      idle: await benchIdleQueues(server.url),
    };
  } finally {
    await stop(server);
  }
  const answer = JSON.stringify({
    result: 'success',
    msg: '',
    events: [{ type: 'bench', n: 1020, id: 1020 }],
    queue_id: `demo:${randomUUID()}`,
  });
  const bare = await start([here('./bare-fanout-server.ts')], { BARE_BODY: answer });
  try {
    return { ...figures, bareLatency: await benchBareWriteToPoll(bare.url) };
  } finally {
    await stop(bare);
  }
}
