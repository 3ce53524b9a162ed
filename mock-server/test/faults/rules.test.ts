import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { ControlClient, ControlError } from '../../src/control/client.js';
import { MAX_FAULT_RULES } from '../../src/faults/rules.js';
import { serveLogger } from '../../src/log.js';
import { call, callControl, credentials, startTestServer, type Who } from '../helpers/test-server.js';

/**
 * Which requests a fault rule applies to and for how long (control API "Fault rules"): counts, expiry, removal,
 * `every`, a seeded probability, user and role, method and path; the checks of the wire form; the cap; rules
 * going with their realm; the three faces of the API (Control, HTTP, ControlClient).
 */

let server: MockServer;
let who: Record<string, Who & { user_id: number }>;
beforeAll(async () => {
  server = await startTestServer();
  who = credentials(server);
});
afterEach(() => server.faults.clear());
afterAll(() => server.close());

const me = async (as: Who = who.member!) => (await call(server, 'GET', '/api/v1/users/me', { as })).status;
/** Statuses of `n` requests in a row (a bounded loop). */
async function statuses(n: number, as: Who = who.member!): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await me(as));
  return out;
}

describe('how long a rule applies', () => {
  it('times: the next N matching requests, then the rule is gone', async () => {
    const rule = server.faults.rateLimit({ operation: 'get-own-user', times: 2 });
    expect(rule).toMatchObject({ id: 'f1', times: 2, remaining: 2, matched: 0, applied: 0 });
    expect(await statuses(3)).toEqual([429, 429, 200]);
    expect(server.faults.list()).toEqual([]);
    expect(server.context.faults.active).toBe(false);
  });

  it('remove: a removed rule stops at once; the others stay', async () => {
    const a = server.faults.rateLimit({ operation: 'get-own-user' });
    const b = server.faults.serverError({ operation: 'send-message' });
    expect(await me()).toBe(429);
    server.faults.remove(a.id);
    expect(await me()).toBe(200);
    expect(server.faults.list().map((r) => r.id)).toEqual([b.id]);
    expect(() => server.faults.remove(a.id)).toThrow(`No fault rule '${a.id}' in realm 'demo'.`);
  });

  it('counters: matched counts every matching request, applied the ones changed', async () => {
    server.faults.rateLimit({ operation: 'get-own-user', every: 2 });
    await statuses(5);
    expect(server.faults.list()[0]).toMatchObject({ matched: 5, applied: 2, remaining: null });
  });
});

describe('which requests', () => {
  it('every: the every-th matching request', async () => {
    server.faults.rateLimit({ operation: 'get-own-user', every: 3 });
    expect(await statuses(6)).toEqual([200, 200, 429, 200, 200, 429]);
  });

  it('probability with a seed: the same seed gives the same sequence', async () => {
    server.faults.rateLimit({ operation: 'get-own-user', probability: 0.5, seed: 7 });
    const first = await statuses(16);
    server.faults.clear();
    server.faults.rateLimit({ operation: 'get-own-user', probability: 0.5, seed: 7 });
    expect(await statuses(16)).toEqual(first);
    // Both outcomes occur (a generator stuck on one would pass the line above).
    expect(new Set(first)).toEqual(new Set([200, 429]));
  });

  it('user by email or ID, and role by name', async () => {
    server.faults.rateLimit({ user: who.member!.email.toUpperCase(), operation: 'get-own-user', times: 1 });
    expect(await me(who.owner)).toBe(200);
    expect(await me(who.member)).toBe(429);
    server.faults.rateLimit({ user: who.owner!.user_id });
    expect(await me(who.member)).toBe(200);
    expect(await me(who.owner)).toBe(429);
    server.faults.clear();
    server.faults.rateLimit({ role: 'guest' });
    expect(await me(who.member)).toBe(200);
    expect(await me(who.guest)).toBe(429);
  });

  it('method and path: exact, or a prefix with a trailing *', async () => {
    server.faults.rateLimit({ method: 'get', path: '/users/*' });
    expect(await me()).toBe(429);
    expect((await call(server, 'GET', '/api/v1/users', { as: who.member })).status).toBe(200);
    server.faults.clear();
    server.faults.rateLimit({ path: '/api/v1/users' });
    expect((await call(server, 'GET', '/api/v1/users', { as: who.member })).status).toBe(429);
    expect(await me()).toBe(200);
    server.faults.clear();
    server.faults.rateLimit({ method: 'POST', path: '/users/*' });
    expect(await me()).toBe(200);
  });

  it('rules are tried in order and the first that applies decides; other realms are not touched', async () => {
    server.faults.serverError({ operation: 'get-own-user', every: 2 });
    server.faults.rateLimit({ operation: 'get-own-user' });
    expect(await statuses(2)).toEqual([429, 500]);
    const other = await server.control.createRealm({ realm_id: 'faults-other' });
    const stranger = other.world.credentials.member as Who;
    expect(await me(stranger)).toBe(200);
    await server.control.deleteRealm('faults-other');
  });
});

