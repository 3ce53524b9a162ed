import { fileURLToPath } from 'node:url';
import { Pool, request } from 'undici';
import { basic, type Who } from './figures.js';
import { bounds, cpuMsOfStat, readOr, summarize, type FanoutRun } from './fanout-stats.js';
import { rssOf, start, startMock, stop, type Started } from './spawn.js';

/**
 * Fan-out: N users subscribed to one channel, each with a registered queue and a waiting `GET /events`;
 * one message sent; the time from the send until each poll has returned with it. Against a bare `node:http`
 * server holding N waiting requests and answering each with the bytes the mock sent one recipient
 * (`bench/bare-fanout-server.ts`), in the same run. Loopback only; every wait is bounded.
 */
export const FANOUT_USERS = (process.env.BENCH_FANOUT_USERS ?? '1000,10000').split(',').map(Number);
/**
 * Timed messages per figure (BENCH_FANOUT_MESSAGES sets both sizes). 15 where a round is short: at 1,000 polls the
 * p50 of 5 last deliveries swung by a third between back-to-back runs on this machine (43–65 ms), that of 15 by a
 * few per cent (43–45 ms; the bare server's 23–27 ms). 5 at 10,000, where each round re-opens 10,000 polls.
 */
const messagesFor = (users: number) => Number(process.env.BENCH_FANOUT_MESSAGES ?? (users <= 2000 ? 15 : 5));
/** Node flags for the mock only (`--cpu-prof --cpu-prof-dir=…`, `--heap-prof`): Node refuses them in NODE_OPTIONS. */
const MOCK_NODE_FLAGS = (process.env.BENCH_FANOUT_NODE_FLAGS ?? '').split(' ').filter(Boolean);
/**
 * Messages before the timed ones, on both sides: the first finishes opening connections, and the mock's answer path
 * takes a few fan-outs to be optimised (with 1, the 1,000-poll p50 over 5 messages read 84–89 ms; with 5, 44 ms;
 * the bare server's moved by a few ms). A mock left running all day is in the second state.
 */
const WARM_UP = 5;
/** Registrations in flight at once: a few keep the connections they need few (one core serves them anyway). */
const SETUP_CONCURRENCY = 32;
/** Principals per subscription request. */
const SUBSCRIBE_CHUNK = 1000;
/** How long all N polls may take to be waiting before a round (SYN retries after a full backlog take seconds). */
const READY_MS = 120_000;
const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

export interface FanoutFigure {
  users: number;
  /** Why the figure could not be measured here (then no runs). */
  skipped?: string;
  mock?: FanoutRun;
  bare?: FanoutRun;
  /** Seconds the whole figure took, setup included. */
  seconds: number;
  /** Bytes of one recipient's answer (the mock's, sent by the bare server too). */
  answerBytes?: number;
}

