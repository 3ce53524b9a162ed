import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { AnswerCache } from '../../src/http/answer-cache.js';
import { call, callControl, credentials, startTestServer, type Who } from '../helpers/test-server.js';

/**
 * The answer cache (http/answer-cache.ts): its bound and eviction, what frees a realm's answers, and that a
 * kept answer skips only the handler: the caller's checks, the parameters, fault rules, the journal and the
 * read barrier still apply. That kept answers equal fresh ones after any write: answer-cache-property.test.ts.
 */
describe('AnswerCache', () => {
  const text = (n: number) => `{"x":"${'a'.repeat(n)}"}`;

  it('keeps answers per realm version; a newer version drops the older answers, an older one is not kept', () => {
    const cache = new AnswerCache(10_000);
    cache.set('r', 1, 'k', text(10));
    expect(cache.get('r', 1, 'k')?.text).toBe(text(10));
    expect(cache.get('r', 1, 'other')).toBeUndefined();
    expect(cache.get('r', 2, 'k')).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
    cache.set('r', 3, 'k', text(3));
    cache.set('r', 2, 'k', text(2)); // built before the change that made version 3
    expect(cache.get('r', 3, 'k')?.text).toBe(text(3));
    expect(cache.get('r', 2, 'k')).toBeUndefined();
  });

  it('keeps one answer per key for the time it shows: another second misses, and its answer replaces the older', () => {
    const cache = new AnswerCache(10_000);
    cache.set('r', 1, 'k', text(1), 100);
    expect(cache.get('r', 1, 'k', 100)?.text).toBe(text(1));
    expect(cache.get('r', 1, 'k', 101)).toBeUndefined();
    expect(cache.get('r', 1, 'k')).toBeUndefined();
    cache.set('r', 1, 'k', text(2), 101);
    expect(cache.size).toBe(1);
    expect(cache.get('r', 1, 'k', 101)?.text).toBe(text(2));
    expect(cache.get('r', 1, 'k', 100)).toBeUndefined();
  });

  it('knows the UTF-8 length of what it keeps (the Content-Length sent again)', () => {
    const cache = new AnswerCache(10_000);
    cache.set('r', 1, 'k', '{"name":"Zoë 👋"}');
    expect(cache.get('r', 1, 'k')?.byteLength).toBe(Buffer.byteLength('{"name":"Zoë 👋"}'));
  });

  it('stays within its byte bound, evicting the least recently used first, across realms', () => {
    const cache = new AnswerCache(2_000);
    cache.set('a', 1, 'one', text(300));
    cache.set('b', 1, 'two', text(300));
    cache.set('a', 1, 'three', text(300));
    expect(cache.size).toBe(3);
    cache.get('a', 1, 'one'); // used: 'two' is now the least recently used
    cache.set('b', 1, 'four', text(300));
    expect(cache.bytes).toBeLessThanOrEqual(2_000);
    expect(cache.get('b', 1, 'two')).toBeUndefined();
    expect(cache.get('a', 1, 'one')).toBeDefined();
    expect(cache.get('b', 1, 'four')).toBeDefined();
    for (let i = 0; i < 50; i++) cache.set('c', 1, `k${i}`, text(100 + i));
    expect(cache.bytes).toBeLessThanOrEqual(2_000);
    expect(cache.get('c', 1, 'k49')).toBeDefined();
    expect(cache.get('c', 1, 'k0')).toBeUndefined();
  });

  it('does not keep an answer larger than its whole bound', () => {
    const cache = new AnswerCache(1_000);
    cache.set('r', 1, 'small', text(10));
    cache.set('r', 1, 'huge', text(5_000));
    expect(cache.get('r', 1, 'huge')).toBeUndefined();
    expect(cache.get('r', 1, 'small')).toBeDefined();
  });

  it('forgets a realm, or everything, and its bytes with it', () => {
    const cache = new AnswerCache(10_000);
    cache.set('a', 1, 'k', text(10));
    cache.set('b', 1, 'k', text(10));
    cache.forgetRealm('a');
    expect(cache.sizeOf('a')).toBe(0);
    expect(cache.sizeOf('b')).toBe(1);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });
});

