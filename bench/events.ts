import { request } from 'undici';

/**
 * Event-system figures: how long from a write's request to the answer of a long-poll that
 * was waiting for it, and what 1,000 idle queues cost in memory. Loopback only.
 */
export interface EventBenchResult {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

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

/** A control API call: JSON, as the control API takes nothing else. */
const controlPost = (body: Record<string, unknown>) => ({
  method: 'POST' as const,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export async function member(url: string): Promise<Who> {
  const world = (await json(`${url}/__mock/realms/demo/world`)) as { world: { credentials: { member: Who } } };
  return world.world.credentials.member;
}

export async function benchWriteToPoll(url: string, samples = 300): Promise<EventBenchResult> {
  const who = await member(url);
  const created = await json(`${url}/api/v1/events?dont_block=true`, { headers: auth(who) });
  const queueId = String(created.queue_id);
  let last = -1;
  const times: number[] = [];
  for (let i = 0; i < samples + 20; i++) {
    const poll = json(`${url}/api/v1/events?queue_id=${encodeURIComponent(queueId)}&last_event_id=${last}`, { headers: auth(who) });
    // Give the poll time to reach the server and start waiting.
    await new Promise((r) => setTimeout(r, 3));
    const start = performance.now();
    await json(`${url}/__mock/realms/demo/events`, controlPost({ event: { type: 'bench', n: i }, user_ids: [who.user_id] }));
    const answer = (await poll) as { events: { id: number; type: string }[] };
    const elapsed = performance.now() - start;
    last = answer.events[answer.events.length - 1]!.id;
    if (i >= 20) times.push(elapsed); // the first rounds warm the JIT
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Number(times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2));
  return { samples: times.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: at(1) };
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
