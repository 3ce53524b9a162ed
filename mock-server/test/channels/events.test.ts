import { beforeEach, describe, expect, it } from 'vitest';
import { credentials, type Who } from '../helpers/test-server.js';
import { archive, CH, drain, G, patch, register, withoutIds, useDemoServer, type Event, type FormInput } from './support.js';

/**
 * Events of the channel operations (spec §6, §4.21 client capabilities; reference "Event payloads" and
 * §4.16 "Events"): `stream` / `update` to everyone with metadata access, `stream` / `delete` and
 * `create` for clients without archived_channels when a channel is archived or unarchived.
 */

const env = useDemoServer();

const MODERN = { archived_channels: true, empty_topic_name: true };
const LEGACY = { empty_topic_name: true };
const TYPES = ['stream', 'subscription', 'default_streams'];
const OBSERVERS = ['owner', 'administrator', 'moderator', 'member', 'member_2', 'guest'] as const;
type Observer = (typeof OBSERVERS)[number] | 'legacy';

let queues: Record<Observer, { as: Who; queue: string }>;
// useDemoServer restores the realm before this hook runs, which ends its queues: every test registers afresh.
beforeEach(async () => {
  queues = {} as typeof queues;
  for (const role of OBSERVERS) queues[role] = { as: env.who[role]!, queue: await register(env.server, env.who[role]!, MODERN, TYPES) };
  queues.legacy = { as: env.who.member!, queue: await register(env.server, env.who.member!, LEGACY, TYPES) };
});

async function received(): Promise<Record<Observer, Record<string, unknown>[]>> {
  const out = {} as Record<Observer, Record<string, unknown>[]>;
  for (const [name, q] of Object.entries(queues) as [Observer, { as: Who; queue: string }][])
    out[name] = withoutIds(await drain(env.server, q.as, q.queue));
  return out;
}
async function change(as: Who, id: number, values: FormInput) {
  expect((await patch(env.server, as, id, values)).body).toMatchObject({ result: 'success' });
  return received();
}
const update = (stream_id: number, name: string, property: string, value: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'stream',
  op: 'update',
  stream_id,
  name,
  property,
  value,
  ...extra,
});
const everyone = <T>(value: T, except: Partial<Record<Observer, T>> = {}) =>
  Object.fromEntries([...OBSERVERS, 'legacy'].map((o) => [o, o in except ? except[o as Observer] : value])) as Record<Observer, T>;

