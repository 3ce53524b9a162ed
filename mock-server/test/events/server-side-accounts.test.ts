import { describe, expect, it } from 'vitest';
import { ControlClient } from '../../src/control/client.js';
import { error, observeEvents, openQueue, success, tables, useTestRealm, type Cred } from '../helpers/harness.js';
import { call, callControl, type Reply, type Who } from '../helpers/test-server.js';
import { deactivate, U } from '../user-admin/support.js';

/**
 * Server-side events on demand, part 2 (control/server-events.ts): accounts and the organization deactivated
 * and back, and a regenerated API key. Each test checks the next request's exact answer, what the others'
 * queues receive, and the way back.
 */

const env = useTestRealm({ realm: 'fresh' });

const control = (path: string, json?: unknown) => callControl(env.server, 'POST', `/__mock/realms/${env.realm}${path}`, json);
const me = (as: Who): Promise<Reply> => call(env.server, 'GET', '/api/v1/users/me', { as });
const refused = (code: string, msg: string) => [401, error(msg, code)];
const credential = (id: number) => env.server.control.credentials(env.realm).find((c) => c.user_id === id)!;
const ROLES = ['owner', 'administrator', 'member_2'] as const;

describe('POST /__mock/realms/{id}/users/{user_id}/deactivate and /reactivate', () => {
  it('deactivates as DELETE /users/{id} does: the same events to the others, USER_DEACTIVATED on the next request', async () => {
    const viaApi = await observeEvents(env, ROLES, {}, () => deactivate(env.server, env.who.owner!, U.member_3));
    await env.restore();
    let answer: Reply | undefined;
    const viaControl = await observeEvents(env, ROLES, {}, async () => (answer = await control(`/users/${U.member_3}/deactivate`)));
    expect(answer!.status).toBe(200);
    expect(answer!.body).toEqual(success({ ...credential(U.member_3), is_active: false }));
    expect(viaControl).toEqual(viaApi);
    // The bot goes with its owner, the events name both.
    expect(viaControl.owner!.filter((e) => e.type === 'realm_user').map((e) => e.person)).toEqual([
      { user_id: U.bot, is_active: false },
      { user_id: U.member_3, is_active: false },
    ]);
    expect(await me(env.who.member_3!)).toMatchObject({ status: 401, body: error('Account is deactivated', 'USER_DEACTIVATED') });
    expect((await me(env.who.bot!)).body.code).toBe('USER_DEACTIVATED');
  });

  it('reactivates: the account works again, the others get realm_user / update and peer_add, and register shows what it did before', async () => {
    // A client that sees archived channels: it hears of those too.
    const form = { client_capabilities: JSON.stringify({ archived_channels: true }) };
    const register = async () => (await openQueue(env.server, env.who.owner!, form)).snapshot;
    const before = await register();
    await control(`/users/${U.member}/deactivate`);
    const seen = await observeEvents(env, ['owner'], form, async () => {
      const res = await control(`/users/${U.member}/reactivate`);
      expect(res.body).toEqual(success({ ...credential(U.member), is_active: true }));
    });
    // Every channel of the member's, archived ones too (the owner may know the subscribers of each).
    const channels = Object.values(tables(env.server, env.realm).subscriptions)
      .filter((s) => s.user_id === U.member && s.active)
      .map((s) => s.stream_id)
      .sort((a, b) => a - b);
    expect(channels.length).toBeGreaterThan(0);
    expect(seen.owner).toEqual([
      { type: 'realm_user', op: 'update', person: { user_id: U.member, is_active: true } },
      ...channels.map((id) => ({ type: 'subscription', op: 'peer_add', stream_ids: [id], user_ids: [U.member] })),
    ]);
    const after = await register();
    const { queue_id: _a, ...was } = before;
    const { queue_id: _b, ...now } = after;
    expect(now).toEqual(was);
    const res = await me(env.who.member!);
    expect([res.status, res.body.user_id]).toEqual([200, U.member]);
  });

  it("a bot reactivated: its owner and the administrators get realm_bot / update, members don't", async () => {
    await env.server.control.deactivateUser(env.realm, U.bot);
    const seen = await observeEvents(env, ['member_3', 'administrator', 'member'], {}, () =>
      env.server.control.reactivateUser(env.realm, U.bot),
    );
    const bots = (role: string) => seen[role]!.filter((e) => e.type === 'realm_bot');
    const update = { type: 'realm_bot', op: 'update', bot: { user_id: U.bot, is_active: true } };
    expect([bots('member_3'), bots('administrator'), bots('member')]).toEqual([[update], [update], []]);
    expect((await me(env.who.bot!)).status).toBe(200);
  });

  it.each([
    ['an unknown user', 9999, 'deactivate', 'No such user'],
    ['the system bot', U.notificationBot, 'deactivate', 'No such user'],
    ['a deactivated user', U.deactivated, 'deactivate', 'User is deactivated'],
    ['the only owner', U.owner, 'deactivate', 'Cannot deactivate the only organization owner'],
    ['an active user', U.member, 'reactivate', 'User is already active'],
    ['an unknown user', 9999, 'reactivate', 'No such user'],
  ])('refuses %s (%s → %s), changing nothing', async (_name, userId, verb, msg) => {
    const before = JSON.stringify(env.server.context.store.realm(env.realm)!.users);
    expect(await control(`/users/${userId}/${verb}`)).toMatchObject({ status: 400, body: error(msg) });
    expect(JSON.stringify(env.server.context.store.realm(env.realm)!.users)).toBe(before);
  });

  it('refuses a user_id that is not a number', async () => {
    expect(await control('/users/me/deactivate')).toMatchObject({ status: 400, body: error('user_id is not an integer') });
  });
});

