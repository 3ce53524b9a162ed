import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madeUpEvent } from '../helpers/made-up-event.js';
import type { MockServer } from '../../src/app.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../src/contract/json-depth.js';
import { MAX_SHOWN_DEPTH, redacted, TOO_DEEP } from '../../src/http/request-log.js';
import { openFeed } from '../inspector/support.js';
import { call, credentials, startTestServer, type Who } from '../helpers/test-server.js';

/**
 * JSON nested deeper than the server reads (README "Limits of a long-running mock"): refused with a clear 400
 * in every JSON-encoded API parameter and in control bodies, and the inspector's redaction and pushes never
 * overflow the stack, whatever a queue holds.
 */
const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);
const DEEP = 20_000;

let server: MockServer;
let who: Record<string, Who & { user_id: number }>;
beforeAll(async () => {
  server = await startTestServer();
  who = credentials(server);
});
afterAll(() => server.close());

describe('nestedDeeperThan', () => {
  it('measures arrays and objects, scalars being level 0', () => {
    expect(nestedDeeperThan(1, 0)).toBe(false);
    expect(nestedDeeperThan([1], 0)).toBe(true);
    expect(nestedDeeperThan(JSON.parse(nested(100)), 100)).toBe(false);
    expect(nestedDeeperThan(JSON.parse(nested(101)), 100)).toBe(true);
    expect(nestedDeeperThan({ a: [{ b: [] }] }, 4)).toBe(false);
    expect(nestedDeeperThan({ a: [{ b: [] }] }, 3)).toBe(true);
  });

  it('measures a value far deeper than the stack allows', () => {
    expect(nestedDeeperThan(JSON.parse(nested(500_000)))).toBe(true);
  });
});

describe('JSON-encoded API parameters', () => {
  it.each([
    // 5,000 levels in a query string: 20,000 would pass the 64 KiB header limit percent-encoded.
    [
      'a query parameter (narrow of GET /messages)',
      'GET',
      '/api/v1/messages',
      'narrow',
      5_000,
      { anchor: 'newest', num_before: '1', num_after: '0' },
    ],
    ['a form parameter (event_types of POST /register)', 'POST', '/api/v1/register', 'event_types', DEEP, {}],
  ])('refuses %s nested too deeply with a clear 400', async (_name, method, path, name, depth, others) => {
    const params = { ...others, [name]: nested(depth, '"message"') };
    const res = await call(server, method, path, method === 'GET' ? { as: who.member, query: params } : { as: who.member, form: params });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: `${name} is nested too deeply (limit: ${MAX_JSON_DEPTH} levels).`,
    });
  });

  it('reads a value at the limit as before (its own validation answers)', async () => {
    const res = await call(server, 'POST', '/api/v1/register', {
      as: who.member,
      form: { event_types: nested(MAX_JSON_DEPTH, '"message"') },
    });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('event_types[0] is not a string');
  });
});

describe('control bodies', () => {
  it('refuses an injected event nested 20,000 deep; the queues and the events answer as before', async () => {
    const registered = await call(server, 'POST', '/api/v1/register', { as: who.member, form: { event_types: '["custom_deep"]' } });
    const queueId = String(registered.body.queue_id);
    const deep = `{"event":{"type":"custom_deep","payload":${nested(DEEP)}},"user_ids":[${who.member!.user_id}]}`;
    const res = await fetch(`${server.url}/__mock/realms/demo/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: deep,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: `The request body is nested too deeply (limit: ${MAX_JSON_DEPTH} levels).`,
    });
    await expect(
      server.control.injectEvent('demo', { type: 'custom_deep', payload: JSON.parse(nested(DEEP)) as unknown }, undefined),
    ).rejects.toMatchObject({
      status: 400,
    });
    expect((await call(server, 'GET', '/__mock/realms/demo/queues')).status).toBe(200);
    const events = await call(server, 'GET', '/api/v1/events', {
      as: who.member,
      query: { queue_id: queueId, last_event_id: '-1', dont_block: 'true' },
    });
    expect(events.status).toBe(200);
  });
});

describe('the inspector with a deeply nested event in a queue', () => {
  it('redacts any depth without overflowing the stack', () => {
    const copy = redacted({ events: [JSON.parse(nested(DEEP)) as unknown] });
    let level: unknown = copy;
    let depth = 0;
    while (Array.isArray(level) || (level !== null && typeof level === 'object')) {
      level = Array.isArray(level) ? level[0] : Object.values(level)[0];
      depth++;
    }
    expect(level).toBe(TOO_DEEP);
    expect(depth).toBe(MAX_SHOWN_DEPTH);
  });

  it('keeps pushing its state while the page is open, and the server keeps serving', async () => {
    const registered = await call(server, 'POST', '/api/v1/register', { as: who.owner, form: { event_types: '["custom_deep"]' } });
    expect(registered.status).toBe(200);
    const feed = await openFeed(server);
    try {
      // Past every bound on purpose (straight into the store, as a bug would), to prove the inspector copes regardless.
      const deep = { type: 'custom_deep', payload: JSON.parse(nested(DEEP)) as unknown };
      await server.context.store.transact('demo', (tx) => tx.emit(madeUpEvent(deep), [who.owner!.user_id]));
      await call(server, 'GET', '/api/v1/users/me', { as: who.member });
      const state = await feed.next('state');
      expect(JSON.stringify(state)).toContain(TOO_DEEP);
      expect((await call(server, 'GET', '/api/v1/users/me', { as: who.member })).status).toBe(200);
    } finally {
      feed.close();
      await call(server, 'DELETE', '/api/v1/events', { as: who.owner, form: { queue_id: String(registered.body.queue_id) } });
    }
  });
});
