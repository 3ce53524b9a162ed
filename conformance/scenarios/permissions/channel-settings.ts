import { isDeepStrictEqual } from 'node:util';
import type { ScenarioContext } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import { assume, readChannel } from './support.js';

/**
 * Spec §4.16, the parameters with a who-may clause: is_web_public "Needs … the realm setting
 * enable_spectator_access, and the caller in can_create_web_public_channel_group";
 * can_remove_subscribers_group "Modifier needs metadata access and administer permission" (§2.2
 * can_administer_channel_group: "Who may administer the channel"). The world file does not say who
 * administers which channel, so the scenarios find one through the API (GET /streams/{id}).
 */

type Group = number | { direct_members?: number[]; direct_subgroups?: number[] };

/**
 * A channel of the world whose can_administer_channel_group names the role directly (public, active,
 * not web-public), as the role sees it; none is a setup error.
 */
async function channelAdministeredBy(ctx: ScenarioContext, role: WorldRole): Promise<number> {
  const me = ctx.user(role).user_id;
  for (const ch of Object.values(ctx.world.channels)) {
    const res = await ctx.as(role).get(`/api/v1/streams/${ch.stream_id}`);
    const s = res.body.stream as Record<string, unknown> | undefined;
    if (!s || s.invite_only !== false || s.is_web_public !== false || s.is_archived === true) continue;
    const admins = s.can_administer_channel_group as Group;
    if (typeof admins === 'object' && admins.direct_members?.includes(me)) return ch.stream_id;
  }
  assume(false, `no public channel names the ${role} in its can_administer_channel_group`);
  return 0;
}

/** The same group, whichever of the two forms of §1 "Group-setting value" the server answers with. */
const isGroup = (value: unknown, groupId: number) =>
  value === groupId || isDeepStrictEqual(value, { direct_members: [], direct_subgroups: [groupId] });

const webPublicRefused = scenario({
  id: 'permissions/web-public-refused-outside-group',
  title: 'a channel administrator outside can_create_web_public_channel_group may not make it web-public',
  rules: ['R4.16-9', 'R7-3'],
  // Channel administrators are named by can_administer_channel_group, which older servers do not have.
  requires: { roles: ['member', 'administrator'], level: { from: 'channel_can_administer_channel_group_field' } },
  async given(ctx) {
    const reg = ctx.must(
      await ctx.as('member').post('/api/v1/register', { event_types: ['realm'], fetch_event_types: ['realm'] }),
      'register for realm settings',
    );
    if (typeof reg.body.queue_id === 'string') await ctx.as('member').delete('/api/v1/events', { queue_id: reg.body.queue_id });
    const sys = ctx.world.user_groups.system;
    const group = reg.body.realm_can_create_web_public_channel_group;
    assume(
      [sys['role:administrators'], sys['role:owners'], sys['role:nobody']].includes(group as number),
      `realm_can_create_web_public_channel_group ${JSON.stringify(group)} may hold the member`,
    );
    return channelAdministeredBy(ctx, 'member');
  },
  when: (ctx, streamId) => ctx.as('member').patch(`/api/v1/streams/${streamId}`, { is_web_public: true }),
  async then(ctx, res, streamId) {
    if (res.body.result === 'success')
      ctx.defer(() => ctx.as('administrator').patch(`/api/v1/streams/${streamId}`, { is_web_public: false }));
    ctx.expectError('R7-3', res, { status: 400, code: 'BAD_REQUEST' });
    ctx.expectEqual('R4.16-9', (await readChannel(ctx, streamId)).is_web_public, false, 'is_web_public after the refusal');
  },
});

const webPublicAllowed = scenario({
  id: 'permissions/web-public-by-administrator',
  title: 'an administrator in can_create_web_public_channel_group makes a public channel web-public',
  rules: ['R4.16-9', 'R4.16-1'],
  requires: { roles: ['administrator'], channels: ['web_public'] },
  isolated: true,
  given: (ctx) => assume(ctx.world.realm.spectator_access === true, 'the realm must allow spectator access'),
  when: (ctx) => ctx.as('administrator').patch(`/api/v1/streams/${ctx.channel('public').stream_id}`, { is_web_public: true }),
  async then(ctx, res) {
    ctx.expectSuccess('R4.16-1', res);
    ctx.expectEqual('R4.16-9', (await readChannel(ctx, ctx.channel('public').stream_id)).is_web_public, true, 'is_web_public');
  },
});

const removersByChannelAdmin = scenario({
  id: 'permissions/remove-subscribers-group-by-channel-administrator',
  title: 'a member who administers a channel changes its can_remove_subscribers_group',
  rules: ['R4.16-17', 'R2.2-10'],
  requires: { roles: ['member'], level: { from: 'channel_can_administer_channel_group_field' } },
  isolated: true,
  async given(ctx) {
    const moderators = ctx.world.user_groups.system['role:moderators'];
    assume(moderators !== undefined, 'user_groups.system has no role:moderators');
    return { streamId: await channelAdministeredBy(ctx, 'member'), group: moderators! };
  },
  when: (ctx, g) => ctx.as('member').patch(`/api/v1/streams/${g.streamId}`, { can_remove_subscribers_group: { new: g.group } }),
  async then(ctx, res, g) {
    ctx.expectSuccess('R2.2-10', res);
    const after = (await readChannel(ctx, g.streamId)).can_remove_subscribers_group;
    ctx.check('R4.16-17', isGroup(after, g.group), `can_remove_subscribers_group is role:moderators (${JSON.stringify(after)})`);
  },
});

const removersRefused = scenario({
  id: 'permissions/remove-subscribers-group-refused-member',
  title: 'a member who does not administer a channel may not change its can_remove_subscribers_group, which stays',
  rules: ['R4.16-17', 'R2.2-10', 'R7-3'],
  requires: { roles: ['member_3', 'administrator'] },
  async given(ctx) {
    const moderators = ctx.world.user_groups.system['role:moderators'];
    assume(moderators !== undefined, 'user_groups.system has no role:moderators');
    return { before: (await readChannel(ctx, ctx.channel('public').stream_id)).can_remove_subscribers_group, group: moderators! };
  },
  when: (ctx, g) =>
    ctx.as('member_3').patch(`/api/v1/streams/${ctx.channel('public').stream_id}`, { can_remove_subscribers_group: { new: g.group } }),
  async then(ctx, res, g) {
    const id = ctx.channel('public').stream_id;
    if (res.body.result === 'success')
      ctx.defer(() => ctx.as('administrator').patch(`/api/v1/streams/${id}`, { can_remove_subscribers_group: { new: g.before as Group } }));
    ctx.expectError('R7-3', res, { status: 400, code: 'BAD_REQUEST' });
    const after = (await readChannel(ctx, id)).can_remove_subscribers_group;
    ctx.expectEqual('R4.16-17', after, g.before, 'can_remove_subscribers_group after the refusal');
    ctx.check('R2.2-10', res.body.result === 'error', 'only those who administer the channel may change its permissions', res);
  },
});

export default [webPublicRefused, webPublicAllowed, removersByChannelAdmin, removersRefused];