describe('stream / update (reference §4.16 Events)', () => {
  it('a rename carries the old name in name and the new one in value, to everyone who knows the channel', async () => {
    const got = await change(env.who.owner!, CH.public, { new_name: 'lounge' });
    expect(got).toEqual(everyone([update(CH.public, 'home', 'name', 'lounge')]));
  });

  it('a description carries rendered_description; a guest without access hears nothing', async () => {
    const got = await change(env.who.administrator!, CH.public_2, { description: 'New **words**' });
    const event = update(CH.public_2, 'alarm', 'description', 'New **words**', {
      rendered_description: '<p>New <strong>words</strong></p>',
    });
    expect(got).toEqual(everyone([event], { guest: [] }));
  });

  it('a private channel tells only those with metadata access (54: not moderator, not member_2)', async () => {
    const got = await change(env.who.owner!, CH.private_shared, { description: 'Team only' });
    const event = update(CH.private_shared, 'models team', 'description', 'Team only', { rendered_description: '<p>Team only</p>' });
    expect(got).toEqual(everyone([event], { moderator: [], member_2: [] }));
  });

  it('a privacy change is one invite_only event carrying history_public_to_subscribers and is_web_public', async () => {
    const got = await change(env.who.owner!, CH.empty_topic_only, { is_private: true, history_public_to_subscribers: true });
    const event = update(CH.empty_topic_only, 'majestic chatter', 'invite_only', true, {
      history_public_to_subscribers: true,
      is_web_public: false,
    });
    expect(got).toEqual(everyone([event], { guest: [] }));
  });

  it('a channel made web-public appears (stream / create) for a guest who could not see it', async () => {
    const got = await change(env.who.owner!, CH.public_2, { is_web_public: true });
    expect(got.member).toEqual([
      update(CH.public_2, 'alarm', 'invite_only', false, { history_public_to_subscribers: true, is_web_public: true }),
    ]);
    const create = got.guest.find((e) => e.type === 'stream' && e.op === 'create') as { streams: Record<string, unknown>[] } | undefined;
    expect(create?.streams.map((s) => [s.stream_id, s.is_web_public])).toEqual([[CH.public_2, true]]);
    expect(got.guest.some((e) => e.op === 'update')).toBe(false);
  });

  it('those who lose sight of a channel made private get stream / delete', async () => {
    // member_3 left 52 and reads it only while it is public (can_add_subscribers_group cut to nobody first).
    const member3 = env.who.member_3!;
    expect((await patch(env.server, env.who.owner!, CH.public_2, { can_add_subscribers_group: { new: G.nobody } })).body).toMatchObject({
      result: 'success',
    });
    const queue = await register(env.server, member3, MODERN, TYPES);
    const got = await change(env.who.owner!, CH.public_2, { is_private: true, is_default_stream: false });
    const lost = withoutIds(await drain(env.server, member3, queue));
    expect(lost).toEqual(
      expect.arrayContaining([{ type: 'stream', op: 'delete', streams: [{ stream_id: CH.public_2 }], stream_ids: [CH.public_2] }]),
    );
    expect(lost.some((e) => e.type === 'stream' && e.op === 'update')).toBe(false);
    // Subscribers keep seeing it and get the privacy update.
    expect(got.member).toEqual(
      expect.arrayContaining([
        update(CH.public_2, 'alarm', 'invite_only', true, { history_public_to_subscribers: false, is_web_public: false }),
      ]),
    );
  });

  it('a guest loses sight of a web-public channel made private: stream / delete, no update', async () => {
    const got = await change(env.who.owner!, CH.web_public, { is_private: true });
    expect(got.guest).toEqual([{ type: 'stream', op: 'delete', streams: [{ stream_id: CH.web_public }], stream_ids: [CH.web_public] }]);
    expect(got.member).toEqual([
      update(CH.web_public, 'computers announcements', 'invite_only', true, { history_public_to_subscribers: false, is_web_public: false }),
    ]);
  });

  it.each([
    [
      'message_retention_days "unlimited"',
      CH.public,
      { message_retention_days: '"unlimited"' },
      update(CH.public, 'home', 'message_retention_days', -1),
    ],
    ['folder_id null', CH.public_2, { folder_id: null }, update(CH.public_2, 'alarm', 'folder_id', null)],
    [
      'topics_policy',
      CH.public,
      { topics_policy: 'disable_empty_topic' },
      update(CH.public, 'home', 'topics_policy', 'disable_empty_topic'),
    ],
    [
      'a group setting, normalised',
      CH.public,
      { can_remove_subscribers_group: { new: { direct_members: [], direct_subgroups: [G.moderators] } } },
      update(CH.public, 'home', 'can_remove_subscribers_group', G.moderators),
    ],
  ])('%s', async (_label, id, values, event) => {
    const got = await change(env.who.owner!, id, values);
    expect(got.member).toEqual([event]);
    expect(got.owner).toEqual([event]);
  });

  it('can_send_message_group also updates the deprecated fields derived from it', async () => {
    const got = await change(env.who.owner!, CH.public, { can_send_message_group: { new: G.administrators } });
    expect(got.member).toEqual(
      expect.arrayContaining([
        update(CH.public, 'home', 'can_send_message_group', G.administrators),
        update(CH.public, 'home', 'stream_post_policy', 2),
        update(CH.public, 'home', 'is_announcement_only', true),
      ]),
    );
  });

  it('is_default_stream sends default_streams with the new list', async () => {
    const got = await change(env.who.owner!, CH.empty_topic_only, { is_default_stream: true });
    const defaults = got.member.find((e) => e.type === 'default_streams') as { default_streams: { stream_id: number }[] } | undefined;
    expect(defaults?.default_streams.map((s) => s.stream_id)).toEqual([CH.public, CH.public_2, CH.empty_topic_only]);
    // A guest never learns of default channels it cannot see (only 51 of them is visible to it).
    const guestIds = got.guest.flatMap((e) =>
      e.type === 'default_streams' ? (e.default_streams as { stream_id: number }[]).map((s) => s.stream_id) : [],
    );
    expect(guestIds.every((id) => id === CH.public)).toBe(true);
  });

  it.each([
    ['new equal to the current value', { can_remove_subscribers_group: { new: { direct_members: [15], direct_subgroups: [G.support] } } }],
    [
      'a description equal to the current one',
      { description: 'Where we enable collaborative functionalities. Notes: https://glossy-legend.net' },
    ],
    ['a refused request', { description: 'nope', new_name: 'alarm' }],
  ])('%s sends nothing', async (_label, values) => {
    await patch(env.server, env.who.owner!, CH.public, values);
    expect(await received()).toEqual(everyone([]));
  });

  it('every delivered event has an integer id', async () => {
    await patch(env.server, env.who.owner!, CH.public, { description: 'numbered' });
    const events: Event[] = await drain(env.server, env.who.member!, queues.member.queue);
    expect(events.length).toBe(1);
    expect(Number.isInteger(events[0]!.id)).toBe(true);
  });
});

