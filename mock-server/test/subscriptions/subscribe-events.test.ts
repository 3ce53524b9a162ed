import { describe, expect, it } from 'vitest';
import { observeEvents, useTestRealm, type Event, type Json } from '../helpers/harness.js';
import { KIRA, subscribe } from './support.js';

/**
 * Events of POST /users/me/subscriptions (spec §6.4; reference "Event payloads"): `stream` / `create`
 * for a new channel to those who can see it, `subscription` / `add` with the full subscription object
 * (subscribers included) to each new subscriber, `subscription` / `peer_add` to the others who can see
 * the channel's subscribers.
 */

const env = useTestRealm();

const OBSERVERS = ['owner', 'member', 'member_2', 'member_3', 'guest'] as const;
const FORM = { event_types: '["stream", "subscription"]', client_capabilities: '{"notification_settings_null": true}' };

const observe = (change: () => Promise<unknown>) => observeEvents(env, OBSERVERS, FORM, change);

const ofKind = (events: Event[] | undefined, type: string, op: string) => (events ?? []).filter((e) => e.type === type && e.op === op);

describe('events of joining an existing channel', () => {
  it('subscription / add with the full object to the joiner, peer_add to the others who see the channel', async () => {
    const member3 = env.who.member_3!.user_id;
    const got = await observe(async () => expect((await subscribe(env.server, env.who.member_3!, ['alarm'])).status).toBe(200));

    expect(got.member_3!.map((e) => `${e.type}/${e.op}`)).toEqual(['subscription/add']);
    const [added] = got.member_3![0]!.subscriptions as Json[];
    expect(added).toMatchObject({
      stream_id: 52,
      name: 'alarm',
      invite_only: false,
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: null,
      email_notifications: null,
      push_notifications: null,
      audible_notifications: null,
      wildcard_mentions_notify: null,
      topics_policy: 'inherit',
    });
    expect(typeof added!.color).toBe('string');
    expect(added!.subscribers).toEqual([11, 12, 13, 14, 15, 16, 17]);
    expect(added!.subscriber_count).toBe(7);
    expect(added).toHaveProperty('can_remove_subscribers_group');

    for (const role of ['owner', 'member', 'member_2'])
      expect(got[role], role).toEqual([{ type: 'subscription', op: 'peer_add', stream_ids: [52], user_ids: [member3] }]);
    // A guest cannot see a public channel it is not in.
    expect(got.guest).toEqual([]);
  });

  it('a private channel: peer_add only to those with access to it', async () => {
    const got = await observe(async () =>
      expect((await subscribe(env.server, env.who.member_3!, ['models team'], { principals: `[${KIRA}]` })).status).toBe(200),
    );
    for (const role of ['owner', 'member', 'member_3', 'guest'])
      expect(got[role], role).toEqual([{ type: 'subscription', op: 'peer_add', stream_ids: [54], user_ids: [KIRA] }]);
    expect(got.member_2).toEqual([]);
  });

  it('nothing when everyone asked for was already subscribed', async () => {
    const got = await observe(async () =>
      expect((await subscribe(env.server, env.who.member!, ['home'])).body.already_subscribed).toEqual({
        [String(env.who.member!.user_id)]: ['home'],
      }),
    );
    for (const role of OBSERVERS) expect(got[role], role).toEqual([]);
  });

  it('nothing when the request is refused', async () => {
    const got = await observe(async () => expect((await subscribe(env.server, env.who.member_2!, ['models team'])).status).toBe(400));
    for (const role of OBSERVERS) expect(got[role], role).toEqual([]);
  });
});

describe('events of creating a channel', () => {
  it('stream / create to everyone who can see it, add to the creator, peer_add to the others', async () => {
    const member = env.who.member!.user_id;
    const got = await observe(async () => expect((await subscribe(env.server, env.who.member!, ['fresh paint'])).status).toBe(200));

    const create = ofKind(got.member, 'stream', 'create');
    expect(create).toHaveLength(1);
    const [stream] = create[0]!.streams as Json[];
    expect(stream).toMatchObject({
      name: 'fresh paint',
      invite_only: false,
      topics_policy: 'inherit',
      creator_id: member,
      history_public_to_subscribers: true,
    });
    const streamId = stream!.stream_id as number;

    const [sub] = ofKind(got.member, 'subscription', 'add')[0]!.subscriptions as Json[];
    expect(sub).toMatchObject({ stream_id: streamId, name: 'fresh paint', subscribers: [member] });
    expect(ofKind(got.member, 'subscription', 'peer_add')).toEqual([]);

    for (const role of ['owner', 'member_2', 'member_3']) {
      expect(
        ofKind(got[role], 'stream', 'create').map((e) => (e.streams as Json[])[0]!.stream_id),
        role,
      ).toEqual([streamId]);
      expect(ofKind(got[role], 'subscription', 'peer_add'), role).toEqual([
        { type: 'subscription', op: 'peer_add', stream_ids: [streamId], user_ids: [member] },
      ]);
      expect(ofKind(got[role], 'subscription', 'add'), role).toEqual([]);
    }
    expect(got.guest).toEqual([]);
  });

  it('a private channel is announced only to its subscribers and administrators', async () => {
    const got = await observe(async () =>
      expect((await subscribe(env.server, env.who.member!, ['hush'], { invite_only: 'true' })).status).toBe(200),
    );
    expect(ofKind(got.member, 'stream', 'create')).toHaveLength(1);
    expect(ofKind(got.owner, 'stream', 'create')).toHaveLength(1);
    for (const role of ['member_2', 'member_3', 'guest']) expect(got[role], role).toEqual([]);
  });
});