describe('the wire form is checked, field by field', () => {
  const cases: [string, unknown, RegExp][] = [
    ['no effect', { operation: 'get-own-user' }, /^effect is required/],
    ['unknown field', { operations: 'x', effect: { type: 'reset' } }, /^Unknown field 'operations'/],
    ['unknown operation', { operation: 'no-such-op', effect: { type: 'reset' } }, /^operation: no operation 'no-such-op'/],
    ['operation with path', { operation: 'get-own-user', path: '/users', effect: { type: 'reset' } }, /^operation cannot be combined/],
    ['method', { method: 'BREW', effect: { type: 'reset' } }, /^method must be one of/],
    ['path', { path: 'users', effect: { type: 'reset' } }, /^path must start with '\/'/],
    ['path with inner *', { path: '/us*ers', effect: { type: 'reset' } }, /^path must start with '\/'/],
    ['user', { user: 'nobody@example.test', effect: { type: 'reset' } }, /^user: no user "nobody@example.test"/],
    ['role', { role: 'king', effect: { type: 'reset' } }, /^role must be one of owner, administrator/],
    ['user and role', { user: 11, role: 'owner', effect: { type: 'reset' } }, /^user and role cannot be combined/],
    ['every', { every: 0, effect: { type: 'reset' } }, /^every must be an integer from 1/],
    ['times', { times: 1.5, effect: { type: 'reset' } }, /^times must be an integer from 1/],
    ['probability', { probability: 2, effect: { type: 'reset' } }, /^probability must be a number greater than 0/],
    ['seed', { seed: -1, effect: { type: 'reset' } }, /^seed must be an integer/],
    ['phase', { phase: 'during', effect: { type: 'reset' } }, /^phase must be 'before' or 'after'/],
    ['phase of latency', { phase: 'before', effect: { type: 'latency', ms: 5 } }, /^phase 'before' does not apply to latency/],
    ['effect', { effect: 'reset' }, /^effect must be a JSON object/],
    ['effect.type', { effect: { type: 'explode' } }, /^effect\.type must be one of/],
    ['effect field', { effect: { type: 'reset', ms: 5 } }, /^Unknown field 'effect\.ms'/],
    ['latency ms', { effect: { type: 'latency', ms: 600_001 } }, /^effect\.ms must be an integer number of milliseconds from 0 to 600000/],
    ['distribution', { effect: { type: 'latency', distribution: 'poisson', ms: 5 } }, /^effect\.distribution must be one of/],
    ['uniform order', { effect: { type: 'latency', distribution: 'uniform', min_ms: 9, max_ms: 5 } }, /^effect\.max_ms must not be less/],
    ['stray field', { effect: { type: 'latency', distribution: 'uniform', ms: 5, min_ms: 1, max_ms: 2 } }, /^effect\.ms does not apply/],
    ['sigma', { effect: { type: 'latency', distribution: 'lognormal', median_ms: 5, sigma: -1 } }, /^effect\.sigma must be/],
    ['trickle ms', { effect: { type: 'trickle', ms: -1 } }, /^effect\.ms must be an integer/],
    ['preset', { effect: { type: 'preset', preset: 'teapot' } }, /^effect\.preset must be one of rate_limit/],
    ['retry_after', { effect: { type: 'preset', preset: 'rate_limit', retry_after: 0 } }, /^effect\.retry_after must be a number/],
    ['retry_after elsewhere', { effect: { type: 'preset', preset: 'bad_gateway', retry_after: 1 } }, /^effect\.retry_after applies to/],
    ['status', { effect: { type: 'error', status: 302, msg: 'x' } }, /^effect\.status must be an HTTP error status/],
    ['code', { effect: { type: 'error', code: 'lower', msg: 'x' } }, /^effect\.code must be an upper-case identifier/],
    ['msg', { effect: { type: 'error' } }, /^effect\.msg must be a string/],
    ['fields', { effect: { type: 'error', msg: 'x', fields: [] } }, /^effect\.fields must be a JSON object/],
    ['fields envelope', { effect: { type: 'error', msg: 'x', fields: { code: 'X' } } }, /^effect\.fields cannot set 'code'/],
  ];
  it.each(cases)('%s', async (_name, rule, text) => {
    const answer = await callControl(server, 'POST', '/__mock/realms/demo/faults', rule);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect(answer.body.msg).toMatch(text);
    expect(server.faults.list()).toEqual([]);
  });

  it(`at most ${MAX_FAULT_RULES} rules per realm`, async () => {
    for (let i = 0; i < MAX_FAULT_RULES; i++) server.faults.latency({ operation: 'send-message', ms: 1 });
    const answer = await callControl(server, 'POST', '/__mock/realms/demo/faults', { effect: { type: 'reset' } });
    expect(answer.status).toBe(400);
    expect(answer.body.msg).toBe(`Too many fault rules (limit: ${MAX_FAULT_RULES}); remove some first.`);
    expect(server.faults.list()).toHaveLength(MAX_FAULT_RULES);
  });
});

