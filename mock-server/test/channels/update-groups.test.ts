import { beforeEach, describe, expect, it } from 'vitest';
import { call, credentials } from '../helpers/test-server.js';
import { CH, channelRow, err, G, OK, patch, streamAsAdmin, useDemoServer, type FormInput } from './support.js';

/**
 * PATCH /api/v1/streams/{stream_id}: group settings (spec §1 group-setting value and update, §2.2, §4.16;
 * reference §2 normal form, §4.16 checks 9 and 11). 51's can_remove_subscribers_group is
 * {direct_members: [member_2], direct_subgroups: [support]}; 55's can_send_message_group is administrators.
 */

const env = useDemoServer({ levels: [332, 406] });

const REMOVERS_51 = { direct_members: [15], direct_subgroups: [G.support] };
const anon = (direct_members: number[], direct_subgroups: number[]) => ({ direct_members, direct_subgroups });

async function refused(id: number, values: FormInput, body: Record<string, unknown>, as = env.who.owner!): Promise<void> {
  const before = structuredClone(channelRow(env.server, id));
  const res = await patch(env.server, as, id, values);
  expect([res.status, res.body]).toEqual([400, body]);
  expect(channelRow(env.server, id)).toEqual(before);
}

describe('group-setting updates (§1, §4.16)', () => {
  it.each([
    ['a system group ID', { new: G.moderators }, G.moderators],
    ['an anonymous group', { new: anon([13, 14], [G.administrators]) }, anon([13, 14], [G.administrators])],
    ['an anonymous group of one subgroup, normalised to its ID', { new: anon([], [G.moderators]) }, G.moderators],
    ['an empty anonymous group, normalised to role:nobody', { new: anon([], []) }, G.nobody],
    [
      'old equal to the current value as a set',
      { new: G.moderators, old: { direct_subgroups: [G.support], direct_members: [15] } },
      G.moderators,
    ],
    ['new equal to the current value (a no-op)', { new: REMOVERS_51 }, REMOVERS_51],
  ])('accepts %s', async (_label, update, stored) => {
    expect((await patch(env.server, env.who.owner!, CH.public, { can_remove_subscribers_group: update })).body).toEqual(OK);
    expect((await streamAsAdmin(env.server, CH.public)).can_remove_subscribers_group).toEqual(stored);
  });

  it.each([
    [
      'old differs from the current value',
      { new: G.moderators, old: G.administrators },
      err("'old' value does not match the expected value.", 'EXPECTATION_MISMATCH'),
    ],
    [
      'old is a subset of the current value',
      { new: G.moderators, old: anon([15], []) },
      err("'old' value does not match the expected value.", 'EXPECTATION_MISMATCH'),
    ],
    [
      'old mismatches and new is unknown (old is checked first)',
      { new: 999, old: G.administrators },
      err("'old' value does not match the expected value.", 'EXPECTATION_MISMATCH'),
    ],
    ['an unknown group ID', { new: 999 }, err('Invalid user group')],
    ['a deactivated group', { new: G.deactivated }, err('Invalid user group')],
    ['role:internet', { new: G.internet }, err('Invalid user group')],
    ['an unknown subgroup of an anonymous group', { new: anon([14], [999]) }, err('Invalid user group')],
  ])('refuses %s', async (_label, update, body) => {
    await refused(CH.public, { can_remove_subscribers_group: update }, body);
  });

  it.each([
    ['not an object', '5', 'can_remove_subscribers_group is not a dict'],
    ['not JSON', '{new: 5}', 'can_remove_subscribers_group is not valid JSON'],
    ['an extra key', '{"new": 4, "extra": 1}', 'Argument "extra" at can_remove_subscribers_group is unexpected'],
  ])('refuses a value that is %s at parse time', async (_label, raw, msg) => {
    const res = await call(env.server, 'PATCH', `/api/v1/streams/${CH.public}`, {
      as: env.who.owner!,
      form: { can_remove_subscribers_group: raw },
    });
    expect([res.status, res.body]).toEqual([400, err(msg)]);
  });

  it('the old-value check runs per setting: a mismatch in one refuses the whole request', async () => {
    await refused(
      CH.public,
      { can_resolve_topics_group: { new: G.moderators }, can_remove_subscribers_group: { new: G.moderators, old: G.nobody } },
      err("'old' value does not match the expected value.", 'EXPECTATION_MISMATCH'),
    );
  });
});

