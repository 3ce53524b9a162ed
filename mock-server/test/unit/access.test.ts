import { describe, expect, it } from 'vitest';
import { channelContentAccess, channelMetadataAccess, groupMembers } from '../../src/domain/access.js';
import { DEMO_REALM_EPOCH, generateDemoRealm } from '../../src/fixtures/demo-realm.js';
import type { ChannelRow, UserRow } from '../../src/store/state.js';

const tables = generateDemoRealm({ realmId: 'access', seed: 42, featureLevel: 412, epoch: DEMO_REALM_EPOCH });
const users = Object.values(tables.users);
const outsider = (channel: ChannelRow): UserRow =>
  users.find((u) => u.role === 400 && !u.is_bot && u.is_active && !tables.subscriptions[`${u.user_id}:${channel.stream_id}`]?.active)!;
const nobody = { direct_members: [], direct_subgroups: [] };
// A private channel whose granting groups are empty, so only the setting under test grants anything.
const privateChannel: ChannelRow = {
  ...Object.values(tables.channels).find((c) => c.invite_only && !c.is_archived && !c.is_web_public)!,
  can_add_subscribers_group: nobody,
  can_subscribe_group: nobody,
  can_administer_channel_group: nobody,
};
const only = (user: UserRow) => ({ direct_members: [user.user_id], direct_subgroups: [] });

describe('channel access (reference "Shared access checks", C18)', () => {
  it('gives a channel administrator metadata access to a private channel, not content access', () => {
    const user = outsider(privateChannel);
    const channel = { ...privateChannel, can_administer_channel_group: only(user) };
    expect(channelContentAccess(tables, user, channel)).toBe(false);
    expect(channelMetadataAccess(tables, user, channel)).toBe(true);
  });

  it('gives members of can_subscribe_group or can_add_subscribers_group content access without a subscription', () => {
    const user = outsider(privateChannel);
    expect(channelContentAccess(tables, user, privateChannel)).toBe(false);
    expect(channelContentAccess(tables, user, { ...privateChannel, can_subscribe_group: only(user) })).toBe(true);
    expect(channelContentAccess(tables, user, { ...privateChannel, can_add_subscribers_group: only(user) })).toBe(true);
  });

  it('lets spectators read only web-public channels', () => {
    for (const channel of Object.values(tables.channels)) expect(channelContentAccess(tables, null, channel)).toBe(channel.is_web_public);
  });

  it('resolves nested role groups: administrators include owners', () => {
    const groups = Object.values(tables.user_groups);
    const admins = groups.find((g) => g.name === 'role:administrators')!;
    const owner = users.find((u) => u.role === 100)!;
    expect(groupMembers(tables, admins.id).has(owner.user_id)).toBe(true);
    expect(groupMembers(tables, groups.find((g) => g.name === 'role:nobody')!.id).size).toBe(0);
  });
});
