import { afterEach, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { ControlClient, ControlError } from '../../src/control/client.js';
import { call, callControl, credentials, startTestServer, type Reply, type Who } from '../helpers/test-server.js';

/**
 * Real rate limiting (faults/rate-limit.ts): the reference server's per-user sliding window in realm time, the
 * three X-RateLimit-* headers on every answer of a limited realm, and its 429. The clock is frozen, so every
 * value is exact and the window moves only when the test moves the realm's time.
 */
let server: MockServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const limits = (r: Reply) => ({
  limit: r.headers['x-ratelimit-limit'],
  remaining: r.headers['x-ratelimit-remaining'],
  reset: r.headers['x-ratelimit-reset'],
});
const me = (s: MockServer, who: Who) => call(s, 'GET', '/api/v1/users/me', { as: who });
const realmNow = (s: MockServer) => s.context.clock.now('demo');
const advance = (s: MockServer, seconds: number) => s.control.advanceRealm('demo', seconds);

describe('a realm limited to 3 requests per 10 seconds (serve --rate-limit 3/10)', () => {
  it('puts the three headers on every answer, errors included, with exact values', async () => {
    server = await startTestServer({ rateLimit: { requests: 3, seconds: 10 } });
    const { member } = credentials(server);
    const t0 = realmNow(server);
    const first = await me(server, member!);
    expect(first.status).toBe(200);
    expect(limits(first)).toEqual({ limit: '3', remaining: '2', reset: String(t0 + 10) });
    // A refused parameter is answered after the limit counted the request: it carries the headers too.
    const refused = await call(server, 'GET', '/api/v1/messages', {
      as: member!,
      query: { anchor: 'somewhere', num_before: '0', num_after: '1' },
    });
    expect(refused.status).toBe(400);
    expect(limits(refused)).toEqual({ limit: '3', remaining: '1', reset: String(t0 + 10) });
    expect(limits(await me(server, member!))).toEqual({ limit: '3', remaining: '0', reset: String(t0 + 10) });
  });

  it('answers the reference 429 once the budget is spent: body and header give the same seconds', async () => {
    server = await startTestServer({ rateLimit: { requests: 3, seconds: 10 } });
    const { member } = credentials(server);
    const t0 = realmNow(server);
    for (let i = 0; i < 3; i++) expect((await me(server, member!)).status).toBe(200);
    const hit = await me(server, member!);
    expect(hit.status).toBe(429);
    expect(hit.body).toEqual({ result: 'error', code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit', 'retry-after': 10 });
    expect(hit.headers['retry-after']).toBe('10');
    expect(limits(hit)).toEqual({ limit: '3', remaining: '0', reset: String(t0 + 10) });
    expect(hit.headers.date).toBe(new Date(t0 * 1000).toUTCString());
    // A refused request spends nothing: the next one is refused for the same reason, no longer.
    expect((await me(server, member!)).body['retry-after']).toBe(10);
    expect(server.control.rateLimit('demo').rejected).toBe(2);
  });

  it('slides with the realm clock: each admitted request frees its place one window after it', async () => {
    server = await startTestServer({ rateLimit: { requests: 3, seconds: 10 } });
    const { member } = credentials(server);
    const t0 = realmNow(server);
    await me(server, member!);
    await advance(server, 4);
    await me(server, member!);
    await me(server, member!);
    const early = await me(server, member!);
    expect(early.status).toBe(429);
    expect(early.body['retry-after']).toBe(6);
    expect(limits(early)).toEqual({ limit: '3', remaining: '0', reset: String(t0 + 10) });
    await advance(server, 6);
    // The request of t0 left the window; the two of t0 + 4 are still in it, with this one.
    const freed = await me(server, member!);
    expect(freed.status).toBe(200);
    expect(limits(freed)).toEqual({ limit: '3', remaining: '0', reset: String(t0 + 20) });
    expect((await me(server, member!)).body['retry-after']).toBe(4);
    await advance(server, 10);
    expect(limits(await me(server, member!))).toEqual({ limit: '3', remaining: '2', reset: String(t0 + 30) });
  });

  it('keeps a window per user: another user has the whole budget', async () => {
    server = await startTestServer({ rateLimit: { requests: 3, seconds: 10 } });
    const { member, owner } = credentials(server);
    for (let i = 0; i < 4; i++) await me(server, member!);
    expect((await me(server, member!)).status).toBe(429);
    const other = await me(server, owner!);
    expect(other.status).toBe(200);
    expect(other.headers['x-ratelimit-remaining']).toBe('2');
  });

  it("counts the event queue's GET and DELETE /events in a budget of their own, as the reference's Tornado does", async () => {
    server = await startTestServer({ rateLimit: { requests: 3, seconds: 10 } });
    const { member } = credentials(server);
    const registered = await call(server, 'POST', '/api/v1/register', { as: member!, form: { event_types: '["message"]' } });
    expect(registered.headers['x-ratelimit-remaining']).toBe('2');
    await me(server, member!);
    await me(server, member!);
    expect((await me(server, member!)).status).toBe(429);
    const queue_id = String(registered.body.queue_id);
    const poll = await call(server, 'GET', '/api/v1/events', { as: member!, query: { queue_id, last_event_id: '-1', dont_block: 'true' } });
    expect(poll.status).toBe(200);
    expect(limits(poll)).toMatchObject({ limit: '3', remaining: '2' });
    const deleted = await call(server, 'DELETE', '/api/v1/events', { as: member!, form: { queue_id } });
    expect(deleted.status).toBe(200);
    expect(deleted.headers['x-ratelimit-remaining']).toBe('1');
  });

  it('limits no request the reference leaves alone: refused credentials, anonymous calls, server_settings', async () => {
    server = await startTestServer({ rateLimit: { requests: 1, seconds: 10 } });
    const { member } = credentials(server);
    const refused = await me(server, { email: member!.email, api_key: 'x'.repeat(32) });
    expect(refused.status).toBe(401);
    expect(refused.headers['x-ratelimit-limit']).toBeUndefined();
    const anonymous = await call(server, 'GET', '/api/v1/server_settings');
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers['x-ratelimit-limit']).toBeUndefined();
    // The reference serves server_settings without its REST dispatch: not limited even with credentials.
    const settings = await call(server, 'GET', '/api/v1/server_settings', { as: member! });
    expect(settings.status).toBe(200);
    expect(settings.headers['x-ratelimit-limit']).toBeUndefined();
    // None of them spent the member's one request.
    expect((await me(server, member!)).status).toBe(200);
  });

  it('starts afresh when the realm clock is set back (its recorded times lie in the future)', async () => {
    server = await startTestServer({ rateLimit: { requests: 1, seconds: 60 } });
    const { member } = credentials(server);
    await me(server, member!);
    expect((await me(server, member!)).status).toBe(429);
    await server.control.setRealmTime('demo', realmNow(server) - 3600);
    expect((await me(server, member!)).status).toBe(200);
  });
});

describe('off by default', () => {
  it('answers without X-RateLimit headers and never 429, and the pipeline skips the step', async () => {
    server = await startTestServer();
    const { member } = credentials(server);
    expect(server.context.rateLimits.active).toBe(false);
    for (let i = 0; i < 250; i++) {
      const reply = await me(server, member!);
      expect(reply.status).toBe(200);
      expect(reply.headers['x-ratelimit-limit']).toBeUndefined();
    }
    expect(server.control.rateLimit('demo')).toEqual({ rate_limit: null, source: 'server', rejected: 0 });
  });
});

describe('per realm through the control API', () => {
  it('turns a limit on and off for one realm (GET/PUT /__mock/realms/{id}/rate-limit)', async () => {
    server = await startTestServer();
    const { member } = credentials(server);
    const on = await callControl(server, 'PUT', '/__mock/realms/demo/rate-limit', { requests: 2, seconds: 60 });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ result: 'success', msg: '', rate_limit: { requests: 2, seconds: 60 }, source: 'realm', rejected: 0 });
    expect(server.context.rateLimits.active).toBe(true);
    expect((await me(server, member!)).headers['x-ratelimit-limit']).toBe('2');
    await me(server, member!);
    expect((await me(server, member!)).status).toBe(429);
    const read = await callControl(server, 'GET', '/__mock/realms/demo/rate-limit');
    expect(read.body).toMatchObject({ rate_limit: { requests: 2, seconds: 60 }, source: 'realm', rejected: 1 });
    const off = await callControl(server, 'PUT', '/__mock/realms/demo/rate-limit', { off: true });
    expect(off.body).toMatchObject({ rate_limit: null, source: 'realm', rejected: 0 });
    expect(server.context.rateLimits.active).toBe(false);
    const free = await me(server, member!);
    expect(free.status).toBe(200);
    expect(free.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('turns one realm off under the server option while the others stay limited', async () => {
    server = await startTestServer({ rateLimit: { requests: 1, seconds: 60 } });
    const { member } = credentials(server);
    server.control.setRateLimit('demo', null);
    expect(server.control.rateLimit('demo')).toEqual({ rate_limit: null, source: 'realm', rejected: 0 });
    expect(server.context.rateLimits.active).toBe(true);
    for (let i = 0; i < 3; i++) expect((await me(server, member!)).headers['x-ratelimit-limit']).toBeUndefined();
  });

  it.each([
    [{ requests: 0, seconds: 60 }, "The rate limit's requests must be a whole number from 1 to 10000."],
    [{ requests: 10, seconds: 1.5 }, 'seconds is not an integer'],
    [{ requests: 10, seconds: 86_401 }, "The rate limit's seconds must be a whole number from 1 to 86400."],
    [{ requests: 10 }, 'Give the rate limit as {requests, seconds} (e.g. {"requests": 200, "seconds": 60}), or {off: true} for none.'],
    [{ off: true, requests: 10, seconds: 5 }, 'Give either off: true or requests and seconds, not both.'],
    [{ off: false }, 'off must be true (or left out, with requests and seconds).'],
  ])('refuses %j with a clear BAD_REQUEST and changes nothing', async (body, msg) => {
    server = await startTestServer();
    const reply = await callControl(server, 'PUT', '/__mock/realms/demo/rate-limit', body);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ result: 'error', code: 'BAD_REQUEST', msg });
    expect(server.control.rateLimit('demo')).toEqual({ rate_limit: null, source: 'server', rejected: 0 });
    expect(server.context.rateLimits.active).toBe(false);
  });

  it('has the same two methods on ControlClient, answering what Control answers', async () => {
    server = await startTestServer();
    const client = new ControlClient(server.url);
    const { member } = credentials(server);
    expect(await client.setRateLimit('demo', { requests: 1, seconds: 30 })).toEqual(server.control.rateLimit('demo'));
    await me(server, member!);
    expect((await me(server, member!)).status).toBe(429);
    expect(await client.rateLimit('demo')).toEqual({ rate_limit: { requests: 1, seconds: 30 }, source: 'realm', rejected: 1 });
    expect(await client.setRateLimit('demo', null)).toEqual({ rate_limit: null, source: 'realm', rejected: 0 });
    const refused = await client.setRateLimit('demo', { requests: 20_000, seconds: 1 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ControlError);
    expect(refused).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
  });

  it('answers NOT_FOUND for a realm that does not exist', async () => {
    server = await startTestServer();
    expect((await callControl(server, 'GET', '/__mock/realms/nowhere/rate-limit')).status).toBe(404);
    expect((await callControl(server, 'PUT', '/__mock/realms/nowhere/rate-limit', { off: true })).status).toBe(404);
  });

  it("a reset is a new server state: the realm's own rule, its windows and its count go; the server option applies", async () => {
    server = await startTestServer({ rateLimit: { requests: 3, seconds: 10 } });
    const { member } = credentials(server);
    server.control.setRateLimit('demo', { requests: 1, seconds: 600 });
    await me(server, member!);
    expect((await me(server, member!)).status).toBe(429);
    await server.control.resetRealm('demo');
    expect(server.control.rateLimit('demo')).toEqual({ rate_limit: { requests: 3, seconds: 10 }, source: 'server', rejected: 0 });
    const fresh = credentials(server).member!;
    expect((await me(server, fresh)).headers['x-ratelimit-remaining']).toBe('2');
  });

  it('a restored snapshot also starts with empty windows', async () => {
    server = await startTestServer({ rateLimit: { requests: 1, seconds: 600 } });
    const { member } = credentials(server);
    server.control.saveSnapshot('demo', 'before');
    await me(server, member!);
    expect((await me(server, member!)).status).toBe(429);
    await server.control.restoreSnapshot('demo', 'before');
    expect((await me(server, member!)).status).toBe(200);
  });
});