describe('can_send_message_group and the deprecated fields (§2.2, §9 level 333)', () => {
  it.each([
    ['administrators', G.administrators, 2, true],
    ['moderators', G.moderators, 4, false],
    ['full members', G.fullmembers, 3, false],
    ['everyone', G.everyone, 1, false],
    ['an anonymous group', anon([14], []), 1, false],
  ])('%s → stream_post_policy %i, is_announcement_only %s', async (_label, group, policy, announcement) => {
    expect((await patch(env.server, env.who.owner!, CH.public, { can_send_message_group: { new: group } })).body).toEqual(OK);
    expect(await streamAsAdmin(env.server, CH.public)).toMatchObject({
      can_send_message_group: group,
      stream_post_policy: policy,
      is_announcement_only: announcement,
    });
  });

  it('the removed stream_post_policy and is_announcement_only are ignored (and listed) at the current level', async () => {
    const before = structuredClone(channelRow(env.server, CH.public));
    const res = await patch(env.server, env.who.owner!, CH.public, { stream_post_policy: 2, is_announcement_only: true });
    expect(res.body).toEqual({ ...OK, ignored_parameters_unsupported: ['is_announcement_only', 'stream_post_policy'] });
    expect(channelRow(env.server, CH.public)).toEqual(before);
  });

  it('below level 333 can_send_message_group does not exist: listed as ignored, nothing changes', async () => {
    const owner = credentials(env.server, 'lvl-332').owner!;
    const before = structuredClone(channelRow(env.server, CH.public, 'lvl-332'));
    const res = await patch(env.server, owner, CH.public, { can_send_message_group: { new: G.administrators } });
    expect(res.body).toEqual({ ...OK, ignored_parameters_unsupported: ['can_send_message_group'] });
    expect(channelRow(env.server, CH.public, 'lvl-332')).toEqual(before);
  });

  it('55 back to everyone is no longer announcement-only', async () => {
    expect(await streamAsAdmin(env.server, CH.web_public)).toMatchObject({ stream_post_policy: 2, is_announcement_only: true });
    expect(
      (await patch(env.server, env.who.owner!, CH.web_public, { can_send_message_group: { new: G.everyone, old: G.administrators } })).body,
    ).toEqual(OK);
    expect(await streamAsAdmin(env.server, CH.web_public)).toMatchObject({ stream_post_policy: 1, is_announcement_only: false });
  });
});

describe('content access for can_add_subscribers_group and can_subscribe_group (§4.16)', () => {
  // Cut 53's granting group (by its subscribed administrator): the unsubscribed owner keeps metadata
  // access through the role, but loses content access.
  beforeEach(async () => {
    expect(
      (await patch(env.server, env.who.administrator!, CH.private_protected, { can_add_subscribers_group: { new: G.nobody } })).body,
    ).toEqual(OK);
  });

  it.each([
    ['can_add_subscribers_group', { can_add_subscribers_group: { new: G.members } }],
    ['can_subscribe_group', { can_subscribe_group: { new: G.members } }],
  ])('%s needs content access: Channel content access is required.', async (_label, values) => {
    await refused(CH.private_protected, values, err('Channel content access is required.'));
  });

  it('can_remove_subscribers_group needs metadata access only', async () => {
    expect(
      (await patch(env.server, env.who.owner!, CH.private_protected, { can_remove_subscribers_group: { new: G.moderators } })).body,
    ).toEqual(OK);
    expect(channelRow(env.server, CH.private_protected).can_remove_subscribers_group).toBe(G.moderators);
  });

  it('a subscribed administrator may change can_add_subscribers_group', async () => {
    expect(
      (await patch(env.server, env.who.administrator!, CH.private_protected, { can_add_subscribers_group: { new: G.administrators } }))
        .body,
    ).toEqual(OK);
    expect(channelRow(env.server, CH.private_protected).can_add_subscribers_group).toBe(G.administrators);
  });
});

describe('a channel administrator without content access (§2.2 can_administer_channel_group)', () => {
  // member is not subscribed to 57 and outside its granting groups; made its administrator, they get
  // metadata access only.
  beforeEach(async () => {
    const admins = { direct_members: [env.who.member!.user_id], direct_subgroups: [] };
    expect((await patch(env.server, env.who.owner!, CH.moderation, { can_administer_channel_group: { new: admins } })).body).toEqual(OK);
  });

  it('may change the description and can_remove_subscribers_group', async () => {
    expect(
      (
        await patch(env.server, env.who.member!, CH.moderation, {
          description: 'Reports',
          can_remove_subscribers_group: { new: G.moderators },
        })
      ).body,
    ).toEqual(OK);
    expect(channelRow(env.server, CH.moderation)).toMatchObject({ description: 'Reports', can_remove_subscribers_group: G.moderators });
  });

  it.each([
    ['can_add_subscribers_group', { can_add_subscribers_group: { new: G.moderators } }],
    ['can_subscribe_group', { can_subscribe_group: { new: G.moderators } }],
    ['its privacy (C18)', { history_public_to_subscribers: false }],
  ])('may not change %s: Channel content access is required.', async (_label, values) => {
    await refused(CH.moderation, values, err('Channel content access is required.'), env.who.member!);
  });
});

describe('channel-level delete groups (§4.16, §9 level 407)', () => {
  it.each(['can_delete_any_message_group', 'can_delete_own_message_group'])(
    '%s needs the realm delete-policy permission (moderators)',
    async (setting) => {
      // member administers 58 but is no moderator; moderator administers 59.
      await refused(CH.empty_topic_only, { [setting]: { new: G.moderators } }, err('Insufficient permission'), env.who.member!);
      expect((await patch(env.server, env.who.moderator!, CH.disable_empty_topic, { [setting]: { new: G.moderators } })).body).toEqual(OK);
      expect(channelRow(env.server, CH.disable_empty_topic)[setting as 'can_delete_any_message_group']).toBe(G.moderators);
    },
  );

  it('below level 407 the parameters do not exist: listed as ignored, nothing changes', async () => {
    const owner = credentials(env.server, 'lvl-406').owner!;
    const before = structuredClone(channelRow(env.server, CH.public, 'lvl-406'));
    const res = await patch(env.server, owner, CH.public, {
      can_delete_any_message_group: { new: G.owners },
      can_delete_own_message_group: { new: G.owners },
    });
    expect(res.body).toEqual({ ...OK, ignored_parameters_unsupported: ['can_delete_any_message_group', 'can_delete_own_message_group'] });
    expect(channelRow(env.server, CH.public, 'lvl-406')).toEqual(before);
  });
});