describe('rules go with their realm', () => {
  it("reset, snapshot restore and delete clear the realm's rules", async () => {
    await server.control.createRealm({ realm_id: 'faults-life' });
    server.faults.rateLimit({ realmId: 'faults-life' });
    await server.control.resetRealm('faults-life');
    expect(server.faults.list('faults-life')).toEqual([]);

    server.control.saveSnapshot('faults-life', 'clean');
    server.faults.rateLimit({ realmId: 'faults-life' });
    await server.control.restoreSnapshot('faults-life', 'clean');
    expect(server.faults.list('faults-life')).toEqual([]);

    server.faults.rateLimit({ realmId: 'faults-life' });
    await server.control.deleteRealm('faults-life');
    expect(server.context.faults.active).toBe(false);
    await server.control.createRealm({ realm_id: 'faults-life' });
    expect(server.faults.list('faults-life')).toEqual([]);
    await server.control.deleteRealm('faults-life');
    expect(() => server.faults.list('faults-life')).toThrow("No realm 'faults-life'.");
  });
});

describe('the control API and its client', () => {
  it('adds, lists, removes and clears rules over HTTP, with the names of Control', async () => {
    const client = new ControlClient(server.url);
    const added = await client.addFault('demo', { operation: 'get-own-user', effect: { type: 'preset', preset: 'rate_limit' }, times: 3 });
    expect(added).toEqual({
      id: expect.stringMatching(/^f\d+$/),
      operation: 'get-own-user',
      method: null,
      path: null,
      user: null,
      role: null,
      every: 1,
      times: 3,
      probability: null,
      seed: 1,
      effect: { type: 'preset', preset: 'rate_limit', retry_after: 1 },
      phase: 'before',
      matched: 0,
      applied: 0,
      remaining: 3,
    });
    expect(await me()).toBe(429);
    expect(await client.faults('demo')).toEqual([{ ...added, matched: 1, applied: 1, remaining: 2 }]);
    await client.removeFault('demo', added.id);
    expect(await client.faults('demo')).toEqual([]);
    const missing = await client.removeFault('demo', added.id).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ControlError);
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    await client.addFault('demo', { effect: { type: 'close' }, path: '/nowhere' });
    await client.addFault('demo', { effect: { type: 'close' }, path: '/nowhere/either' });
    expect(await client.clearFaults('demo')).toEqual({ removed: 2 });
    expect((await client.addFault('demo', { effect: { type: 'close' }, path: '/x' }).then(() => client.faults('demo'))).length).toBe(1);
    const unknownRealm = await client.faults('no-realm').catch((e: unknown) => e);
    expect(unknownRealm).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it("the inspector's capture marks what a rule did", async () => {
    server.faults.rateLimit({ operation: 'get-own-user', times: 1 });
    expect(await me()).toBe(429);
    // The capture's exchanges by ID (they count up from 1): a bounded search for the refused request.
    let found: Record<string, unknown> | undefined;
    for (let id = 1; id <= 500 && !found; id++) {
      const shown = await call(server, 'GET', `/__inspector/exchanges/${id}`);
      if (shown.status === 404) break;
      const exchange = shown.body.exchange as Record<string, unknown>;
      if (exchange.status === 429 && exchange.path === '/api/v1/users/me') found = exchange;
    }
    expect(found).toMatchObject({ injected: 'rate_limit', code: 'RATE_LIMIT_HIT' });
  });
});

describe('the request log', () => {
  it('marks an exchange a rule changed with `injected`, and a wire fault as unanswered', async () => {
    const out: string[] = [];
    const logged = await startTestServer({
      requestLog: await serveLogger({ level: 'info', format: 'json', out: { write: (s: string) => out.push(s) } }),
    });
    try {
      const member = credentials(logged).member!;
      logged.faults.serverError({ operation: 'get-own-user', times: 1 });
      logged.faults.close({ operation: 'get-own-user', times: 1 });
      expect((await call(logged, 'GET', '/api/v1/users/me', { as: member })).status).toBe(500);
      await call(logged, 'GET', '/api/v1/users/me', { as: member }).catch(() => null);
      expect((await call(logged, 'GET', '/api/v1/users/me', { as: member })).status).toBe(200);
      const lines = () =>
        out
          .join('')
          .split('\n')
          .filter((l) => l.includes('/api/v1/users/me'))
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      await expect.poll(() => lines().length, { timeout: 5_000 }).toBe(3);
      const [error, closed, plain] = lines();
      // An injected 500 is no bug of the mock: logged at info, not error.
      expect(error).toMatchObject({ status: 500, injected: 'server_error', level: 30 });
      expect(closed).toMatchObject({ status: null, injected: 'close' });
      expect(closed!.msg).toMatch(/ no answer [0-9.]+ms \(injected: close\)$/);
      expect(plain).not.toHaveProperty('injected');
    } finally {
      await logged.close();
    }
  });
});