describe('kept answers on the server', () => {
  let server: MockServer;
  let member: Who & { user_id: number };
  beforeAll(async () => {
    server = await startTestServer();
    member = credentials(server).member!;
  });
  afterEach(() => {
    server.faults.clear();
    vi.restoreAllMocks();
  });
  afterAll(() => server.close());

  const streams = (as: Who | null = member, query?: Record<string, string>) =>
    call(server, 'GET', '/api/v1/streams', { as, ...(query ? { query } : {}) });
  /** A second request answered from the cache (the first kept it). */
  async function warm(): Promise<string> {
    const first = await streams();
    const hits = server.context.answers.hits;
    const second = await streams();
    expect(server.context.answers.hits).toBe(hits + 1);
    expect(second.text).toBe(first.text);
    return second.text;
  }

  it('a reset, a snapshot restore and a deletion free the realm’s answers', async () => {
    const other = await callControl(server, 'POST', '/__mock/realms', { realm_id: 'kept-other' });
    expect(other.status).toBe(201);
    const otherMember = credentials(server, 'kept-other').member!;
    await warm();
    await streams(otherMember);
    const cache = server.context.answers;
    expect(cache.sizeOf('demo')).toBeGreaterThan(0);
    expect(cache.sizeOf('kept-other')).toBe(1);
    await callControl(server, 'POST', '/__mock/realms/demo/reset', {});
    expect(cache.sizeOf('demo')).toBe(0);
    expect(cache.sizeOf('kept-other')).toBe(1);
    await callControl(server, 'POST', '/__mock/realms/kept-other/snapshots', { name: 'start' });
    await streams(otherMember);
    expect(cache.sizeOf('kept-other')).toBe(1);
    await callControl(server, 'POST', '/__mock/realms/kept-other/snapshots/start/restore', {});
    expect(cache.sizeOf('kept-other')).toBe(0);
    await streams(otherMember);
    await callControl(server, 'DELETE', '/__mock/realms/kept-other');
    expect(cache.sizeOf('kept-other')).toBe(0);
  });

  it('the time an answer shows is part of its key: the server clock moving (no change to the realm) changes it', async () => {
    // No scheduled item may fall due while the clock moves: that would change the realm and hide the point.
    await server.context.store.transact('demo', (tx) => {
      for (const key of Object.keys(tx.tables.scheduled_messages)) tx.delete('scheduled_messages', key);
      for (const key of Object.keys(tx.tables.reminders)) tx.delete('reminders', key);
    });
    const created = await call(server, 'POST', '/api/v1/users/me/subscriptions', {
      as: member,
      form: { subscriptions: JSON.stringify([{ name: 'young channel' }]) },
    });
    expect(created.status).toBe(200);
    const before = await warm();
    const young = (text: string) => (JSON.parse(text) as { streams: { name: string; stream_weekly_traffic: number | null }[] }).streams;
    expect(young(before).find((c) => c.name === 'young channel')?.stream_weekly_traffic).toBeNull();
    const version = server.context.store.versionOf('demo');
    await callControl(server, 'POST', '/__mock/clock/advance', { seconds: 7 * 86_400 + 1 });
    expect(server.context.store.versionOf('demo')).toBe(version);
    const after = await streams();
    // A week old: the traffic is known (0 messages), and the channels' recent activity is a week further back.
    expect(young(after.text).find((c) => c.name === 'young channel')?.stream_weekly_traffic).toBe(0);
    server.context.answers.clear();
    expect((await streams()).text).toBe(after.text);
  });

  it('a kept answer still needs a valid caller, valid parameters, and meets fault rules and rate limits', async () => {
    await warm();
    const wrongKey = await streams({ email: member.email, api_key: 'not-the-key' });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.body.result).toBe('error');
    const anonymous = await streams(null);
    expect(anonymous.status).toBe(401);
    const badFlag = await streams(member, { include_public: 'maybe' });
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.code).toBe('BAD_REQUEST');
    await server.faults.error({ operation: 'get-streams', status: 403, code: 'UNAUTHORIZED', msg: 'Injected', times: 1 });
    const injected = await streams();
    expect(injected.status).toBe(403);
    expect(injected.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED', msg: 'Injected' });
    await server.faults.rateLimit({ operation: 'get-streams', retryAfter: 1, times: 1 });
    expect((await streams()).status).toBe(429);
    // Phase after: the request runs (here from the cache), then its answer is replaced.
    await server.faults.error({ operation: 'get-streams', phase: 'after', status: 400, code: 'BAD_REQUEST', msg: 'After', times: 1 });
    expect((await streams()).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'After' });
    expect((await streams()).status).toBe(200);
  });

  it('a kept answer is journaled like any other, with its ignored parameters listed as before', async () => {
    const query = { include_public: 'true', not_a_flag: '1' };
    const first = await streams(member, query);
    const journaledBefore = server.requests({ operation: 'get-streams' }).length;
    const hits = server.context.answers.hits;
    const second = await streams(member, query);
    expect(server.context.answers.hits).toBe(hits + 1);
    expect(second.text).toBe(first.text);
    expect(second.body.ignored_parameters_unsupported).toEqual(['not_a_flag']);
    const journaled = server.requests({ operation: 'get-streams' });
    expect(journaled.length).toBe(Math.min(journaledBefore + 1, server.context.requests.capacity));
    expect(journaled.at(-1)).toMatchObject({ status: 200, user_id: member.user_id, params: { include_public: true, not_a_flag: '1' } });
  });

  it('a kept answer waits on the read barrier like a built one', async () => {
    await warm();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const barrier = vi.spyOn(server.context.store, 'durableThrough').mockImplementation(() => gate);
    let answered = false;
    const pending = streams().then((res) => ((answered = true), res));
    await vi.waitFor(() => expect(barrier).toHaveBeenCalled());
    expect(answered).toBe(false);
    release();
    expect((await pending).status).toBe(200);
  });
});
