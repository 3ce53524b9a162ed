import { describe, expect, it } from 'vitest';
import { call, credentials } from '../helpers/test-server.js';
import { CH, err, G, KINDS, listStreams, ROLES, useDemoServer, type Kind, type Role } from './support.js';

/**
 * The channel object (spec §2.2, reference §2) in GET /streams and GET /streams/{id}, and what the feature
 * level changes about it and about the listing (spec §9: 315 archived channels, 333 can_send_message_group,
 * 356 include_all, 407 channel-level delete groups).
 */

const env = useDemoServer({ levels: [314, 315, 332, 333, 355, 356, 406, 407], isolate: false });

const isInt = (v: unknown) => Number.isInteger(v);
const isBool = (v: unknown) => typeof v === 'boolean';
const isStr = (v: unknown) => typeof v === 'string';
const intOrNull = (v: unknown) => v === null || isInt(v);
const isIntList = (v: unknown) => Array.isArray(v) && v.every(isInt);
/** Spec §1 group-setting value: a group ID or {direct_members, direct_subgroups}. */
const isGroupSetting = (v: unknown) =>
  isInt(v) ||
  (typeof v === 'object' &&
    v !== null &&
    Object.keys(v).sort().join() === 'direct_members,direct_subgroups' &&
    isIntList((v as Record<string, unknown>).direct_members) &&
    isIntList((v as Record<string, unknown>).direct_subgroups));