/** What a run drives: N waiting polls and one send, the same for the mock and the bare server. */
interface Target {
  /** One poll of recipient i; resolves once it answered with the message (heartbeats re-poll). */
  pollUntilMessage(i: number): Promise<string>;
  /** How many polls are waiting at the server now. */
  waiting(): Promise<number>;
  send(round: number): Promise<void>;
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + READY_MS;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`fan-out: ${what} not within ${READY_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Timed {
  times: number[][];
  serverCpuMs: number | null;
  clientCpuMs: number;
  /** The first warm-up message's last delivery (ms): the first fan-out after the polls connected, JIT cold. */
  firstMs: number;
}

/**
 * WARM_UP + `messagesFor(users)` rounds (the timed ones): every poll waiting, one send, each poll's answer timed from
 * the send; CPU counted from the send to the last answer only (not while polls are being set up).
 */
async function rounds(target: Target, users: number, serverCpu: () => number | null, onBody: (body: string) => void): Promise<Timed> {
  const all: number[][] = [];
  let serverCpuMs: number | null = 0;
  let clientCpuMs = 0;
  let firstMs = 0;
  const messages = messagesFor(users);
  for (let round = 0; round < WARM_UP + messages; round++) {
    const times = new Array<number>(users).fill(0);
    let sentAt = 0;
    const polls = Promise.all(
      Array.from({ length: users }, (_, i) =>
        target.pollUntilMessage(i).then((body) => {
          times[i] = performance.now() - sentAt;
          if (i === users - 1) onBody(body);
        }),
      ),
    );
    // Should the wait below throw, the pool's teardown fails these polls: that is not a second error.
    polls.catch(() => {});
    await until(`${users} waiting polls`, async () => (await target.waiting()) >= users);
    const cpuBefore = [serverCpu(), process.cpuUsage()] as const;
    sentAt = performance.now();
    await target.send(round);
    await polls;
    if (round < WARM_UP) {
      if (round === 0) firstMs = Math.max(...times);
      continue;
    }
    all.push(times);
    const server = serverCpu();
    const client = process.cpuUsage(cpuBefore[1]);
    serverCpuMs = server === null || cpuBefore[0] === null || serverCpuMs === null ? null : serverCpuMs + server - cpuBefore[0];
    clientCpuMs += (client.user + client.system) / 1000;
  }
  const perMessage = (ms: number) => Math.round(ms / Math.max(1, all.length));
  return {
    times: all,
    serverCpuMs: serverCpuMs === null ? null : perMessage(serverCpuMs),
    clientCpuMs: perMessage(clientCpuMs),
    firstMs: Math.round(firstMs),
  };
}

/** A pool with a connection per waiting poll, kept alive between rounds, without time limits on answers. */
const pollPool = (url: string, users: number) =>
  new Pool(url, {
    connections: users,
    pipelining: 1,
    keepAliveTimeout: 600_000,
    keepAliveMaxTimeout: 600_000,
    headersTimeout: 0,
    bodyTimeout: 0,
    connectTimeout: 60_000,
  });

/** Runs `tasks` with at most `limit` in flight. */
async function inBatches<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

async function call(url: string, path: string, init: { method?: 'GET' | 'POST'; auth?: string; form?: Record<string, string> } = {}) {
  const res = await request(url + path, {
    method: init.method ?? 'GET',
    headers: { ...(init.auth && { authorization: init.auth }), ...(init.form && FORM) },
    body: init.form && new URLSearchParams(init.form).toString(),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`fan-out setup: ${path} answered ${res.statusCode}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** The mock with N subscribers of channel `fanout`, each with a queue for message events. */
async function mockTarget(server: Started, users: number, pool: Pool): Promise<Target> {
  const { credentials } = (await call(server.url, '/__mock/realms/demo/credentials')) as {
    credentials: (Who & { is_bot: boolean; is_active: boolean; role: number })[];
  };
  const people = credentials.filter((c) => c.is_active && !c.is_bot).slice(0, users);
  if (people.length < users) throw new Error(`fan-out: the realm has ${people.length} active users, not ${users}`);
  const owner = people.find((p) => p.role === 100) ?? people[0]!;
  for (let i = 0; i < people.length; i += SUBSCRIBE_CHUNK) {
    const principals = JSON.stringify(people.slice(i, i + SUBSCRIBE_CHUNK).map((p) => p.user_id));
    await call(server.url, '/api/v1/users/me/subscriptions', {
      method: 'POST',
      auth: basic(owner),
      form: { subscriptions: JSON.stringify([{ name: 'fanout' }]), principals },
    });
  }
  const queues: { auth: string; id: string; last: number }[] = people.map((p) => ({ auth: basic(p), id: '', last: -1 }));
  await inBatches(queues, SETUP_CONCURRENCY, async (q) => {
    const answer = await call(server.url, '/api/v1/register', {
      method: 'POST',
      auth: q.auth,
      form: { event_types: '["message"]', fetch_event_types: '[]' },
    });
    q.id = String(answer.queue_id);
    q.last = Number(answer.last_event_id);
  });
  return {
    async pollUntilMessage(i) {
      const q = queues[i]!;
      for (let attempt = 0; attempt < 5; attempt++) {
        const res = await pool.request({
          method: 'GET',
          path: `/api/v1/events?queue_id=${encodeURIComponent(q.id)}&last_event_id=${q.last}`,
          headers: { authorization: q.auth },
        });
        const body = await res.body.text();
        if (res.statusCode !== 200) throw new Error(`fan-out: GET /events answered ${res.statusCode}: ${body.slice(0, 200)}`);
        const events = (JSON.parse(body) as { events: { id: number; type: string }[] }).events;
        for (const e of events) q.last = Math.max(q.last, e.id);
        if (events.some((e) => e.type === 'message')) return body;
      }
      throw new Error('fan-out: five answers without the message');
    },
    async waiting() {
      const { queues: listed } = (await call(server.url, '/__mock/realms/demo/queues')) as { queues: { waiting: boolean }[] };
      return listed.filter((q) => q.waiting).length;
    },
    async send(round) {
      await call(server.url, '/api/v1/messages', {
        method: 'POST',
        auth: basic(owner),
        form: { type: 'stream', to: 'fanout', topic: 'fan-out', content: `Fan-out message ${round + 1}` },
      });
    },
  };
}

function bareTarget(server: Started, users: number, pool: Pool): Target {
  return {
    async pollUntilMessage() {
      const res = await pool.request({ method: 'GET', path: '/events' });
      return res.body.text();
    },
    async waiting() {
      return Number(await (await request(`${server.url}/waiting`)).body.text());
    },
    async send() {
      const res = await request(`${server.url}/send`, { method: 'POST', body: '' });
      const answered = Number(await res.body.text());
      if (answered < users) throw new Error(`fan-out: the bare server answered ${answered} of ${users} polls`);
    },
  };
}

const peakRssOf = (server: Started) => {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readOr(`/proc/${server.child.pid}/status`) ?? '');
  return kb ? Number(kb[1]) * 1024 : null;
};

