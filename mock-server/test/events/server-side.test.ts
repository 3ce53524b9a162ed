import { describe, expect, it } from 'vitest';
import { ControlClient } from '../../src/control/client.js';
import { drain, error, nowOf, openQueue, send, success, useTestRealm, type Cred } from '../helpers/harness.js';
import { call, callControl, type Reply, type Who } from '../helpers/test-server.js';

/**
 * Server-side events on demand, part 1 (control/server-events.ts): a restart of the event queues and a silent
 * network. Each test sends what a client sends and checks the next poll's exact answer, then the way back.
 */

const env = useTestRealm({ realm: 'fresh' });

const poll = (as: Who, queueId: string, lastEventId: number, dontBlock = false): Promise<Reply> =>
  call(env.server, 'GET', '/api/v1/events', {
    as,
    query: { queue_id: queueId, last_event_id: String(lastEventId), ...(dontBlock ? { dont_block: 'true' } : {}) },
  });
const control = (path: string, json?: unknown) => callControl(env.server, 'POST', `/__mock/realms/${env.realm}${path}`, json);
const badQueue = (queueId: string) => ({ ...error(`Bad event queue ID: ${queueId}`, 'BAD_EVENT_QUEUE_ID'), queue_id: queueId });
const queueOf = (queueId: string, who: Cred) => env.server.context.queues.get(queueId, env.realm, who.user_id);

/** Until the queue's long-poll is parked (checked on the queue, never by timing). */
async function untilWaiting(queueId: string, who: Cred): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (queueOf(queueId, who).waiter !== null) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('the long-poll never started waiting');
}

/** A message to a channel the member and the owner both read (Verona, 51, in the demo realm). */
const message = (content: string) => send(env.server, env.who.owner!, { type: 'stream', to: '51', topic: 'server events', content });

describe('POST /__mock/realms/{id}/restart', () => {
  it('drops every queue: a waiting long-poll is answered with what its queue held, the next poll is BAD_EVENT_QUEUE_ID, and a client that registers again gets the next message', async () => {
    const member = env.who.member!;
    const { queueId } = await openQueue(env.server, member, { event_types: '["message"]' });
    const other = await openQueue(env.server, env.who.owner!);
    const waiting = poll(member, queueId, -1);
    await untilWaiting(queueId, member);
    const res = await control('/restart');
    expect([res.status, res.body]).toEqual([200, success({ realm_id: env.realm, user_id: null, queues: 2 })]);
    const answered = await waiting;
    expect([answered.status, answered.body]).toEqual([200, success({ events: [] })]);
    const next = await poll(member, queueId, -1, true);
    expect([next.status, next.body]).toEqual([400, badQueue(queueId)]);
    expect((await poll(env.who.owner!, other.queueId, -1, true)).body).toEqual(badQueue(other.queueId));
    // Registering again works, and the new queue receives what happens next.
    const again = await openQueue(env.server, member, { event_types: '["message"]' });
    expect((await message('after the restart')).status).toBe(200);
    const events = await drain(env.server, member, again.queueId);
    expect(events.map((e) => [e.type, (e.message as { content: string }).content])).toEqual([['message', 'after the restart']]);
  });

  it("with user_id drops only that user's queues; the queue's unacknowledged events go with it", async () => {
    const member = env.who.member!;
    const mine = await openQueue(env.server, member, { event_types: '["message"]' });
    const theirs = await openQueue(env.server, env.who.owner!, { event_types: '["message"]' });
    await message('before');
    const res = await env.server.control.restartQueues(env.realm, { user_id: member.user_id });
    expect(res).toEqual({ realm_id: env.realm, user_id: member.user_id, queues: 1 });
    expect((await poll(member, mine.queueId, -1, true)).body).toEqual(badQueue(mine.queueId));
    expect((await drain(env.server, env.who.owner!, theirs.queueId)).map((e) => e.type)).toEqual(['message']);
  });

  it('refuses an unknown user or realm, changing nothing', async () => {
    const { queueId } = await openQueue(env.server, env.who.member!);
    expect(await control('/restart', { user_id: 9999 })).toMatchObject({ status: 400, body: error('No such user') });
    expect(await control('/restart', { user_id: 'me' })).toMatchObject({ status: 400, body: error('user_id is not a number') });
    const missing = await callControl(env.server, 'POST', '/__mock/realms/no-such-realm/restart', {});
    expect([missing.status, missing.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await poll(env.who.member!, queueId, -1, true)).body).toEqual(success({ events: [] }));
  });

  it('is the same call on ControlClient', async () => {
    const { queueId } = await openQueue(env.server, env.who.member!);
    const client = new ControlClient(env.server.url);
    expect(await client.restartQueues(env.realm, { user_id: env.who.member!.user_id })).toEqual({
      realm_id: env.realm,
      user_id: env.who.member!.user_id,
      queues: 1,
    });
    expect((await poll(env.who.member!, queueId, -1, true)).body).toEqual(badQueue(queueId));
  });
});

