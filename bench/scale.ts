import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'undici';
import { basic, median, worldOf, type World } from './figures.js';
import { pinned, rssOf, startMock, stop, type Started } from './spawn.js';

/**
 * `npm run bench -- --scale`: does latency stay flat as the realm grows? The same read
 * operations, one request at a time, on the demo realm and on a realm of 100,000 messages, 1,000 users
 * and 500 channels made with `--messages/--users/--channels`; p50 of each and the ratio, with the size
 * of each answer (operations whose answer grows with the realm, like GET /users, are not like for like).
 */
export const SCALE = { messages: 100_000, users: 1_000, channels: 500 };
const SAMPLES = Number(process.env.BENCH_SCALE_SAMPLES ?? 200);
const WARM_UP = 20;

interface Op {
  name: string;
  run: (url: string, world: World, topic: string) => Promise<{ status: number; bytes: number; after?: () => Promise<void> }>;
}

async function send(url: string, world: World, method: 'GET' | 'POST' | 'DELETE', path: string, form?: Record<string, string>) {
  const res = await request(url + path, {
    method,
    headers: { authorization: basic(world.credentials.member), ...(form && { 'content-type': 'application/x-www-form-urlencoded' }) },
    body: form && new URLSearchParams(form).toString(),
  });
  const text = await res.body.text();
  return { status: res.statusCode, text };
}

const OPS: Op[] = [
  { name: 'GET /api/v1/streams', run: simple('GET', () => '/api/v1/streams') },
  // The member's own channels only: an answer of the same size in both realms (the added channels are others').
  { name: 'GET /api/v1/streams?include_public=false', run: simple('GET', () => '/api/v1/streams?include_public=false') },
  { name: 'GET /api/v1/users/me/subscriptions', run: simple('GET', () => '/api/v1/users/me/subscriptions') },
  { name: 'GET /api/v1/users/me/{stream_id}/topics', run: simple('GET', (w) => `/api/v1/users/me/${w.channels.public.stream_id}/topics`) },
  { name: 'POST /api/v1/register (message, realm_user)', run: register('["message","realm_user"]') },
  // Without realm_user (every account): the snapshot's size does not grow with the added users.
  { name: 'POST /api/v1/register (message)', run: register('["message"]') },
  {
    name: 'POST /api/v1/mark_topic_as_read',
    run: async (url, world, topic) => {
      const { status, text } = await send(url, world, 'POST', '/api/v1/mark_topic_as_read', {
        stream_id: String(world.channels.public.stream_id),
        topic_name: topic,
      });
      return { status, bytes: Buffer.byteLength(text) };
    },
  },
  { name: 'GET /api/v1/users', run: simple('GET', () => '/api/v1/users') },
  // GET /messages: windows of the same size in both realms, found through the indexes (the
  // member's received messages, a channel's list, its unread messages), never by reading every message.
  { name: 'GET /api/v1/messages (newest 50)', run: simple('GET', () => '/api/v1/messages?anchor=newest&num_before=50&num_after=0') },
  {
    name: 'GET /api/v1/messages (public channel, newest 50)',
    run: simple(
      'GET',
      (w) => `/api/v1/messages?anchor=newest&num_before=50&num_after=0&narrow=${narrow([['channel', w.channels.public.stream_id]])}`,
    ),
  },
  {
    name: 'GET /api/v1/messages (first unread, 25 around)',
    run: simple('GET', () => '/api/v1/messages?anchor=first_unread&num_before=25&num_after=25'),
  },
];

/** A narrow of object terms as the query string carries it. */
function narrow(terms: [string, string | number][]): string {
  return encodeURIComponent(JSON.stringify(terms.map(([operator, operand]) => ({ operator, operand }))));
}

/** Registers a queue, deleted after the timing so queues do not pile up against the per-user cap. */
function register(eventTypes: string): Op['run'] {
  return async (url, world) => {
    const { status, text } = await send(url, world, 'POST', '/api/v1/register', { event_types: eventTypes });
    const queueId = (JSON.parse(text) as { queue_id?: string }).queue_id;
    const after = async () =>
      void (queueId && (await send(url, world, 'DELETE', `/api/v1/events?queue_id=${encodeURIComponent(queueId)}`)));
    return { status, bytes: Buffer.byteLength(text), after };
  };
}

function simple(method: 'GET', path: (w: World) => string): Op['run'] {
  return async (url, world) => {
    const { status, text } = await send(url, world, method, path(world));
    return { status, bytes: Buffer.byteLength(text) };
  };
}

interface OpFigure {
  p50: number;
  bytes: number;
  failures: number;
}

/** The newest topic of the demo's public channel (the same channel, with the same topics, in both realms). */
async function topicOf(url: string, world: World): Promise<string> {
  const { text } = await send(url, world, 'GET', `/api/v1/users/me/${world.channels.public.stream_id}/topics`);
  return (JSON.parse(text) as { topics: { name: string }[] }).topics[0]!.name;
}

interface Target {
  server: Started;
  world: World;
  topic: string;
  times: number[];
  bytes: number;
  failures: number;
}

/** Requests per turn, and the pause between turns (the other server's garbage collection runs on the same core). */
const BLOCK = 50;
const PAUSE_MS = 250;

/**
 * The operation on both servers in turns of BLOCK requests, so a change in the machine's load hits both
 * sides of the ratio alike; a pause between turns lets the server just measured finish its own work first.
 * p50 of each after WARM_UP requests.
 */
