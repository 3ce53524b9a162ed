import type { Reply } from '../../src/client.js';
import { SetupError, type ScenarioContext } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import type { WorldChannel } from '../../src/world.js';
import { ownChannel } from '../shared.js';
import { R } from './rules.js';
import { ignoredOf, registerOnce, streamById, streamsOf } from './support.js';

/**
 * Spec §9, levels 356, 362, 407 and 412: one scenario per side of each boundary (see levels.ts), plus
 * the administrators-only rule of the deprecated include_all_active (§4.15).
 */

/** A private channel the administrator is not subscribed to (only include_all-style flags show it). */
function privateWithoutAdmin(ctx: ScenarioContext): WorldChannel {
  const found = (['private_shared', 'private_protected'] as const)
    .map((k) => ctx.world.channels[k])
    .find((c) => c && !c.subscribers.includes('administrator'));
  if (!found) throw new SetupError('the world file has no private channel without the administrator');
  return found;
}

/**
 * The member leaves an archived channel of the scenario's own (created with the member subscribed, then
 * archived): the world's archived channel and its subscribers stay as the world file says.
 */
async function unsubscribeArchived(ctx: ScenarioContext): Promise<{ res: Reply; name: string }> {
  const channel = await ownChannel(ctx, 'administrator', 'archived', { members: ['member'] });
  ctx.must(await ctx.as('administrator').delete(`/api/v1/streams/${channel.stream_id}`), 'archive the channel');
  return { res: await ctx.as('member').delete('/api/v1/users/me/subscriptions', { subscriptions: [channel.name] }), name: channel.name };
}

/**
 * Makes the archived channel private if it is public and public if it is private, as an administrator
 * subscribed to it (§4.16). Gives the answer and the invite_only the change asked for.
 */
async function flipArchivedPrivacy(ctx: ScenarioContext): Promise<{ res: Reply; wanted: boolean }> {
  const archived = ctx.channel('archived');
  if (!archived.subscribers.includes('administrator')) throw new SetupError('the administrator is not subscribed to the archived channel');
  const admin = ctx.as('administrator');
  const current = ctx.must(await admin.get(`/api/v1/streams/${archived.stream_id}`), 'read the archived channel').body.stream as
    { invite_only?: boolean } | undefined;
  const wanted = !current?.invite_only;
  const back = wanted ? { is_private: false, history_public_to_subscribers: true } : { is_private: true };
  const res = await admin.patch(
    `/api/v1/streams/${archived.stream_id}`,
    wanted ? { is_private: true } : { is_private: false, history_public_to_subscribers: true },
  );
  if (res.status === 200) ctx.defer(() => admin.patch(`/api/v1/streams/${archived.stream_id}`, back));
  return { res, wanted };
}

