import { describe, expect, it } from 'vitest';
import { drain, observeEvents, openQueue, useTestRealm, type Event } from '../helpers/harness.js';
import { unsubscribe } from './support.js';

/**
 * Events of DELETE /users/me/subscriptions (spec §6.4, reference §4.8 and "Event payloads"):
 * `subscription` / `remove` with `subscriptions: [{name, stream_id}]` to each removed user, and
 * `subscription` / `peer_remove` with `stream_ids` and `user_ids` to the other users who can see the
 * channel's subscribers, never to someone without access to a private channel.
 */

const ROLES = ['owner', 'administrator', 'moderator', 'member', 'member_2', 'member_3', 'guest', 'bot'] as const;
const SUBSCRIPTION_EVENTS = { event_types: '["subscription"]' };

const env = useTestRealm();

/** Opens a subscription-events queue for every role, runs the change, returns what each received. */
const observe = (change: () => Promise<unknown>) => observeEvents(env, ROLES, SUBSCRIPTION_EVENTS, change);

const removeEvent = (name: string, streamId: number) => ({
  type: 'subscription',
  op: 'remove',
  subscriptions: [{ name, stream_id: streamId }],
});
const peerRemove = (streamId: number, userIds: number[]) => ({
  type: 'subscription',
  op: 'peer_remove',
  stream_ids: [streamId],
  user_ids: userIds,
});

describe('events of unsubscribing (§4.8)', () => {
  it('a private channel: remove to the user, peer_remove only to those who may know its subscribers', async () => {
    const member = env.who.member!.user_id;
    const got = await observe(async () =>
      expect((await unsubscribe(env.server, env.who.owner!, ['models team'], [member])).status).toBe(200),
    );
    expect(got.member).toEqual([removeEvent('models team', 54)]);
    // Subscribers of 54 and organization administrators (who may administer every channel) see it.
    for (const role of ['owner', 'administrator', 'member_3', 'guest']) expect(got[role], role).toEqual([peerRemove(54, [member])]);
    // No access to 54: not a word about it.
    for (const role of ['moderator', 'member_2', 'bot']) expect(got[role], role).toEqual([]);
  });

  it('a public channel: peer_remove to everyone who can see it, a guest subscriber included', async () => {
    const member2 = env.who.member_2!.user_id;
    const got = await observe(async () => expect((await unsubscribe(env.server, env.who.member!, ['home'], [member2])).status).toBe(200));
    expect(got.member_2).toEqual([removeEvent('home', 51)]);
    for (const role of ['owner', 'administrator', 'moderator', 'member', 'member_3', 'guest', 'bot'])
      expect(got[role], role).toEqual([peerRemove(51, [member2])]);
  });

  it('a public channel a guest is not subscribed to: no peer_remove to the guest', async () => {
    const got = await observe(async () => expect((await unsubscribe(env.server, env.who.member!, ['alarm'])).status).toBe(200));
    expect(got.member).toEqual([removeEvent('alarm', 52)]);
    expect(got.guest).toEqual([]);
    expect(got.member_3).toEqual([peerRemove(52, [env.who.member!.user_id])]);
  });

  it('several users and channels: one remove per channel to each, peers hear of every removed user', async () => {
    const [member, member2] = [env.who.member!.user_id, env.who.member_2!.user_id];
    const got = await observe(async () =>
      expect((await unsubscribe(env.server, env.who.owner!, ['home', 'alarm'], [member, member2])).status).toBe(200),
    );
    expect(got.member).toEqual(expect.arrayContaining([removeEvent('home', 51), removeEvent('alarm', 52)]));
    expect(got.member!.filter((e) => e.op === 'remove')).toHaveLength(2);
    // Each removed user still sees both channels and learns that the other one left.
    expect(got.member).toEqual(expect.arrayContaining([peerRemove(51, [member2]), peerRemove(52, [member2])]));
    const ids = (events: Event[], streamId: number) =>
      events
        .filter((e) => e.op === 'peer_remove' && (e.stream_ids as number[]).includes(streamId))
        .flatMap((e) => e.user_ids as number[])
        .sort((a, b) => a - b);
    expect(ids(got.administrator!, 51)).toEqual([member, member2]);
    expect(ids(got.administrator!, 52)).toEqual([member, member2]);
    expect(ids(got.guest!, 51)).toEqual([member, member2]);
    expect(ids(got.guest!, 52)).toEqual([]);
  });

  it('sends nothing when nobody was subscribed', async () => {
    const got = await observe(async () =>
      expect((await unsubscribe(env.server, env.who.member_3!, ['alarm'])).body.not_removed).toEqual(['alarm']),
    );
    for (const role of ROLES) expect(got[role], role).toEqual([]);
  });

  it('sends nothing when the request is refused', async () => {
    const got = await observe(async () =>
      expect((await unsubscribe(env.server, env.who.member_3!, ['home'], [env.who.member!.user_id])).status).toBe(400),
    );
    for (const role of ROLES) expect(got[role], role).toEqual([]);
  });

  it('tells the leaving user which unread messages became read (update_message_flags)', async () => {
    const { queueId } = await openQueue(env.server, env.who.member_3!, { event_types: '["update_message_flags"]' });
    expect((await unsubscribe(env.server, env.who.member_3!, ['models team'])).status).toBe(200);
    expect(await drain(env.server, env.who.member_3!, queueId)).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [1083, 1084, 1087], all: false },
    ]);
  });
});