async function measure(servers: { server: Started; world: World }[], op: Op): Promise<OpFigure[]> {
  const targets: Target[] = [];
  for (const { server, world } of servers)
    targets.push({ server, world, topic: await topicOf(server.url, world), times: [], bytes: 0, failures: 0 });
  for (const t of targets) for (let i = 0; i < WARM_UP; i++) await (await op.run(t.server.url, t.world, t.topic)).after?.();
  for (let done = 0; done < SAMPLES; done += BLOCK) {
    for (const t of targets) {
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      for (let i = done; i < Math.min(SAMPLES, done + BLOCK); i++) {
        const began = performance.now();
        const r = await op.run(t.server.url, t.world, t.topic);
        t.times.push(performance.now() - began);
        await r.after?.();
        if (r.status !== 200) t.failures++;
        t.bytes = r.bytes;
      }
    }
  }
  return targets.map((t) => ({ p50: median(t.times), bytes: t.bytes, failures: t.failures }));
}

/**
 * Generation of the scaled realm alone (no HTTP, no store), from the sources through tsx (the build bundles the
 * generator into chunks of no fixed name; the timing starts once every module is loaded), in a child process
 * pinned like the servers: in this process it would share the load generator's core and heap. Median of three.
 */
function generation(): { wallMs: number; cpuMs: number } {
  const module = pathToFileURL(fileURLToPath(new URL('../mock-server/src/fixtures/demo-realm.ts', import.meta.url))).href;
  const script = `const { generateDemoRealm } = await import(${JSON.stringify(module)});
const began = performance.now();
const cpu = process.cpuUsage();
generateDemoRealm({ realmId: 'scaled', seed: 42, featureLevel: 412, epoch: 1_767_603_600, size: ${JSON.stringify(SCALE)} });
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ wallMs: performance.now() - began, cpuMs: (used.user + used.system) / 1000 }));`;
  const runs = [0, 1, 2].map(() => {
    const command = pinned([process.execPath, '--import', 'tsx', '--input-type=module', '-e', script]);
    const result = spawnSync(command[0]!, command.slice(1), { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`generation failed: ${result.stderr}`);
    return JSON.parse(result.stdout) as { wallMs: number; cpuMs: number };
  });
  return { wallMs: median(runs.map((r) => r.wallMs)), cpuMs: median(runs.map((r) => r.cpuMs)) };
}

export interface ScaleRow {
  figure: string;
  demo: string;
  scaled: string;
  ratio: string;
  target: string;
}

const BENCH_CACHE = '/tmp/teamchat-bench/cache';

export async function scaleFigures(): Promise<ScaleRow[]> {
  const rows: ScaleRow[] = [];
  const demo = await startMock(['--in-memory', '--zuliprc-dir', '/tmp/teamchat-bench']);
  let scaled: Started | undefined;
  try {
    // A cache of the benchmark's own, emptied first: the first start generates the realm and caches its
    // template; the figures are those of a second start, from the cached template, as every later start is.
    await rm(BENCH_CACHE, { recursive: true, force: true });
    const args = ['--in-memory', '--zuliprc-dir', '/tmp/teamchat-bench', '--cache-dir', BENCH_CACHE];
    const size = ['--messages', String(SCALE.messages), '--users', String(SCALE.users), '--channels', String(SCALE.channels)];
    const generating = await startMock([...args, ...size]);
    const firstRss = rssOf(generating.child);
    await stop(generating);
    scaled = await startMock([...args, ...size]);
    const rss = { demo: rssOf(demo.child), scaled: rssOf(scaled.child) };
    const worlds = { demo: await worldOf(demo.url), scaled: await worldOf(scaled.url) };
    for (const op of OPS) {
      const [d, s] = (await measure(
        [
          { server: demo, world: worlds.demo },
          { server: scaled, world: worlds.scaled },
        ],
        op,
      )) as [OpFigure, OpFigure];
      const failed = d.failures + s.failures > 0 ? ` (${d.failures + s.failures} not 200)` : '';
      rows.push({
        figure: `${op.name}: p50 ms, answer bytes`,
        demo: `${d.p50.toFixed(2)} ms, ${d.bytes} B`,
        scaled: `${s.p50.toFixed(2)} ms, ${s.bytes} B`,
        ratio: `${(s.p50 / d.p50).toFixed(2)}×${failed}`,
        target: '≤ 1.25×',
      });
    }
    const mb = (b: number | null) => (b === null ? 'n/a' : `${(b / 1024 / 1024).toFixed(0)} MB`);
    rows.push({
      figure: 'RSS after start-up',
      demo: mb(rss.demo),
      scaled: mb(rss.scaled),
      ratio: rss.demo && rss.scaled ? `${(rss.scaled / rss.demo).toFixed(2)}×` : 'n/a',
      target: '≤ 300 MB at 100,000',
    });
    rows.push({
      figure: 'serve: spawn to listening (scaled: from the cached template; first start, generating: below)',
      demo: `${demo.listenMs.toFixed(0)} ms`,
      scaled: `${scaled.listenMs.toFixed(0)} ms`,
      ratio: `${(scaled.listenMs / demo.listenMs).toFixed(2)}×`,
      target: '',
    });
    rows.push({
      figure: 'first start of the scaled realm: spawn to listening, RSS (generation, template cached on disk)',
      demo: '',
      scaled: `${generating.listenMs.toFixed(0)} ms, ${mb(firstRss)}`,
      ratio: '',
      target: '',
    });
  } finally {
    if (scaled) await stop(scaled);
    await stop(demo);
  }
  const gen = generation();
  rows.push({
    figure: 'generation alone (compiled, own process, median of 3; CPU time depends less on the load)',
    demo: '',
    scaled: `${(gen.wallMs / 1000).toFixed(2)} s wall, ${(gen.cpuMs / 1000).toFixed(2)} s CPU`,
    ratio: '',
    target: '≤ 10 s',
  });
  return rows;
}