describe('POST /__mock/realms/{id}/silence', () => {
  const advance = (seconds: number) => env.server.control.advanceRealm(env.realm, seconds);

  it('holds a long-poll without events or heartbeats for the realm time asked; when it ends the queued event goes out', async () => {
    const member = env.who.member!;
    const { queueId } = await openQueue(env.server, member, { event_types: '["message"]' });
    const res = await control('/silence', { seconds: 300 });
    expect(res.status).toBe(200);
    const now = nowOf(env.server, env.realm);
    expect(res.body).toEqual(
      success({ realm_id: env.realm, user_id: null, until: now + 300, silences: [{ user_id: null, until: now + 300 }] }),
    );
    const waiting = poll(member, queueId, -1);
    await untilWaiting(queueId, member);
    // Two heartbeat periods pass: no heartbeat is queued, the poll still waits.
    await advance(130);
    expect([queueOf(queueId, member).events, queueOf(queueId, member).waiter !== null]).toEqual([[], true]);
    // An event waits in the queue; the poll is not answered.
    await message('during the silence');
    expect(queueOf(queueId, member).events.map((e) => e.type)).toEqual(['message']);
    expect(queueOf(queueId, member).waiter).not.toBeNull();
    // A new poll of the same queue (a client that gave up and polled again) waits too, even with an event
    // queued; the poll it replaces ends with nothing.
    const again = poll(member, queueId, -1);
    expect((await waiting).body).toEqual(success({ events: [] }));
    await untilWaiting(queueId, member);
    // The realm clock passes the silence's end: the waiting poll gets the queued event.
    await advance(200);
    const answered = await again;
    expect(answered.status).toBe(200);
    expect((answered.body.events as { type: string; id: number }[]).map((e) => [e.type, e.id])).toEqual([['message', 0]]);
    expect(env.server.control.silence(env.realm, { seconds: 0 }).silences).toEqual([]);
  });

  it('a heartbeat that fell due in the silence goes out when it ends; one not yet due comes on time', async () => {
    const member = env.who.member!;
    const { queueId } = await openQueue(env.server, member);
    env.server.control.silence(env.realm, { seconds: 90 });
    const waiting = poll(member, queueId, -1);
    await untilWaiting(queueId, member);
    await advance(89);
    expect([queueOf(queueId, member).events, queueOf(queueId, member).waiter !== null]).toEqual([[], true]);
    await advance(1);
    expect((await waiting).body).toEqual(success({ events: [{ type: 'heartbeat', id: 0 }] }));
    // A short silence that ends before the heartbeat is due changes nothing for it.
    env.server.control.silence(env.realm, { seconds: 10 });
    const next = poll(member, queueId, 0);
    await untilWaiting(queueId, member);
    await advance(10);
    expect(queueOf(queueId, member).waiter).not.toBeNull();
    await advance(50);
    expect((await next).body).toEqual(success({ events: [{ type: 'heartbeat', id: 1 }] }));
  });

  it("with user_id silences only that user's long-polls; seconds 0 lifts it and answers the waiting poll", async () => {
    const member = env.who.member!;
    const owner = env.who.owner!;
    const mine = await openQueue(env.server, member, { event_types: '["message"]' });
    const theirs = await openQueue(env.server, owner, { event_types: '["message"]' });
    const res = env.server.control.silence(env.realm, { seconds: 600, user_id: member.user_id });
    expect(res.user_id).toBe(member.user_id);
    const held = poll(member, mine.queueId, -1);
    await untilWaiting(mine.queueId, member);
    const free = poll(owner, theirs.queueId, -1);
    await untilWaiting(theirs.queueId, owner);
    await message('only the owner hears it now');
    expect(((await free).body.events as { type: string }[]).map((e) => e.type)).toEqual(['message']);
    expect(queueOf(mine.queueId, member).waiter).not.toBeNull();
    // A poll with dont_block is not held open: it answers at once, silence or not.
    expect(((await poll(member, mine.queueId, -1, true)).body.events as unknown[]).length).toBe(1);
    const lifted = await control('/silence', { seconds: 0, user_id: member.user_id });
    expect(lifted.body).toEqual(success({ realm_id: env.realm, user_id: member.user_id, until: null, silences: [] }));
    expect(((await held).body.events as { type: string }[]).map((e) => e.type)).toEqual(['message']);
  });

  it('is bounded, refuses bad input, and ends with a realm reset', async () => {
    expect(await control('/silence', { seconds: 3601 })).toMatchObject({
      status: 400,
      body: error('seconds must be a number from 0 to 3600.'),
    });
    expect(await control('/silence', { seconds: -1 })).toMatchObject({ status: 400 });
    expect(await control('/silence', {})).toMatchObject({
      status: 400,
      body: { ...error("Missing 'seconds' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'seconds' },
    });
    expect(await control('/silence', { seconds: 10, user_id: 9999 })).toMatchObject({ status: 400, body: error('No such user') });
    expect(env.server.context.queues.silences.list(env.realm)).toEqual([]);
    env.server.control.silence(env.realm, { seconds: 3600 });
    const timers = env.server.context.clock.pendingTimers;
    await env.restore();
    expect(env.server.context.queues.silences.list(env.realm)).toEqual([]);
    expect(env.server.context.clock.pendingTimers).toBeLessThan(timers);
    const member = env.who.member!;
    const { queueId } = await openQueue(env.server, member, { event_types: '["message"]' });
    await message('no silence after the reset');
    expect((await poll(member, queueId, -1)).body.events).toHaveLength(1);
  });
});
