import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { call, callControl, credentials, startTestServer, type Who } from '../helpers/test-server.js';

let server: MockServer;
let member: Who & { user_id: number };
beforeAll(async () => {
  server = await startTestServer();
  member = credentials(server).member!;
});
afterAll(() => server.close());

const inject = (type: string, extra: Record<string, unknown> = {}) =>
  callControl(server, 'POST', '/__mock/realms/demo/events', { event: { type, ...extra }, user_ids: [member.user_id] });
const advance = (seconds: number) => callControl(server, 'POST', '/__mock/realms/demo/clock/advance', { seconds: String(seconds) });
const settle = (ms = 150) => new Promise((r) => setTimeout(r, ms));

/** Until the client's next long-poll is waiting on its queue (a heartbeat only goes to a waiting poll). */
async function waitForPoll(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const queue = [...server.context.queues.queuesOfUsers('demo', [member.user_id])][0];
    if (queue?.waiter) return;
    await settle(25);
  }
  throw new Error('the client never polled again');
}

describe('stock event loops', () => {
  it('zulip-js callOnEachEvent registers, long-polls and receives events and heartbeats', async () => {
    const child = spawn(process.execPath, [fileURLToPath(new URL('./fixtures/zulip-js-loop.mjs', import.meta.url))], {
      env: { ...process.env, EMAIL: member.email, KEY: member.api_key, REALM: server.url, WANT: '3' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (out += `stderr: ${chunk}`));
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    // Wait until its queue exists and its poll is waiting, then feed it.
    for (let i = 0; i < 100 && server.context.queues.size === 0; i++) await settle();
    await settle();
    await inject('custom_one', { n: 1 });
    await waitForPoll();
    await advance(60); // the waiting poll gets a heartbeat
    await waitForPoll();
    await inject('custom_two', { n: 2 });
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 8000))]);
    if (code !== 0) child.kill();
    expect(code, out).toBe(0);
    const events = out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; id: number });
    expect(events.map((e) => e.type)).toEqual(['custom_one', 'heartbeat', 'custom_two']);
    expect(events.map((e) => e.id)).toEqual([0, 1, 2]);
  }, 30_000);

  it('a plain long-poll loop (dont_block=false) re-registers after BAD_EVENT_QUEUE_ID and goes on receiving', async () => {
    const received: string[] = [];
    let registrations = 0;
    let queueId = '';
    let last = -1;
    const registerQueue = async () => {
      const res = await call(server, 'POST', '/api/v1/register', {
        as: member,
        form: { event_types: '["custom"]', fetch_event_types: '[]' },
      });
      registrations++;
      queueId = res.body.queue_id as string;
      last = res.body.last_event_id as number;
    };
    const pollOnce = async () => {
      const res = await call(server, 'GET', '/api/v1/events', {
        as: member,
        query: { queue_id: queueId, last_event_id: String(last), dont_block: 'false' },
      });
      if (res.body.code === 'BAD_EVENT_QUEUE_ID') return registerQueue();
      for (const e of res.body.events as { id: number; type: string; n?: number }[]) {
        last = Math.max(last, e.id);
        if (e.type === 'custom') received.push(`custom ${e.n}`);
      }
    };
    await registerQueue();
    const first = pollOnce();
    await settle();
    await inject('ignored'); // filtered out by event_types
    await inject('custom', { n: 1 });
    await first;
    await advance(600); // nobody polls for ten minutes: the queue is collected
    await pollOnce(); // BAD_EVENT_QUEUE_ID → register again
    const second = pollOnce();
    await settle();
    await inject('custom', { n: 2 });
    await second;
    expect(received).toEqual(['custom 1', 'custom 2']);
    expect(registrations).toBe(2);
  });
});
