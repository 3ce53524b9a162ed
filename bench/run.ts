import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { request } from 'undici';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchDurableWrites } from './durable-writes.js';
import { benchIdleQueues, benchWriteToPoll } from './events.js';
import { soak } from './soak.js';
import { start } from './spawn.js';

/**
 * `npm run bench -- soak [options]`: the soak benchmark instead (bench/soak.ts, README "Soak benchmark").
 * `npm run bench`: request throughput of the mock against a bare express route returning the same
 * bytes, then durable-write throughput on a realm of 10k messages. Servers run in child processes
 * pinned (where `taskset` exists) to a core other than the load generator's. Loopback only.
 */
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function load(url: string, opts: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string }): Promise<Load> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, ...opts });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

async function main(): Promise<void> {
  const mock = await start([
    here('../mock-server/src/cli.ts'),
    'serve',
    '--in-memory',
    '--port',
    '0',
    '--zuliprc-dir',
    '/tmp/teamchat-bench',
  ]);
  const creds = (await (await request(`${mock.url}/__mock/realms/demo/world`)).body.json()) as {
    world: { credentials: { member: { email: string; api_key: string }; member_2: { full_name: string } } };
  };
  const who = creds.world.credentials.member;
  const auth = `Basic ${Buffer.from(`${who.email}:${who.api_key}`).toString('base64')}`;
  const cases: { name: string; path: string; method: 'GET' | 'POST'; body?: string; headers: Record<string, string> }[] = [
    {
      name: 'POST /api/v1/messages/render',
      path: '/api/v1/messages/render',
      method: 'POST',
      body: 'content=**hello** _world_',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
    },
    // The service syntax: a mention, a channel link, a linkifier match and an emoji (lookups built per render).
    {
      name: 'POST /api/v1/messages/render (service syntax)',
      path: '/api/v1/messages/render',
      method: 'POST',
      body: new URLSearchParams({
        content: `Hi @**${creds.world.credentials.member_2.full_name}**, see #42 in #**home** :smile:`,
      }).toString(),
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
    },
    { name: 'GET /api/v1/server_settings', path: '/api/v1/server_settings', method: 'GET', headers: { authorization: auth } },
    { name: 'GET /api/v1/streams', path: '/api/v1/streams', method: 'GET', headers: { authorization: auth } },
    // A write per request (in memory): message row, flags of every subscriber, events; the realm grows as it runs.
    {
      name: 'POST /api/v1/messages',
      path: '/api/v1/messages',
      method: 'POST',
      body: 'type=stream&to=home&topic=bench&content=Hello',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
    },
    // Every account of the realm, each presented for this reader (email visibility, avatar).
    { name: 'GET /api/v1/users', path: '/api/v1/users', method: 'GET', headers: { authorization: auth } },
    // A write per request whose event goes to every active account of the realm.
    {
      name: 'POST /api/v1/users/me/status',
      path: '/api/v1/users/me/status',
      method: 'POST',
      body: 'status_text=benchmarking&emoji_name=car',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
    },
  ];
  const rows: string[] = [];
  try {
    for (const c of cases) {
      const sample = await request(mock.url + c.path, { method: c.method, headers: c.headers, body: c.body });
      const bytes = await sample.body.text();
      const bare = await start([here('./bare-server.ts')], { BARE_BODY: bytes });
      try {
        const m = await load(mock.url + c.path, c);
        const b = await load(bare.url + c.path, c);
        rows.push(
          `| ${c.name} | ${m.rps.toFixed(0)} | ${m.p50} / ${m.p99} | ${b.rps.toFixed(0)} | ${b.p50} / ${b.p99} | ${(m.rps / b.rps).toFixed(2)} | ${m.errors + m.non2xx} |`,
        );
      } finally {
        bare.child.kill();
      }
    }
  } finally {
    mock.child.kill();
  }
  console.log(`\nRequests (${CONNECTIONS} connections, ${DURATION} s each; latency in ms)\n`);
  console.log('| case | mock req/s | mock p50 / p99 | bare express req/s | bare p50 / p99 | mock / bare | errors |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);

  await eventFigures();
  await conformanceFigures();

  const durable = await benchDurableWrites({ messages: 10_000, seconds: Math.min(DURATION, 5) });
  console.log('\nDurable writes (realm with 10,000 messages; fsync before each acknowledgement, group commit)\n');
  console.log(JSON.stringify(durable, null, 2));
}

/**
 * Event → waiting long-poll latency (target p99 ≤ 5 ms) and memory of idle queues. The event comes
 * from the control API's injection, a transaction without row changes: it measures commit, dispatch
 * and the long-poll answer; a durable write adds its group-commit fsync (see the durable-write figures).
 */
async function eventFigures(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'teamchat-bench-'));
  try {
    const server = await start([here('../mock-server/src/cli.ts'), 'serve', '--port', '0', '--in-memory', '--zuliprc-dir', dir], {}, [
      '--expose-gc',
    ]);
    try {
      const latency = await benchWriteToPoll(server.url);
      console.log('\nEvent → waiting long-poll answer (ms, from the injecting request to the poll answer)\n');
      console.log('| samples | p50 | p99 | max |');
      console.log('|---|---|---|---|');
      console.log(`| ${latency.samples} | ${latency.p50Ms} | ${latency.p99Ms} | ${latency.maxMs} |`);
      const idle = await benchIdleQueues(server.url);
      console.log(
        `\nIdle queues: ${idle.queues} queues, ${idle.heapBytesPerQueue} bytes of heap each, RSS +${(idle.rssDeltaBytes / 1024 / 1024).toFixed(1)} MiB`,
      );
    } finally {
      server.child.kill();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The whole conformance suite against a local mock (issue 7 target: ≤ 15 s on this 2-core machine),
 * through the CLI as a user runs it: the mock in one process, `teamchat conform` in another.
 */
async function conformanceFigures(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'teamchat-bench-'));
  try {
    const server = await start([here('../mock-server/src/cli.ts'), 'serve', '--port', '0', '--in-memory', '--zuliprc-dir', dir]);
    try {
      const started = performance.now();
      const code = await new Promise<number | null>((resolve) => {
        const child = spawn(
          process.execPath,
          [
            '--import',
            'tsx',
            here('../conformance/src/cli.ts'),
            'conform',
            '--target',
            server.url,
            '--reporter',
            'json',
            '--report-dir',
            dir,
          ],
          { stdio: 'ignore' },
        );
        child.once('exit', resolve);
      });
      const seconds = (performance.now() - started) / 1000;
      const report = JSON.parse(await readFile(join(dir, 'report.json'), 'utf8')) as {
        totals: Record<string, number>;
        ms: number;
        coverage: { covered: number; total: number };
      };
      console.log('\nConformance suite against the local mock (teamchat conform, all scenarios, 4 workers)\n');
      console.log('| exit | scenarios | passed | failed | errors | skipped | run (s) | wall incl. start-up (s) | rule coverage |');
      console.log('|---|---|---|---|---|---|---|---|---|');
      const t = report.totals;
      const total = (t.passed ?? 0) + (t.failed ?? 0) + (t.error ?? 0) + (t.skipped ?? 0);
      console.log(
        `| ${code} | ${total} | ${t.passed} | ${t.failed} | ${t.error} | ${t.skipped} | ${(report.ms / 1000).toFixed(1)} | ${seconds.toFixed(1)} | ${report.coverage.covered}/${report.coverage.total} |`,
      );
    } finally {
      server.child.kill();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'soak') await soak(process.argv.slice(3));
else await main();
