import { Client, request } from 'undici';

/**
 * Event-system figures: how long from a write's request to the answer of a long-poll that
 * was waiting for it, and what 1,000 idle queues cost in memory. Loopback only.
 */
export interface EventBenchResult {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The same of the warm-up rounds before the timed ones. */
  warmUp: { samples: number; p50Ms: number; p99Ms: number };
}

/**
 * Rounds before the timed ones, on both sides. After 20, the mock's JIT was still optimising through the timed rounds:
 * 13–17 TurboFan compilations per 100 rounds until about the 800th, each a few ms of a V8 worker thread on the one
 * core the benchmark pins the server to. Over 3,000 rounds in a row, the first 1,000 read p50 0.9–1.2 ms and p99
 * 3.4–5.0 ms, the next 1,000 p50 0.5–0.9 ms and p99 2.9–4.3 ms. A mock left running is in the second state; the
 * rows print the first thousand beside it.
 */
const WARM_UP_ROUNDS = 1000;

type Who = { email: string; api_key: string; user_id: number };
const auth = (who: Who) => ({ authorization: `Basic ${Buffer.from(`${who.email}:${who.api_key}`).toString('base64')}` });

async function json(url: string, init: Parameters<typeof request>[1] = {}): Promise<Record<string, unknown>> {
  const res = await request(url, init);
  return (await res.body.json()) as Record<string, unknown>;
}

const form = (fields: Record<string, string>) => ({
  method: 'POST' as const,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

export async function member(url: string): Promise<Who> {
  const world = (await json(`${url}/__mock/realms/demo/world`)) as { world: { credentials: { member: Who } } };
  return world.world.credentials.member;
}

/**
 * The latency rounds' client: one keep-alive connection (an undici `Client`) per role, driven through its
 * dispatch handler, which hands over the answer's bytes with no body stream or agent in between. What the
 * rounds measure is the server: against the bare server, in four alternating pairs of runs, `request()` through
 * the global agent gave p50 0.42–1.32 ms and p99 3.4–5.6 ms, this p50 0.36–0.69 ms and p99 2.8–4.5 ms
 * (docs/benchmarks.md).
 */
class Connection {
  readonly #client: Client;

  constructor(url: string) {
    this.#client = new Client(url);
  }

  /** The answer's text, once it is complete; an error status rejects, so a failed write cannot pass for a round. */
  send(method: 'GET' | 'POST', path: string, headers: Record<string, string> = {}, body?: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let status = 0;
      this.#client.dispatch(
        { method, path, headers, body },
        {
          // undici takes a handler as of this (newer) form when it has onRequestStart.
          onRequestStart: () => {},
          onResponseStart: (_controller, statusCode) => void (status = statusCode),
          onResponseData: (_controller, chunk) => void chunks.push(chunk),
          onResponseEnd: () => {
            const text = Buffer.concat(chunks).toString();
            if (status >= 400) reject(new Error(`${method} ${path}: ${status} ${text.slice(0, 200)}`));
            else resolve(text);
          },
          onResponseError: (_controller, error) => reject(error),
        },
      );
    });
  }

  close(): Promise<void> {
    return this.#client.close();
  }
}

/** `run` with a connection for the polls and one for the writes, both closed after it. */
async function overConnections<T>(url: string, run: (polls: Connection, writes: Connection) => Promise<T>): Promise<T> {
  const polls = new Connection(url);
  const writes = new Connection(url);
  try {
    return await run(polls, writes);
  } finally {
    await Promise.all([polls.close(), writes.close()]);
  }
}

/** What one latency round drives: a poll that waits, and the write that answers it. */
interface PollTarget {
  /** Starts a poll; resolves once it has answered with the write's event. */
  poll(round: number): Promise<void>;
  /** The write; resolves once its own answer is in. */
  write(round: number): Promise<void>;
}

/**
 * `samples` rounds: a poll starts waiting, then a write is timed from its request until both it and the poll have
 * answered. A thousand: the p99 of 300 is the third-slowest sample, and on a shared machine that swings by several
 * milliseconds between runs of the same build.
 */
