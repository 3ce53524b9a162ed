import { mkdtemp, rm } from 'node:fs/promises';
import { madeUpEvent } from '../helpers/made-up-event.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { call, callControl, credentials, startTestServer, type Who } from '../helpers/test-server.js';

let server: MockServer;
let member: Who & { user_id: number };
let other: Who & { user_id: number };
beforeAll(async () => {
  server = await startTestServer();
  member = credentials(server).member!;
  other = credentials(server).member_2!;
});
afterAll(() => server.close());

const newQueue = async (who: Who = member) =>
  (await call(server, 'GET', '/api/v1/events', { as: who, query: { dont_block: 'true' } })).body.queue_id as string;
const poll = (queueId: string, lastEventId: number, extra: Record<string, string> = {}, who: Who = member, signal?: AbortSignal) =>
  call(server, 'GET', '/api/v1/events', {
    as: who,
    query: { queue_id: queueId, last_event_id: String(lastEventId), ...extra },
    ...(signal ? { signal } : {}),
  });
/** An event from a committed transaction (the resource issues emit through the same path). */
const emit = (type: string, userIds: number[], extra: Record<string, unknown> = {}) =>
  server.context.store.transact('demo', (tx) => tx.emit(madeUpEvent({ type, ...extra }), userIds));
const advance = (seconds: number) => callControl(server, 'POST', '/__mock/realms/demo/clock/advance', { seconds: String(seconds) });