export default [
  scenario({
    id: 'events/level-356-below-include-all-active',
    title: 'below level 356 include_all is not understood; include_all_active shows an administrator every channel',
    rules: [R.level356, R.includeAllActive],
    requires: { roles: ['administrator'], level: { below: 'include_all' } },
    async when(ctx) {
      const admin = ctx.as('administrator');
      return {
        all: await admin.get('/api/v1/streams', { include_all: true }),
        active: await admin.get('/api/v1/streams', { include_all_active: true }),
      };
    },
    then(ctx, { all, active }) {
      const hidden = privateWithoutAdmin(ctx);
      ctx.expectSuccess(R.level356, all);
      if (ctx.has('ignored_parameters_unsupported'))
        ctx.check(
          R.level356,
          ignoredOf(all).includes('include_all'),
          `ignored_parameters_unsupported ${JSON.stringify(all.body.ignored_parameters_unsupported)}`,
          all,
        );
      ctx.check(R.level356, streamById(all, hidden.stream_id) === undefined, `${hidden.name} is not listed through include_all`, all);
      ctx.check(
        R.includeAllActive,
        active.status === 200 && streamById(active, hidden.stream_id) !== undefined,
        `${hidden.name} is listed through include_all_active`,
        active,
      );
    },
  }),
  scenario({
    id: 'events/level-356-from-include-all',
    title: 'from level 356 include_all shows an administrator every channel, private ones included',
    rules: [R.level356, R.includeAll],
    requires: { roles: ['administrator'], level: { from: 'include_all' } },
    when: (ctx) => ctx.as('administrator').get('/api/v1/streams', { include_all: true }),
    then(ctx, res) {
      const hidden = privateWithoutAdmin(ctx);
      ctx.expectSuccess(R.includeAll, res);
      ctx.check(R.includeAll, streamById(res, hidden.stream_id) !== undefined, `${hidden.name} is listed`, res);
      ctx.check(R.level356, !ignoredOf(res).includes('include_all'), 'include_all is not reported as unsupported', res);
    },
  }),
  scenario({
    id: 'events/include-all-active-administrators-only',
    title: 'include_all_active is for administrators only: a member is refused',
    rules: [R.includeAllActive],
    requires: { roles: ['member'] },
    when: (ctx) => ctx.as('member').get('/api/v1/streams', { include_all_active: true }),
    then: (ctx, res) => void ctx.expectError(R.includeAllActive, res, { status: 400, code: 'BAD_REQUEST' }),
  }),
  scenario({
    id: 'events/level-362-below-archived-subscription-fixed',
    title: 'below level 362 leaving an archived channel is refused',
    rules: [R.archivedSubscriptions],
    requires: { roles: ['member', 'administrator'], level: { below: 'archived_channel_changes' } },
    when: unsubscribeArchived,
    then: (ctx, { res }) =>
      void ctx.check(
        R.archivedSubscriptions,
        res.status >= 400 && res.body.result === 'error',
        `HTTP ${res.status} ${JSON.stringify(res.body.code)}`,
        res,
      ),
  }),
  scenario({
    id: 'events/level-362-from-archived-subscription-changes',
    title: 'from level 362 a subscriber can leave an archived channel',
    rules: [R.archivedSubscriptions, R.unsubscribeResult],
    requires: { roles: ['member', 'administrator'], level: { from: 'archived_channel_changes' } },
    when: unsubscribeArchived,
    then(ctx, { res, name }) {
      ctx.expectSuccess(R.archivedSubscriptions, res);
      ctx.expectEqual(R.unsubscribeResult, [res.body.removed, res.body.not_removed], [[name], []], 'removed and not_removed', res);
    },
  }),
  scenario({
    id: 'events/level-362-below-archived-privacy-fixed',
    title: "below level 362 an archived channel's privacy cannot be changed",
    rules: [R.archivedPrivacy],
    destructive: true,
    requires: { roles: ['administrator'], channels: ['archived'], level: { below: 'archived_channel_changes' } },
    when: flipArchivedPrivacy,
    then: (ctx, { res }) =>
      void ctx.check(
        R.archivedPrivacy,
        res.status >= 400 && res.body.result === 'error',
        `HTTP ${res.status} ${JSON.stringify(res.body.code)}`,
        res,
      ),
  }),
  scenario({
    id: 'events/level-362-from-archived-privacy-changes',
    title: "from level 362 an administrator can change an archived channel's privacy",
    rules: [R.archivedPrivacy],
    destructive: true,
    requires: { roles: ['administrator'], channels: ['archived'], level: { from: 'archived_channel_changes' } },
    when: flipArchivedPrivacy,
    async then(ctx, { res, wanted }) {
      ctx.expectSuccess(R.archivedPrivacy, res);
      const after = await ctx.as('administrator').get(`/api/v1/streams/${ctx.channel('archived').stream_id}`);
      ctx.expectEqual(
        R.archivedPrivacy,
        (after.body.stream as { invite_only?: unknown } | undefined)?.invite_only,
        wanted,
        'invite_only after the change',
        after,
      );
    },
  }),
  scenario({
    id: 'events/level-407-below-no-delete-groups',
    // Changes a world channel: its own realm, so scenarios sharing this level's realm see nothing of it.
    isolated: true,
    title: 'below level 407 channels have no delete-permission groups and PATCH does not take them',
    rules: [R.level407],
    requires: { roles: ['administrator'], channels: ['public'], level: { below: 'channel_delete_permission_groups' } },
    async when(ctx) {
      const admin = ctx.as('administrator');
      const group = ctx.world.user_groups.system['role:administrators'];
      if (group === undefined) throw new SetupError('the world file has no role:administrators group');
      return {
        list: await admin.get('/api/v1/streams'),
        patch: await admin.patch(`/api/v1/streams/${ctx.channel('public').stream_id}`, { can_delete_any_message_group: { new: group } }),
      };
    },
    then(ctx, { list, patch }) {
      ctx.expectSuccess(R.level407, list);
      const carrying = streamsOf(list)
        .filter((s) => 'can_delete_any_message_group' in s || 'can_delete_own_message_group' in s)
        .map((s) => s.name);
      ctx.expectEqual(R.level407, carrying, [], 'channels carrying a delete-permission group', list);
      ctx.check(
        R.level407,
        patch.status === 200 && (!ctx.has('ignored_parameters_unsupported') || ignoredOf(patch).includes('can_delete_any_message_group')),
        `PATCH: HTTP ${patch.status}, ignored_parameters_unsupported ${JSON.stringify(patch.body.ignored_parameters_unsupported)}`,
        patch,
      );
    },
  }),
  scenario({
    id: 'events/level-407-from-delete-groups',
    title: 'from level 407 channels carry can_delete_any_message_group and can_delete_own_message_group',
    rules: [R.level407],
    requires: { roles: ['member'], level: { from: 'channel_delete_permission_groups' } },
    when: (ctx) => ctx.as('member').get('/api/v1/streams'),
    then(ctx, res) {
      ctx.expectSuccess(R.level407, res);
      const missing = streamsOf(res)
        .filter((s) => !('can_delete_any_message_group' in s) || !('can_delete_own_message_group' in s))
        .map((s) => s.name);
      ctx.check(R.level407, streamsOf(res).length > 0 && missing.length === 0, `channels without them: ${JSON.stringify(missing)}`, res);
    },
  }),
  scenario({
    id: 'events/level-412-below-partial-refused',
    title: 'below level 412 include_subscribers partial is not a valid value',
    rules: [R.level412, R.includeSubscribers, R.featureLevelReported],
    requires: { roles: ['member'], level: { below: 'include_subscribers_partial' } },
    async when(ctx) {
      const member = ctx.as('member');
      return {
        partial: await registerOnce(ctx, member, { include_subscribers: 'partial', event_types: ['subscription'] }),
        plain: await registerOnce(ctx, member, { event_types: ['drafts'], fetch_event_types: [] }),
      };
    },
    then(ctx, { partial, plain }) {
      ctx.expectError(R.level412, partial, { status: 400, code: 'BAD_REQUEST' });
      // The organization runs below 412 (on the mock, at the level it was created with): register says so.
      ctx.expectEqual(R.featureLevelReported, plain.body.service_feature_level, ctx.level, "register's service_feature_level", plain);
    },
  }),
];
