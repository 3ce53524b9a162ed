import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { call, credentials, startTestServer, type Who } from '../helpers/test-server.js';

/**
 * Effects that meet an answer whose client already left: a long-poll is the usual case (the client gives up
 * while it waits; its answer is written after the socket closed). Nothing may be scheduled for a socket that is
 * gone, and nothing may throw.
 */

let server: MockServer;
let member: Who & { user_id: number };
beforeAll(async () => {
  server = await startTestServer();
  member = credentials(server).member!;
});
afterEach(() => server.faults.clear());
afterAll(() => server.close());

/** Registers, starts a long-poll, and leaves while it waits; resolves once the server answered the poll. */
async function pollAndLeave(): Promise<void> {
  const registered = await call(server, 'POST', '/api/v1/register', { as: member, form: { event_types: '["message"]' } });
  const queueId = registered.body.queue_id as string;
  const leave = new AbortController();
  const polling = call(server, 'GET', '/api/v1/events', {
    as: member,
    query: { queue_id: queueId, last_event_id: '-1' },
    signal: leave.signal,
  }).catch((e: unknown) => e);
  const queue = () => [...server.context.queues.queuesOfUsers('demo', [member.user_id])].find((q) => q.id === queueId);
  await expect.poll(() => queue()?.waiter ?? null, { timeout: 5_000 }).not.toBeNull();
  leave.abort();
  await polling;
  // The poll ends when the server sees the socket close; its answer then meets the effect.
  await expect.poll(() => queue()?.waiter ?? null, { timeout: 5_000 }).toBeNull();
}

describe('an answer whose client left', () => {
  it('latency: no timer is left waiting for a socket that is gone', async () => {
    await server.faults.latency({ operation: 'get-events', ms: 600_000 });
    await pollAndLeave();
    await expect.poll(() => server.context.faults.waiting, { timeout: 2_000 }).toBe(0);
  });

  it('trickle: no piece is scheduled for a socket that is gone', async () => {
    await server.faults.trickle({ operation: 'get-events', ms: 600_000 });
    await pollAndLeave();
    await expect.poll(() => server.context.faults.waiting, { timeout: 2_000 }).toBe(0);
  });
});

describe("the server's close", () => {
  it('a long-poll its close wakes starts no latency timer: none is left once close resolves', async () => {
    const own = await startTestServer();
    const who = credentials(own).member!;
    await own.faults.latency({ operation: 'get-events', ms: 600_000 });
    const registered = await call(own, 'POST', '/api/v1/register', { as: who, form: { event_types: '["message"]' } });
    const queueId = registered.body.queue_id as string;
    const polling = call(own, 'GET', '/api/v1/events', { as: who, query: { queue_id: queueId, last_event_id: '-1' } }).catch(
      (e: unknown) => e,
    );
    const queue = () => [...own.context.queues.queuesOfUsers('demo', [who.user_id])].find((q) => q.id === queueId);
    await expect.poll(() => queue()?.waiter ?? null, { timeout: 5_000 }).not.toBeNull();
    await own.close();
    expect(own.context.faults.waiting).toBe(0);
    await polling;
  });
});
