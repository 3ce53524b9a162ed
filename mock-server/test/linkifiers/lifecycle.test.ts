import { describe, expect, it } from 'vitest';
import { observeEvents, openQueue, useTestRealm, type Json } from '../helpers/harness.js';
import { call } from '../helpers/test-server.js';
import { add, CAPABLE, DEMO, eventsOf, expectUnchanged, ISSUES, list, NEXT_ID, remove, reorder, TICKETS, update } from './support.js';

/**
 * The life of a linkifier (spec §2.11, §4.18, companions): display order (new ones last, updates keep
 * their place, reorder sets it), unknown IDs, the reorder rules, and the `realm_linkifiers` event: the
 * whole list, to every user of the realm, only to queues declaring linkifier_url_template (§4.21).
 */
const env = useTestRealm();

const RT = { pattern: 'RT-(?P<id>\\d+)', url_template: 'https://rt.example.com/{id}', id: NEXT_ID };
const NOT_FOUND = { result: 'error', code: 'BAD_REQUEST', msg: 'Linkifier not found.' };
const DUPLICATED = { result: 'error', code: 'BAD_REQUEST', msg: 'The ordered list must not contain duplicated linkifiers' };
const NOT_ALL = { result: 'error', code: 'BAD_REQUEST', msg: 'The ordered list must enumerate all existing linkifiers exactly once' };

describe('display order', () => {
  it('adds at the end, updates in place, reorders, and adds after a reorder at the end again', async () => {
    const admin = env.who.administrator!;
    expect((await add(env, admin, RT.pattern, RT.url_template)).body.id).toBe(NEXT_ID);
    expect(await list(env)).toEqual([TICKETS, ISSUES, RT]);
    expect((await reorder(env, admin, [NEXT_ID, 1, 2])).status).toBe(200);
    expect(await list(env)).toEqual([RT, TICKETS, ISSUES]);
    expect((await update(env, admin, 1, TICKETS.pattern, 'https://t2.example.com/{id}')).status).toBe(200);
    expect(await list(env)).toEqual([RT, { ...TICKETS, url_template: 'https://t2.example.com/{id}' }, ISSUES]);
    const fourth = await add(env, admin, 'JIRA-(?P<id>\\d+)', 'https://jira.example.com/{id}');
    expect(fourth.body.id).toBe(NEXT_ID + 1);
    expect((await list(env)).map((l) => l.id)).toEqual([NEXT_ID, 1, 2, NEXT_ID + 1]);
  });

  it('removing keeps the relative order of the others; IDs are never reused', async () => {
    const admin = env.who.administrator!;
    await add(env, admin, RT.pattern, RT.url_template);
    await reorder(env, admin, [2, NEXT_ID, 1]);
    expect((await remove(env, admin, NEXT_ID)).body).toEqual({ result: 'success', msg: '' });
    expect(await list(env)).toEqual([ISSUES, TICKETS]);
    expect((await add(env, admin, RT.pattern, RT.url_template)).body.id).toBe(NEXT_ID + 1);
  });
});

describe('unknown linkifiers', () => {
  it.each([
    ['update', () => update(env, env.who.administrator!, 999, RT.pattern, RT.url_template)],
    ['remove', () => remove(env, env.who.administrator!, 999)],
    ['remove, twice', async () => (await remove(env, env.who.administrator!, 1), remove(env, env.who.administrator!, 1))],
    [
      'update, after removal',
      async () => (await remove(env, env.who.administrator!, 1), update(env, env.who.administrator!, 1, RT.pattern, RT.url_template)),
    ],
  ] as const)('%s of an unknown ID → Linkifier not found.', async (_case, run) => {
    const res = await run();
    expect(res.status).toBe(400);
    expect(res.body).toEqual(NOT_FOUND);
  });

  it('an unknown ID changes nothing and sends nothing', async () => {
    const events = await eventsOf(env, () => remove(env, env.who.administrator!, 999));
    await expectUnchanged(env, DEMO, events);
  });

  it('a path ID that is not an integer names no linkifier: 404', async () => {
    const res = await remove(env, env.who.administrator!, 'abc');
    expect(res.status).toBe(404);
  });
});