describe('GET /api/v1/events (§6)', () => {
  it('registers a queue when called with dont_block and no queue_id', async () => {
    const res = await call(server, 'GET', '/api/v1/events', { as: member, query: { dont_block: 'true' } });
    expect(res.body).toMatchObject({ result: 'success', events: [] });
    expect(typeof res.body.queue_id).toBe('string');
  });

  it('needs queue_id unless dont_block, and last_event_id with a queue_id', async () => {
    expect((await call(server, 'GET', '/api/v1/events', { as: member })).body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: "Missing 'queue_id' argument",
    });
    const queueId = await newQueue();
    expect((await call(server, 'GET', '/api/v1/events', { as: member, query: { queue_id: queueId } })).body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: "Missing 'last_event_id' argument",
    });
  });

  it('numbers events from 0 and discards what was acknowledged', async () => {
    const queueId = await newQueue();
    await emit('test_a', [member.user_id]);
    await emit('test_b', [member.user_id]);
    const first = await poll(queueId, -1, { dont_block: 'true' });
    expect(first.body.events).toEqual([
      { type: 'test_a', id: 0 },
      { type: 'test_b', id: 1 },
    ]);
    expect('queue_id' in first.body).toBe(false);
    await emit('test_c', [member.user_id]);
    const second = await poll(queueId, 1, { dont_block: 'true' });
    expect(second.body.events).toEqual([{ type: 'test_c', id: 2 }]);
    expect((await poll(queueId, 0, { dont_block: 'true' })).body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'An event newer than 0 has already been pruned!',
    });
    expect((await poll(queueId, 7, { dont_block: 'true' })).body).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Event 7 was not in this queue',
    });
  });

  it('delivers only to the users the event is for', async () => {
    const mine = await newQueue();
    const theirs = await newQueue(other);
    await emit('test_private', [member.user_id]);
    expect((await poll(mine, -1, { dont_block: 'true' })).body.events).toEqual([{ type: 'test_private', id: 0 }]);
    expect((await poll(theirs, -1, { dont_block: 'true' }, other)).body.events).toEqual([]);
  });

  it('holds a long-poll until an event arrives', async () => {
    const queueId = await newQueue();
    const pending = poll(queueId, -1);
    await new Promise((r) => setTimeout(r, 50));
    await emit('test_wake', [member.user_id]);
    expect((await pending).body.events).toEqual([{ type: 'test_wake', id: 0 }]);
  });

  it('answers a waiting long-poll with a heartbeat after one minute of realm time (§6.3)', async () => {
    const queueId = await newQueue();
    const pending = poll(queueId, -1);
    await new Promise((r) => setTimeout(r, 50));
    await advance(59);
    let settled = false;
    void pending.then(() => (settled = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    await advance(1);
    expect((await pending).body.events).toEqual([{ type: 'heartbeat', id: 0 }]);
  });

  it('garbage-collects a queue after ten idle minutes, then answers BAD_EVENT_QUEUE_ID with queue_id (§6.2)', async () => {
    const queueId = await newQueue();
    await advance(599);
    expect((await poll(queueId, -1, { dont_block: 'true' })).body.result).toBe('success');
    await advance(599);
    expect((await poll(queueId, -1, { dont_block: 'true' })).body.result).toBe('success');
    await advance(600);
    const res = await poll(queueId, -1, { dont_block: 'true' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ result: 'error', code: 'BAD_EVENT_QUEUE_ID', msg: `Bad event queue ID: ${queueId}`, queue_id: queueId });
  });

  it('answers another user’s queue exactly like an unknown one', async () => {
    const queueId = await newQueue();
    expect((await poll(queueId, -1, { dont_block: 'true' }, other)).body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
    expect((await poll('nope', -1, { dont_block: 'true' })).body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', queue_id: 'nope' });
  });

  it('keeps events for a client that went away mid-poll', async () => {
    const queueId = await newQueue();
    const controller = new AbortController();
    const gone = poll(queueId, -1, {}, member, controller.signal).catch(() => null);
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    await gone;
    await emit('test_later', [member.user_id]);
    expect((await poll(queueId, -1, { dont_block: 'true' })).body.events).toEqual([{ type: 'test_later', id: 0 }]);
  });

  it('ends a realm’s queues when the realm is reset', async () => {
    const queueId = await newQueue();
    await callControl(server, 'POST', '/__mock/realms/demo/reset');
    expect((await poll(queueId, -1, { dont_block: 'true' })).body.code).toBe('BAD_EVENT_QUEUE_ID');
  });
});

describe('DELETE /api/v1/events (§6)', () => {
  it('deletes the queue; the same call again answers BAD_EVENT_QUEUE_ID', async () => {
    const queueId = await newQueue();
    expect((await call(server, 'DELETE', '/api/v1/events', { as: member, form: { queue_id: queueId } })).body).toEqual({
      result: 'success',
      msg: '',
    });
    expect((await call(server, 'DELETE', '/api/v1/events', { as: member, form: { queue_id: queueId } })).body).toMatchObject({
      code: 'BAD_EVENT_QUEUE_ID',
    });
    expect((await poll(queueId, -1, { dont_block: 'true' })).body.code).toBe('BAD_EVENT_QUEUE_ID');
  });
});

describe('queues live in memory only', () => {
  it('answers BAD_EVENT_QUEUE_ID after a restart on the same state file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'teamchat-queues-'));
    try {
      const first = await startTestServer({ statePath: join(dir, 'state.json') });
      const who = credentials(first).member!;
      const queueId = (await call(first, 'GET', '/api/v1/events', { as: who, query: { dont_block: 'true' } })).body.queue_id as string;
      await first.close();
      const second = await startTestServer({ statePath: join(dir, 'state.json') });
      try {
        const res = await call(second, 'GET', '/api/v1/events', {
          as: who,
          query: { queue_id: queueId, last_event_id: '-1', dont_block: 'true' },
        });
        expect(res.body).toMatchObject({ code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('concurrent polls on one queue', () => {
  it('answers the earlier poll when a second one arrives, and the second still gets its heartbeat', async () => {
    const queueId = await newQueue();
    const first = poll(queueId, -1);
    await new Promise((r) => setTimeout(r, 50));
    const second = poll(queueId, -1);
    expect((await first).body).toMatchObject({ result: 'success', events: [] });
    await new Promise((r) => setTimeout(r, 50));
    await advance(60);
    expect((await second).body.events).toEqual([{ type: 'heartbeat', id: 0 }]);
  });
});

describe('GET /events creating a queue (reference §6)', () => {
  it('honours register-style options such as event_types', async () => {
    const res = await call(server, 'GET', '/api/v1/events', { as: member, query: { dont_block: 'true', event_types: '["wanted"]' } });
    expect(res.body.ignored_parameters_unsupported).toBeUndefined();
    const queueId = res.body.queue_id as string;
    await emit('unwanted', [member.user_id]);
    await emit('wanted', [member.user_id]);
    expect((await poll(queueId, -1, { dont_block: 'true' })).body.events).toEqual([{ type: 'wanted', id: 0 }]);
  });
});