describe('archiving and unarchiving (§3, §4.21 archived_channels, reference §4.16 Events)', () => {
  it('archiving: is_archived update for archived_channels clients, stream / delete for the others', async () => {
    expect((await archive(env.server, env.who.moderator!, CH.disable_empty_topic)).body).toMatchObject({ result: 'success' });
    const got = await received();
    const modern = update(CH.disable_empty_topic, 'array tickets', 'is_archived', true);
    const legacy = { type: 'stream', op: 'delete', streams: [{ stream_id: CH.disable_empty_topic }], stream_ids: [CH.disable_empty_topic] };
    expect(got).toEqual(everyone([modern], { guest: [], legacy: [legacy] }));
  });

  it('archiving a default channel also sends the shorter default_streams list', async () => {
    await archive(env.server, env.who.owner!, CH.public_2);
    const got = await received();
    const defaults = got.member.find((e) => e.type === 'default_streams') as { default_streams: { stream_id: number }[] } | undefined;
    expect(defaults?.default_streams.map((s) => s.stream_id)).toEqual([CH.public]);
    expect(got.legacy).toEqual(
      expect.arrayContaining([{ type: 'stream', op: 'delete', streams: [{ stream_id: CH.public_2 }], stream_ids: [CH.public_2] }]),
    );
  });

  it('unarchiving: is_archived update for archived_channels clients, stream / create for the others', async () => {
    const got = await change(env.who.owner!, CH.archived, { is_archived: true });
    const modern = [update(CH.archived, 'old matrix', 'is_archived', false)];
    expect(got.member).toEqual(modern);
    expect(got.member_2).toEqual(modern);
    expect(got.guest).toEqual([]);
    const create = got.legacy.find((e) => e.type === 'stream' && e.op === 'create') as { streams: Record<string, unknown>[] } | undefined;
    expect(create?.streams.map((s) => [s.stream_id, s.name])).toEqual([[CH.archived, 'old matrix']]);
    expect(got.legacy.some((e) => e.type === 'stream' && e.op === 'update')).toBe(false);
    // member is subscribed to 56: their legacy client gets the subscription back as well.
    const added = got.legacy.find((e) => e.type === 'subscription' && e.op === 'add') as
      { subscriptions: Record<string, unknown>[] } | undefined;
    expect(added?.subscriptions.map((s) => s.stream_id)).toEqual([CH.archived]);
  });

  it('below level 315 even archived_channels clients see an archived channel go (stream / delete)', async () => {
    await env.server.control.createRealm({ realm_id: 'events-314', feature_level: 314 });
    const c = credentials(env.server, 'events-314');
    const queue = await register(env.server, c.member!, MODERN, TYPES);
    expect((await archive(env.server, c.owner!, CH.public_2)).body).toMatchObject({ result: 'success' });
    const events = withoutIds(await drain(env.server, c.member!, queue));
    // stream_ids came at level 343 (reference get-events): a realm at 314 sends `streams` only.
    expect(events).toEqual(expect.arrayContaining([{ type: 'stream', op: 'delete', streams: [{ stream_id: CH.public_2 }] }]));
    expect(events.some((e) => e.type === 'stream' && e.op === 'update')).toBe(false);
  });

  it('changes to an archived channel reach only archived_channels clients', async () => {
    const got = await change(env.who.member!, CH.archived, { description: 'Quiet' });
    expect(got.member).toEqual([update(CH.archived, 'old matrix', 'description', 'Quiet', { rendered_description: '<p>Quiet</p>' })]);
    expect(got.legacy).toEqual([]);
  });
});