describe('POST /__mock/realms/{id}/deactivate and /reactivate', () => {
  it('a waiting long-poll gets realm / deactivated; every key answers REALM_DEACTIVATED; reactivated, the same queue goes on', async () => {
    const owner = env.who.owner!;
    const { queueId } = await openQueue(env.server, owner);
    const waiting = call(env.server, 'GET', '/api/v1/events', { as: owner, query: { queue_id: queueId, last_event_id: '-1' } });
    await untilWaiting(queueId, owner);
    const res = await control('/deactivate');
    expect([res.status, res.body]).toEqual([200, success({ realm_id: env.realm, deactivated: true })]);
    expect((await waiting).body).toEqual(success({ events: [{ type: 'realm', op: 'deactivated', realm_id: env.realm, id: 0 }] }));
    const refusal = refused('REALM_DEACTIVATED', 'This organization has been deactivated');
    for (const who of [owner, env.who.guest!, env.who.bot!]) {
      const answer = await me(who);
      expect([answer.status, answer.body]).toEqual(refusal);
    }
    expect(await control('/deactivate')).toMatchObject({ status: 400, body: error('The organization is already deactivated.') });
    expect((await new ControlClient(env.server.url).reactivateRealm(env.realm)).deactivated).toBe(false);
    expect((await me(owner)).status).toBe(200);
    const poll = await call(env.server, 'GET', '/api/v1/events', {
      as: owner,
      query: { queue_id: queueId, last_event_id: '0', dont_block: 'true' },
    });
    expect(poll.body).toEqual(success({ events: [] }));
    expect(await control('/reactivate')).toMatchObject({ status: 400, body: error('The organization is not deactivated.') });
  });

  it('takes no order a page of another site could send: a bodiless POST without X-Teamchat-Control changes nothing', async () => {
    const res = await call(env.server, 'POST', `/__mock/realms/${env.realm}/deactivate`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.body.result).toBe('error');
    expect((await me(env.who.owner!)).status).toBe(200);
  });

  it('a reset brings an active organization back', async () => {
    await env.server.control.deactivateRealm(env.realm);
    await env.restore();
    expect((await me(env.who.owner!)).status).toBe(200);
  });
});

describe('POST /__mock/realms/{id}/users/{user_id}/api-key', () => {
  it('answers a new key; the old one gets INVALID_API_KEY; the new one works, on the same event queue', async () => {
    const member = env.who.member!;
    const { queueId } = await openQueue(env.server, member);
    const res = await control(`/users/${U.member}/api-key`);
    expect(res.status).toBe(200);
    const key = res.body.api_key as string;
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(key).not.toBe(member.api_key);
    expect(res.body).toEqual(success({ ...credential(U.member) }));
    expect(credential(U.member).api_key).toBe(key);
    const old = await me(member);
    expect([old.status, old.body]).toEqual(refused('INVALID_API_KEY', 'Invalid API key'));
    const renewed = { email: member.email, api_key: key };
    expect((await me(renewed)).status).toBe(200);
    const poll = await call(env.server, 'GET', '/api/v1/events', {
      as: renewed,
      query: { queue_id: queueId, last_event_id: '-1', dont_block: 'true' },
    });
    expect(poll.body).toEqual(success({ events: [] }));
  });

  it("a bot's new key goes to its owner and the administrators as realm_bot / update; a human's is announced to no one", async () => {
    const seen = await observeEvents(env, ['member_3', 'owner', 'member'], {}, async () => {
      await env.server.control.rotateApiKey(env.realm, U.member_2);
      await new ControlClient(env.server.url).rotateApiKey(env.realm, U.bot);
    });
    const update = { type: 'realm_bot', op: 'update', bot: { user_id: U.bot, api_key: credential(U.bot).api_key } };
    expect([seen.member_3, seen.owner, seen.member]).toEqual([[update], [update], []]);
  });

  it('refuses an unknown user', async () => {
    expect(await control('/users/9999/api-key')).toMatchObject({ status: 400, body: error('No such user') });
  });
});

async function untilWaiting(queueId: string, who: Cred): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (env.server.context.queues.get(queueId, env.realm, who.user_id).waiter !== null) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('the long-poll never started waiting');
}
