import { describe, expect, it } from 'vitest';
import type { Who } from '../helpers/test-server.js';
import { call } from '../helpers/test-server.js';
import { drain, observeEvents, openQueue, useTestRealm } from '../helpers/harness.js';
import { DEACTIVATED_401, deactivate, err, expectSnapshotsFollow, OK, patchUser, U, user } from './support.js';

/**
 * DELETE /api/v1/users/{user_id} (spec §4.17; reference §4.17): refusals in order, what deactivation
 * does (no more authentication, event queues end, owned bots go too), and its events: `peer_remove` on
 * each of the user's channels to those who may know their subscribers, then `realm_user` / update
 * `{user_id, is_active: false}` to every active user.
 */

const env = useTestRealm({ realm: 'fresh' });

type Case = [name: string, as: string, target: number, form: Record<string, string>, msg: string];
const CASES: Case[] = [
  [
    'a comment of 2001 characters, before the target',
    'administrator',
    9999,
    { deactivation_notification_comment: 'c'.repeat(2001) },
    'deactivation_notification_comment is too long (limit: 2000 characters)',
  ],
  ['an unknown user', 'administrator', 9999, {}, 'No such user'],
  ['a bot', 'administrator', U.bot, {}, 'No such user'],
  ['the system bot', 'owner', U.notificationBot, {}, 'No such user'],
  ['an unknown user, asked by a non-administrator', 'member', 9999, {}, 'No such user'],
  ['a deactivated user', 'administrator', U.deactivated, {}, 'User is deactivated'],
  ['a deactivated user, asked by a non-administrator', 'member', U.deactivated, {}, 'User is deactivated'],
  ['a moderator asking', 'moderator', U.member_2, {}, 'Insufficient permission'],
  ['a member asking about an owner', 'member', U.owner, {}, 'Insufficient permission'],
  ['an administrator deactivating an owner (C10)', 'administrator', U.owner, {}, 'Must be an organization owner'],
  ['the only owner deactivating themselves', 'owner', U.owner, {}, 'Cannot deactivate the only organization owner'],
];

describe('DELETE /users/{user_id}: refusals in order (§4.17)', () => {
  it.each(CASES)('%s', async (_name, as, target, form, msg) => {
    const before = JSON.stringify(env.server.context.store.realm(env.realm)!.users);
    const res = await deactivate(env.server, env.who[as]!, target, form);
    expect([res.status, res.body]).toEqual([400, err(msg)]);
    expect(JSON.stringify(env.server.context.store.realm(env.realm)!.users)).toBe(before);
  });

  it('an owner may deactivate another owner; an administrator may deactivate themselves', async () => {
    expect((await patchUser(env.server, env.who.owner!, U.member_2, { role: '100' })).body).toEqual(OK);
    expect((await deactivate(env.server, env.who.administrator!, U.member_2)).body).toEqual(err('Must be an organization owner'));
    expect((await deactivate(env.server, env.who.owner!, U.member_2)).body).toEqual(OK);
    expect((await deactivate(env.server, env.who.administrator!, U.administrator)).body).toEqual(OK);
    expect([user(env, U.member_2).is_active, user(env, U.administrator).is_active]).toEqual([false, false]);
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['text', 'Thank you for everything'],
    ['2000 characters inside whitespace', `  ${'c'.repeat(2000)}  `],
  ])('deactivation_notification_comment %s is accepted (no email is sent: the mock delivers none)', async (_name, comment) => {
    const res = await deactivate(
      env.server,
      env.who.administrator!,
      U.member_2,
      comment === undefined ? undefined : { deactivation_notification_comment: comment },
    );
    expect([res.status, res.body]).toEqual([200, OK]);
  });
});