const GROUPS = [
  'can_add_subscribers_group',
  'can_remove_subscribers_group',
  'can_administer_channel_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_send_message_group',
  'can_subscribe_group',
  'can_resolve_topics_group',
];
const FIELDS: [string, (v: unknown) => boolean][] = [
  ['stream_id', isInt],
  ['name', isStr],
  ['is_archived', isBool],
  ['description', isStr],
  ['rendered_description', isStr],
  ['date_created', isInt],
  ['creator_id', intOrNull],
  ['invite_only', isBool],
  ['is_web_public', isBool],
  ['stream_post_policy', (v) => [1, 2, 3, 4].includes(v as number)],
  ['is_announcement_only', isBool],
  ['message_retention_days', intOrNull],
  ['history_public_to_subscribers', isBool],
  ['topics_policy', (v) => ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'].includes(v as string)],
  ['first_message_id', intOrNull],
  ['folder_id', intOrNull],
  ['is_recently_active', isBool],
  ['stream_weekly_traffic', intOrNull],
  ['subscriber_count', isInt],
  ...GROUPS.map((g): [string, (v: unknown) => boolean] => [g, isGroupSetting]),
];

async function everyChannel(realmId = 'demo'): Promise<Record<string, unknown>[]> {
  const res = await listStreams(env.server, credentials(env.server, realmId).administrator!, {
    include_all: true,
    exclude_archived: false,
  });
  return res.body.streams as Record<string, unknown>[];
}
const byId = (list: Record<string, unknown>[], id: number) => list.find((s) => s.stream_id === id);

describe('channel objects in GET /streams (§2.2)', () => {
  it('carries every field with the right type on every channel', async () => {
    const channels = await everyChannel();
    expect(channels).toHaveLength(KINDS.length);
    const wrong = channels.flatMap((c) =>
      FIELDS.filter(([f, check]) => !check(c[f])).map(([f]) => `${String(c.stream_id)}.${f}=${JSON.stringify(c[f])}`),
    );
    expect(wrong).toEqual([]);
  });

  it('derives the deprecated stream_post_policy and is_announcement_only from can_send_message_group', async () => {
    const channels = await everyChannel();
    const derived = Object.fromEntries(
      channels.map((c) => [c.stream_id, [c.can_send_message_group, c.stream_post_policy, c.is_announcement_only]]),
    );
    expect(derived[CH.web_public]).toEqual([G.administrators, 2, true]);
    // Everyone (51) and an anonymous group (57: notification bot + moderators) are "any user".
    expect(derived[CH.public]).toEqual([G.everyone, 1, false]);
    expect(derived[CH.moderation]).toEqual([{ direct_members: [22], direct_subgroups: [G.moderators] }, 1, false]);
  });

  it('shows the stored settings of the demo world', async () => {
    const channels = await everyChannel();
    expect(byId(channels, CH.public)).toMatchObject({
      name: 'home',
      creator_id: 11,
      invite_only: false,
      is_archived: false,
      folder_id: null,
      message_retention_days: null,
      can_remove_subscribers_group: { direct_members: [15], direct_subgroups: [G.support] },
      can_administer_channel_group: { direct_members: [11], direct_subgroups: [] },
    });
    expect(byId(channels, CH.public_2)).toMatchObject({ message_retention_days: -1, folder_id: 1 });
    expect(byId(channels, CH.private_protected)).toMatchObject({
      invite_only: true,
      history_public_to_subscribers: false,
      message_retention_days: 30,
    });
    expect(byId(channels, CH.web_public)).toMatchObject({ is_web_public: true, invite_only: false, history_public_to_subscribers: true });
    expect(byId(channels, CH.archived)).toMatchObject({ is_archived: true, creator_id: 14 });
    expect(byId(channels, CH.empty_topic_only)).toMatchObject({ topics_policy: 'empty_topic_only' });
    expect(byId(channels, CH.disable_empty_topic)).toMatchObject({ topics_policy: 'disable_empty_topic' });
  });
});

/** Metadata access per role (reference "Shared access checks"): who may GET /streams/{id}. */
const HIDDEN: Record<Role, Kind[]> = {
  owner: [],
  administrator: [],
  moderator: ['private_shared'],
  member: ['moderation'],
  member_2: ['private_shared', 'moderation'],
  guest: ['public_2', 'private_protected', 'archived', 'moderation', 'empty_topic_only', 'disable_empty_topic'],
  bot: ['private_shared', 'moderation'],
};

describe('GET /api/v1/streams/{stream_id} (companion)', () => {
  it.each(ROLES)('answers the %s for exactly the channels with metadata access', async (role) => {
    const outcome: Record<string, string> = {};
    for (const kind of KINDS) {
      const res = await call(env.server, 'GET', `/api/v1/streams/${CH[kind]}`, { as: env.who[role]! });
      if (res.status === 200) {
        expect(res.body).toMatchObject({ result: 'success', msg: '', stream: { stream_id: CH[kind] } });
        outcome[kind] = 'ok';
      } else {
        expect([res.status, res.body]).toEqual([400, err('Invalid channel ID')]);
        outcome[kind] = 'Invalid channel ID';
      }
    }
    expect(outcome).toEqual(Object.fromEntries(KINDS.map((k) => [k, HIDDEN[role].includes(k) ? 'Invalid channel ID' : 'ok'])));
  });

  it('returns the same object as the listing', async () => {
    const channels = await everyChannel();
    for (const kind of KINDS) {
      const res = await call(env.server, 'GET', `/api/v1/streams/${CH[kind]}`, { as: env.who.administrator! });
      expect(res.body.stream).toEqual(byId(channels, CH[kind]));
    }
  });

  it.each([999, 0])('answers Invalid channel ID for unknown channel %i', async (id) => {
    const res = await call(env.server, 'GET', `/api/v1/streams/${id}`, { as: env.who.owner! });
    expect([res.status, res.body]).toEqual([400, err('Invalid channel ID')]);
  });

  it('answers 404 for a path segment that is not an integer', async () => {
    expect((await call(env.server, 'GET', '/api/v1/streams/home', { as: env.who.owner! })).status).toBe(404);
  });
});

describe('feature levels (§9)', () => {
  it('below 315 archived channels never appear, is_archived is absent and exclude_archived is ignored', async () => {
    const admin = credentials(env.server, 'lvl-314').administrator!;
    const res = await listStreams(env.server, admin, { exclude_archived: false });
    expect(res.body.ignored_parameters_unsupported).toEqual(['exclude_archived']);
    const streams = res.body.streams as Record<string, unknown>[];
    expect(streams.map((s) => s.stream_id)).not.toContain(CH.archived);
    for (const s of streams) expect(s).not.toHaveProperty('is_archived');
    const one = await call(env.server, 'GET', `/api/v1/streams/${CH.archived}`, { as: admin });
    expect([one.status, one.body]).toEqual([400, err('Invalid channel ID')]);
  });

  it('from 315 exclude_archived false lists channel 56 with is_archived true', async () => {
    const admin = credentials(env.server, 'lvl-315').administrator!;
    const res = await listStreams(env.server, admin, { exclude_archived: false });
    expect(res.body).not.toHaveProperty('ignored_parameters_unsupported');
    expect(byId(res.body.streams as Record<string, unknown>[], CH.archived)).toMatchObject({ is_archived: true });
    const hidden = await listStreams(env.server, admin);
    expect((hidden.body.streams as Record<string, unknown>[]).map((s) => s.stream_id)).not.toContain(CH.archived);
  });

  it.each([
    [332, 'can_send_message_group', false],
    [333, 'can_send_message_group', true],
    [406, 'can_delete_any_message_group', false],
    [406, 'can_delete_own_message_group', false],
    [407, 'can_delete_any_message_group', true],
    [407, 'can_delete_own_message_group', true],
  ])('at level %i %s is present: %s', async (level, field, present) => {
    for (const c of await everyChannel(`lvl-${level}`)) expect(field in c, `${field} on ${String(c.stream_id)}`).toBe(present);
  });

  it('below 333 the deprecated fields still tell administrators-only posting', async () => {
    const channels = await everyChannel('lvl-332');
    expect(byId(channels, CH.web_public)).toMatchObject({ stream_post_policy: 2, is_announcement_only: true });
    expect(byId(channels, CH.public)).toMatchObject({ stream_post_policy: 1, is_announcement_only: false });
  });

  it('below 356 include_all is ignored (and listed), include_all_active still works for administrators', async () => {
    const c = credentials(env.server, 'lvl-355');
    const off = { include_public: false, include_subscribed: false };
    const ignored = await listStreams(env.server, c.administrator!, { ...off, include_all: true });
    expect(ignored.body).toMatchObject({ result: 'success', streams: [], ignored_parameters_unsupported: ['include_all'] });
    const active = await listStreams(env.server, c.administrator!, { ...off, include_all_active: true });
    expect((active.body.streams as unknown[]).length).toBe(KINDS.length - 1);
    const refused = await listStreams(env.server, c.member!, { include_all_active: true });
    expect([refused.status, refused.body]).toEqual([400, err('User not authorized for this query')]);
  });

  it('from 356 include_all lists every channel for administrators', async () => {
    const admin = credentials(env.server, 'lvl-356').administrator!;
    const res = await listStreams(env.server, admin, { include_public: false, include_subscribed: false, include_all: true });
    expect(res.body).not.toHaveProperty('ignored_parameters_unsupported');
    expect((res.body.streams as unknown[]).length).toBe(KINDS.length - 1);
  });
});