describe('reorder-linkifiers', () => {
  const REFUSED: [string, number[] | string, object][] = [
    ['a duplicated ID', [1, 1], DUPLICATED],
    ['a duplicate among all the IDs', [1, 2, 2], DUPLICATED],
    ['a missing ID', [1], NOT_ALL],
    ['an unknown ID too', [1, 2, 99], NOT_ALL],
    ['an unknown ID instead of a known one', [1, 99], NOT_ALL],
    ['the empty list', [], NOT_ALL],
    ['a list that is not JSON', '2,1', { result: 'error', code: 'BAD_REQUEST', msg: 'ordered_linkifier_ids is not valid JSON' }],
    ['a list of strings', '["2", "1"]', { result: 'error', code: 'BAD_REQUEST', msg: 'ordered_linkifier_ids[0] is not an integer' }],
    ['a number instead of a list', '2', { result: 'error', code: 'BAD_REQUEST', msg: 'ordered_linkifier_ids is not a list' }],
  ];

  it.each(REFUSED)('refuses %s, and changes nothing', async (_case, ids, expected) => {
    let body!: Json;
    const events = await eventsOf(env, async () => (body = (await reorder(env, env.who.administrator!, ids)).body));
    expect(body).toEqual(expected);
    await expectUnchanged(env, DEMO, events);
  });

  it('requires the list', async () => {
    const res = await call(env.server, 'PATCH', '/api/v1/realm/linkifiers', { as: env.who.administrator! });
    expect(res.body).toEqual({
      result: 'error',
      code: 'REQUEST_VARIABLE_MISSING',
      msg: "Missing 'ordered_linkifier_ids' argument",
      var_name: 'ordered_linkifier_ids',
    });
  });

  it('re-sends the list even when the order is unchanged (the reference writes and notifies anyway)', async () => {
    const events = await eventsOf(env, () => reorder(env, env.who.administrator!, [1, 2]));
    expect(events).toEqual([{ type: 'realm_linkifiers', realm_linkifiers: DEMO }]);
  });

  it('in a realm without linkifiers, [] succeeds without an event and anything else names a missing one', async () => {
    await remove(env, env.who.administrator!, 1);
    await remove(env, env.who.administrator!, 2);
    const events = await eventsOf(env, async () =>
      expect((await reorder(env, env.who.administrator!, [])).body).toEqual({ result: 'success', msg: '' }),
    );
    expect(events).toEqual([]);
    expect((await reorder(env, env.who.administrator!, [1])).body).toEqual(NOT_ALL);
    expect(await list(env)).toEqual([]);
  });
});

describe('realm_linkifiers events (spec §4.21 linkifier_url_template)', () => {
  const ROLES = ['owner', 'administrator', 'moderator', 'member', 'guest', 'bot'];

  it.each([
    ['add', () => add(env, env.who.owner!, RT.pattern, RT.url_template), [TICKETS, ISSUES, RT]],
    [
      'update',
      () => update(env, env.who.owner!, 2, ISSUES.pattern, 'https://gitlab.example.com/{org}/{repo}/-/issues/{id}'),
      [TICKETS, { ...ISSUES, url_template: 'https://gitlab.example.com/{org}/{repo}/-/issues/{id}' }],
    ],
    ['reorder', () => reorder(env, env.who.owner!, [2, 1]), [ISSUES, TICKETS]],
    ['remove', () => remove(env, env.who.owner!, 1), [ISSUES]],
  ] as const)('%s: the whole list, in display order, to every user whose queue declares the capability', async (_op, change, expected) => {
    const got = await observeEvents(env, ROLES, CAPABLE, change);
    for (const role of ROLES) expect(got[role], role).toEqual([{ type: 'realm_linkifiers', realm_linkifiers: expected }]);
  });

  it('queues without the capability, or not asking for the type, get nothing', async () => {
    const without = await openQueue(env.server, env.who.member!);
    const declinedCapability = await openQueue(env.server, env.who.guest!, {
      client_capabilities: JSON.stringify({ linkifier_url_template: false }),
    });
    const otherTypes = await openQueue(env.server, env.who.owner!, { ...CAPABLE, event_types: JSON.stringify(['message']) });
    const asked = await openQueue(env.server, env.who.bot!, { ...CAPABLE, event_types: JSON.stringify(['realm_linkifiers']) });
    await add(env, env.who.administrator!, RT.pattern, RT.url_template);
    const poll = async (who: string, queueId: string) =>
      (
        await call(env.server, 'GET', '/api/v1/events', {
          as: env.who[who]!,
          query: { queue_id: queueId, last_event_id: '-1', dont_block: 'true' },
        })
      ).body.events;
    expect(await poll('member', without.queueId)).toEqual([]);
    expect(await poll('guest', declinedCapability.queueId)).toEqual([]);
    expect(await poll('owner', otherTypes.queueId)).toEqual([]);
    expect(await poll('bot', asked.queueId)).toEqual([{ type: 'realm_linkifiers', realm_linkifiers: [TICKETS, ISSUES, RT], id: 0 }]);
  });

  it('the register snapshot lists them with the capability, [] without; realm_filters is always []', async () => {
    await reorder(env, env.who.administrator!, [2, 1]);
    const form = { fetch_event_types: JSON.stringify(['realm_linkifiers']) };
    const capable = await openQueue(env.server, env.who.guest!, { ...form, ...CAPABLE });
    expect(capable.snapshot.realm_linkifiers).toEqual([ISSUES, TICKETS]);
    expect(capable.snapshot.realm_filters).toEqual([]);
    const plain = await openQueue(env.server, env.who.guest!, form);
    expect(plain.snapshot.realm_linkifiers).toEqual([]);
    expect(plain.snapshot.realm_filters).toEqual([]);
  });
});