describe('what deactivation does', () => {
  it('the account can no longer authenticate; others list it as deactivated', async () => {
    expect((await deactivate(env.server, env.who.administrator!, U.member)).body).toEqual(OK);
    expect(user(env, U.member).is_active).toBe(false);
    const res = await call(env.server, 'GET', '/api/v1/users/me', { as: env.who.member! });
    expect([res.status, res.body]).toEqual([401, DEACTIVATED_401]);
    const { snapshot } = await openQueue(env.server, env.who.owner!, { fetch_event_types: '["realm_user"]' });
    const ids = (list: string) => (snapshot[list] as { user_id: number }[]).map((u) => u.user_id);
    expect(ids('realm_users')).not.toContain(U.member);
    expect(ids('realm_non_active_users')).toContain(U.member);
  });

  it("the user's bots are deactivated with them, each with its own events, the bots first", async () => {
    const seen = await observeEvents(env, ['owner'], {}, async () => {
      expect((await deactivate(env.server, env.who.administrator!, U.member_3)).body).toEqual(OK);
    });
    expect(user(env, U.bot).is_active).toBe(false);
    const res = await call(env.server, 'GET', '/api/v1/users/me', { as: env.who.bot! });
    expect([res.status, res.body]).toEqual([401, DEACTIVATED_401]);
    const deactivations = seen.owner!.filter((e) => e.type === 'realm_user').map((e) => e.person);
    expect(deactivations).toEqual([
      { user_id: U.bot, is_active: false },
      { user_id: U.member_3, is_active: false },
    ]);
    // The bot's only channel is 51: its peer_remove comes before its deactivation.
    expect(seen.owner![0]).toEqual({ type: 'subscription', op: 'peer_remove', stream_ids: [51], user_ids: [U.bot] });
  });

  it('event queues of the user and their bots end: a waiting long-poll gets BAD_EVENT_QUEUE_ID; others go on', async () => {
    const queues = {
      member_3: await openQueue(env.server, env.who.member_3!),
      bot: await openQueue(env.server, env.who.bot!),
      owner: await openQueue(env.server, env.who.owner!),
    };
    const polls = {
      member_3: longPoll(env.who.member_3!, queues.member_3.queueId),
      bot: longPoll(env.who.bot!, queues.bot.queueId),
    };
    await untilWaiting(queues.member_3.queueId, U.member_3);
    await untilWaiting(queues.bot.queueId, U.bot);
    expect((await deactivate(env.server, env.who.owner!, U.member_3)).body).toEqual(OK);
    for (const role of ['member_3', 'bot'] as const) {
      const queueId = queues[role].queueId;
      const res = await polls[role];
      expect([res.status, res.body]).toEqual([
        400,
        { result: 'error', code: 'BAD_EVENT_QUEUE_ID', msg: `Bad event queue ID: ${queueId}`, queue_id: queueId },
      ]);
      // And from now on the credentials themselves are refused.
      const again = await call(env.server, 'GET', '/api/v1/events', {
        as: env.who[role]!,
        query: { queue_id: queueId, last_event_id: '-1', dont_block: 'true' },
      });
      expect([again.status, again.body]).toEqual([401, DEACTIVATED_401]);
    }
    expect((await drain(env.server, env.who.owner!, queues.owner.queueId)).length).toBeGreaterThan(0);
  });
});

function longPoll(as: Who, queueId: string) {
  return call(env.server, 'GET', '/api/v1/events', { as, query: { queue_id: queueId, last_event_id: '-1' } });
}

/** Waits (without asserting any timing) until the queue's long-poll is parked, so the order is certain. */
async function untilWaiting(queueId: string, userId: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (env.server.context.queues.get(queueId, env.realm, userId).waiter !== null) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('the long-poll never started waiting');
}

describe('deactivation events (reference §4.17)', () => {
  // Ashton (17) is subscribed to 51 and 52 (public) and 56 (archived).
  const peer = (id: number) => ({ type: 'subscription', op: 'peer_remove', stream_ids: [id], user_ids: [U.ashton] });
  const inactive = { type: 'realm_user', op: 'update', person: { user_id: U.ashton, is_active: false } };

  it('peer_remove per channel to those who may know its subscribers, then the update to everyone', async () => {
    const legacy = await observeEvents(env, ['owner', 'member', 'guest', 'bot'], {}, async () => {
      expect((await deactivate(env.server, env.who.administrator!, U.ashton)).body).toEqual(OK);
    });
    // Archived 56 only for clients declaring archived_channels; the guest knows only 51 (subscribed).
    expect(legacy).toEqual({
      owner: [peer(51), peer(52), inactive],
      member: [peer(51), peer(52), inactive],
      guest: [peer(51), inactive],
      bot: [peer(51), peer(52), inactive],
    });

    await env.restore();
    const modern = await observeEvents(env, ['owner', 'guest'], { client_capabilities: '{"archived_channels": true}' }, async () => {
      expect((await deactivate(env.server, env.who.administrator!, U.ashton)).body).toEqual(OK);
    });
    expect(modern).toEqual({ owner: [peer(51), peer(52), peer(56), inactive], guest: [peer(51), inactive] });
  });

  it('keeps snapshot + events = new snapshot, for a member and for an owner of bots', async () => {
    await expectSnapshotsFollow(env, ['owner', 'member', 'guest', 'bot', 'member_2'], async () => {
      expect((await deactivate(env.server, env.who.administrator!, U.ashton)).body).toEqual(OK);
    });
    await expectSnapshotsFollow(env, ['owner', 'administrator', 'member', 'guest'], async () => {
      expect((await deactivate(env.server, env.who.owner!, U.member_3)).body).toEqual(OK);
    });
  });
});