async function writeToPoll(target: PollTarget, samples: number): Promise<EventBenchResult> {
  const warm: number[] = [];
  const times: number[] = [];
  for (let i = 0; i < WARM_UP_ROUNDS + samples; i++) {
    const poll = target.poll(i);
    // Give the poll time to reach the server and start waiting.
    await new Promise((r) => setTimeout(r, 3));
    const start = performance.now();
    await target.write(i);
    await poll;
    (i < WARM_UP_ROUNDS ? warm : times).push(performance.now() - start);
  }
  const first = quantiles(warm);
  return { ...quantiles(times), warmUp: { samples: warm.length, p50Ms: first.p50Ms, p99Ms: first.p99Ms } };
}

function quantiles(values: number[]): Omit<EventBenchResult, 'warmUp'> {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(2));
  return { samples: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) };
}

/**
 * The mock: a member's queue, and an event for them made by a write. `control`: injected through the control API
 * (served by express's router, as every /__mock/ call). `api`: a direct message the member sends to themself through
 * the API, which is what a client's events come from.
 */
export async function benchWriteToPoll(url: string, samples = 1000, via: 'control' | 'api' = 'control'): Promise<EventBenchResult> {
  const who = await member(url);
  const created = await json(`${url}/api/v1/events?dont_block=true`, { headers: auth(who) });
  const queueId = String(created.queue_id);
  let last = -1;
  return overConnections(url, (polls, writes) =>
    writeToPoll(
      {
        async poll() {
          const path = `/api/v1/events?queue_id=${encodeURIComponent(queueId)}&last_event_id=${last}`;
          const answer = JSON.parse(await polls.send('GET', path, auth(who))) as { events: { id: number }[] };
          last = answer.events[answer.events.length - 1]!.id;
        },
        async write(n) {
          if (via === 'control') {
            const body = JSON.stringify({ event: { type: 'bench', n }, user_ids: [who.user_id] });
            JSON.parse(await writes.send('POST', '/__mock/realms/demo/events', { 'content-type': 'application/json' }, body));
            return;
          }
          const body = new URLSearchParams({ type: 'private', to: JSON.stringify([who.user_id]), content: `bench ${n}` }).toString();
          const headers = { 'content-type': 'application/x-www-form-urlencoded', ...auth(who) };
          const answer = JSON.parse(await writes.send('POST', '/api/v1/messages', headers, body)) as { result: string };
          if (answer.result !== 'success') throw new Error(`POST /messages: ${JSON.stringify(answer)}`);
        },
      },
      samples,
    ),
  );
}

/**
 * The same rounds against the bare fan-out server (bench/bare-fanout-server.ts) holding the one poll: the floor this
 * machine puts under the figure. A write that found no poll waiting yet is sent again, as the mock's poll would
 * then find the event already queued.
 */
export async function benchBareWriteToPoll(url: string, samples = 1000): Promise<EventBenchResult> {
  return overConnections(url, (polls, writes) =>
    writeToPoll(
      {
        async poll() {
          await polls.send('GET', '/events');
        },
        async write() {
          while (Number(await writes.send('POST', '/send', {}, '')) < 1) await new Promise((r) => setTimeout(r, 1));
        },
      },
      samples,
    ),
  );
}

export async function benchIdleQueues(
  url: string,
  queues = 1000,
): Promise<{ queues: number; heapBytesPerQueue: number; rssDeltaBytes: number }> {
  const who = await member(url);
  const before = (await json(`${url}/__mock/`)) as { memory: { heap_used: number; rss: number } };
  for (let i = 0; i < queues; i++) {
    await json(`${url}/api/v1/register`, {
      ...form({ event_types: '["message"]', fetch_event_types: '[]' }),
      headers: { ...auth(who), 'content-type': 'application/x-www-form-urlencoded' },
    });
  }
  const after = (await json(`${url}/__mock/`)) as { queues: number; memory: { heap_used: number; rss: number } };
  return {
    queues: after.queues,
    heapBytesPerQueue: Math.round((after.memory.heap_used - before.memory.heap_used) / queues),
    rssDeltaBytes: after.memory.rss - before.memory.rss,
  };
}
