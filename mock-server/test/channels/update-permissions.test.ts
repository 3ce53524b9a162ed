import { describe, expect, it } from 'vitest';
import {
  CH,
  channelRow,
  err,
  G,
  KINDS,
  OK,
  patch,
  realmRow,
  ROLES,
  useDemoServer,
  type FormInput,
  type Kind,
  type Role,
} from './support.js';

/**
 * PATCH /api/v1/streams/{stream_id}: who may edit what (spec §2.2 can_administer_channel_group, §4.16,
 * reference §4.16 checks 1, 4–7, 9; C17). In the demo world every channel's can_administer_channel_group
 * is its creator as a direct member: 51, 54, 55, 57 the owner; 52, 53 the administrator; 56, 58 member;
 * 59 moderator.
 */

const env = useDemoServer();

const ADMINISTER = 'You do not have permission to administer this channel.';
const INVALID = 'Invalid channel ID';
type Outcome = 'ok' | typeof ADMINISTER | typeof INVALID;

/** Per role: the channels it may edit (ok) and those it may not even see (Invalid channel ID); the rest refuse. */
const MAY: Record<Role, { ok: Kind[] | 'all'; invisible: Kind[] }> = {
  owner: { ok: 'all', invisible: [] },
  administrator: { ok: 'all', invisible: [] },
  moderator: { ok: ['disable_empty_topic'], invisible: ['private_shared'] },
  member: { ok: ['archived', 'empty_topic_only'], invisible: ['moderation'] },
  member_2: { ok: [], invisible: ['private_shared', 'moderation'] },
  // Guests see their subscriptions (51, 54) and web-public 55, and administer nothing.
  guest: { ok: [], invisible: ['public_2', 'private_protected', 'archived', 'moderation', 'empty_topic_only', 'disable_empty_topic'] },
  // The bot reads 53 through can_add_subscribers_group = role:members.
  bot: { ok: [], invisible: ['private_shared', 'moderation'] },
};
const expected = (role: Role): Record<string, Outcome> =>
  Object.fromEntries(
    KINDS.map((k) => {
      const { ok, invisible } = MAY[role];
      return [k, ok === 'all' || ok.includes(k) ? 'ok' : invisible.includes(k) ? INVALID : ADMINISTER];
    }),
  );

describe('PATCH /streams/{id}: roles × channels (§4.16 check 1)', () => {
  it.each(ROLES)('%s: edits exactly the channels it administers; a refused request changes nothing', async (role) => {
    const outcome: Record<string, Outcome> = {};
    for (const kind of KINDS) {
      const before = channelRow(env.server, CH[kind]).description;
      const description = `Edited by ${role}`;
      const res = await patch(env.server, env.who[role]!, CH[kind], { description });
      if (res.status === 200) {
        expect(res.body).toEqual(OK);
        expect(channelRow(env.server, CH[kind]).description).toBe(description);
        outcome[kind] = 'ok';
      } else {
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
        expect(channelRow(env.server, CH[kind]).description).toBe(before);
        outcome[kind] = res.body.msg as Outcome;
      }
    }
    expect(outcome).toEqual(expected(role));
  });

  it('answers Invalid channel ID for an unknown channel, even to the owner', async () => {
    const res = await patch(env.server, env.who.owner!, 999, { description: 'x' });
    expect([res.status, res.body]).toEqual([400, err(INVALID)]);
  });

  it('a member of can_administer_channel_group through a subgroup may administer', async () => {
    // Group 9 "support" = {moderator, member}.
    expect((await patch(env.server, env.who.owner!, CH.public, { can_administer_channel_group: { new: G.support } })).body).toEqual(OK);
    expect((await patch(env.server, env.who.member!, CH.public, { description: 'by support' })).body).toEqual(OK);
    expect((await patch(env.server, env.who.moderator!, CH.public, { new_name: 'support home' })).body).toEqual(OK);
    expect((await patch(env.server, env.who.member_2!, CH.public, { description: 'no' })).body).toEqual(err(ADMINISTER));
    expect(channelRow(env.server, CH.public)).toMatchObject({ name: 'support home', description: 'by support' });
  });

  it('a creator removed from can_administer_channel_group loses the right', async () => {
    expect(
      (await patch(env.server, env.who.owner!, CH.empty_topic_only, { can_administer_channel_group: { new: G.nobody } })).body,
    ).toEqual(OK);
    expect((await patch(env.server, env.who.member!, CH.empty_topic_only, { description: 'mine?' })).body).toEqual(err(ADMINISTER));
  });
});