async function measure(server: Started, users: number, target: (pool: Pool) => Promise<Target>, onBody: (b: string) => void) {
  const pool = pollPool(server.url, users);
  try {
    const cpu = () => cpuMsOfStat(readOr(`/proc/${server.child.pid}/stat`));
    const timed = await rounds(await target(pool), users, cpu, onBody);
    // With the N connections still open: what holding N clients costs.
    return {
      ...summarize(timed.times),
      serverCpuMs: timed.serverCpuMs,
      clientCpuMs: timed.clientCpuMs,
      firstMs: timed.firstMs,
      rss: rssOf(server.child),
      peakRss: peakRssOf(server),
    };
  } finally {
    await pool.destroy();
  }
}

/** The figure for N users: the mock (a demo realm grown with `--users`), then the bare server with its bytes. */
export async function fanoutFigure(dir: string, users: number): Promise<FanoutFigure> {
  const began = performance.now();
  const seconds = () => Math.round((performance.now() - began) / 1000);
  const skipped = bounds().tooFewFiles(users);
  if (skipped) return { users, skipped, seconds: 0 };
  // A few users more than N: the demo's bots and deactivated user are not recipients.
  const mock = await startMock(['--in-memory', '--zuliprc-dir', dir, '--users', String(users + 20)], MOCK_NODE_FLAGS);
  let bytes = '';
  let mockRun: FanoutRun;
  try {
    mockRun = await measure(
      mock,
      users,
      (pool) => mockTarget(mock, users, pool),
      (b) => (bytes = b),
    );
  } finally {
    await stop(mock);
  }
  const bare = await start([here('./bare-fanout-server.ts')], { BARE_BODY: bytes });
  try {
    const bareRun = await measure(
      bare,
      users,
      async (pool) => bareTarget(bare, users, pool),
      () => {},
    );
    return { users, mock: mockRun, bare: bareRun, seconds: seconds(), answerBytes: Buffer.byteLength(bytes) };
  } finally {
    await stop(bare);
  }
}