/**
 * Channel administrators edit the channel's own settings; organization-level decisions stay with the
 * realm's permission groups: retention (C17: organization administrators), default channels
 * (can_manage_default_streams_group = administrators), topics policy and delete groups (moderators),
 * web-public (can_create_web_public_channel_group = administrators). Org administrators act on 58.
 */
const PROPERTIES: [string, FormInput, Record<'owner' | 'administrator' | 'member' | 'moderator', 'ok' | 'Insufficient permission'>][] = [
  ['description', { description: 'New words' }, { owner: 'ok', administrator: 'ok', member: 'ok', moderator: 'ok' }],
  ['new_name', { new_name: 'brand new' }, { owner: 'ok', administrator: 'ok', member: 'ok', moderator: 'ok' }],
  ['folder_id', { folder_id: 1 }, { owner: 'ok', administrator: 'ok', member: 'ok', moderator: 'ok' }],
  [
    'is_private (members may create private channels)',
    { is_private: true },
    { owner: 'ok', administrator: 'ok', member: 'ok', moderator: 'ok' },
  ],
  [
    'can_remove_subscribers_group',
    { can_remove_subscribers_group: { new: G.moderators } },
    { owner: 'ok', administrator: 'ok', member: 'ok', moderator: 'ok' },
  ],
  [
    'can_send_message_group',
    { can_send_message_group: { new: G.members } },
    { owner: 'ok', administrator: 'ok', member: 'ok', moderator: 'ok' },
  ],
  [
    'message_retention_days (C17)',
    { message_retention_days: 30 },
    { owner: 'ok', administrator: 'ok', member: 'Insufficient permission', moderator: 'Insufficient permission' },
  ],
  [
    'is_default_stream',
    { is_default_stream: true },
    { owner: 'ok', administrator: 'ok', member: 'Insufficient permission', moderator: 'Insufficient permission' },
  ],
  [
    'topics_policy',
    { topics_policy: 'allow_empty_topic' },
    { owner: 'ok', administrator: 'ok', member: 'Insufficient permission', moderator: 'ok' },
  ],
  [
    'can_delete_any_message_group',
    { can_delete_any_message_group: { new: G.moderators } },
    { owner: 'ok', administrator: 'ok', member: 'Insufficient permission', moderator: 'ok' },
  ],
  [
    'can_delete_own_message_group',
    { can_delete_own_message_group: { new: G.members } },
    { owner: 'ok', administrator: 'ok', member: 'Insufficient permission', moderator: 'ok' },
  ],
  [
    'is_web_public',
    { is_web_public: true },
    { owner: 'ok', administrator: 'ok', member: 'Insufficient permission', moderator: 'Insufficient permission' },
  ],
];
const TARGET = {
  owner: CH.empty_topic_only,
  administrator: CH.empty_topic_only,
  member: CH.empty_topic_only,
  moderator: CH.disable_empty_topic,
} as const;

describe('PATCH /streams/{id}: properties × kinds of administrator (§4.16)', () => {
  it.each(PROPERTIES)('%s', async (_label, values, outcomes) => {
    const got: Record<string, string> = {};
    for (const actor of ['owner', 'administrator', 'member', 'moderator'] as const) {
      await env.restore();
      const id = TARGET[actor];
      const before = structuredClone(channelRow(env.server, id));
      const defaults = [...realmRow(env.server).default_stream_ids];
      const res = await patch(env.server, env.who[actor]!, id, values);
      got[actor] = res.status === 200 ? 'ok' : (res.body.msg as string);
      if (res.status === 200) {
        expect(res.body).toEqual(OK);
        // Something changed: the channel, or (is_default_stream) the realm's default channels.
        expect([channelRow(env.server, id), realmRow(env.server).default_stream_ids]).not.toEqual([before, defaults]);
      } else {
        expect([res.status, res.body]).toEqual([400, err('Insufficient permission')]);
        expect(channelRow(env.server, id)).toEqual(before);
        expect(realmRow(env.server).default_stream_ids).toEqual(defaults);
      }
    }
    expect(got).toEqual(outcomes);
  });
});
