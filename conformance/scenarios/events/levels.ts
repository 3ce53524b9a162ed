import type { Reply } from '../../src/client.js';
import { SetupError, type ScenarioContext } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import { channelFieldsAt, expectChannelFieldsAbsent } from '../level-fields.js';
import { R } from './rules.js';
import { asArray, ignoredOf, isGroupSetting, registerOnce, streamById, streamsOf } from './support.js';

/**
 * Spec §9, levels 167, 208, 315 and 333: one scenario per side of each boundary (356 and later are in
 * levels-later.ts; the topic-related levels 184, 248, 334 and 370 live with the topics area). On the
 * mock each runs in an organization created at that level; a real server runs the side its
 * service_feature_level is on and skips the other with that reason.
 */

const UNKNOWN = 'conformance_unknown_parameter';
const NO_SUCH_USER = 2_000_000_000;

function deactivatedId(ctx: ScenarioContext): number {
  const id = ctx.world.credentials.deactivated?.user_id;
  if (typeof id !== 'number') throw new SetupError('the world file gives no user_id for the deactivated user');
  return id;
}

/** Unsubscribing the deactivated user and a user that does not exist, as an administrator (§4.8). */
async function badPrincipals(ctx: ScenarioContext): Promise<{ deactivated: Reply; unknown: Reply }> {
  const admin = ctx.as('administrator');
  const subscriptions = [ctx.channel('public').name];
  return {
    deactivated: await admin.delete('/api/v1/users/me/subscriptions', { subscriptions, principals: [deactivatedId(ctx)] }),
    unknown: await admin.delete('/api/v1/users/me/subscriptions', { subscriptions, principals: [NO_SUCH_USER] }),
  };
}

export default [
  scenario({
    id: 'events/level-167-below-no-ignored-list',
    title: 'below level 167 an unsupported parameter is not reported',
    rules: [R.unsupportedParameters, R.level167],
    requires: { roles: ['member'], level: { below: 'ignored_parameters_unsupported' } },
    when: (ctx) => ctx.as('member').post('/api/v1/messages/render', { content: 'hello', [UNKNOWN]: 1 }),
    then(ctx, res) {
      ctx.expectSuccess(R.level167, res);
      ctx.check(
        R.level167,
        !('ignored_parameters_unsupported' in res.body),
        `ignored_parameters_unsupported ${JSON.stringify(res.body.ignored_parameters_unsupported)}`,
        res,
      );
    },
  }),
  scenario({
    id: 'events/level-167-from-ignored-list',
    title: 'from level 167 a success lists the unsupported parameter in ignored_parameters_unsupported',
    rules: [R.unsupportedParameters, R.level167],
    requires: { roles: ['member'], level: { from: 'ignored_parameters_unsupported' } },
    when: (ctx) => ctx.as('member').post('/api/v1/messages/render', { content: 'hello', [UNKNOWN]: 1 }),
    then: (ctx, res) => void ctx.expectSuccess(R.unsupportedParameters, res, { ignored_parameters_unsupported: [UNKNOWN] }),
  }),
  scenario({
    id: 'events/level-208-below-unauthorized-principal',
    title: 'below level 208 a deactivated or unknown principal in unsubscribe is 403 UNAUTHORIZED_PRINCIPAL',
    rules: [R.unsubscribePrincipalError, R.unauthorizedPrincipal],
    requires: { roles: ['administrator', 'deactivated'], channels: ['public'], level: { below: 'unsubscribe_principal_bad_request' } },
    when: badPrincipals,
    then(ctx, res) {
      ctx.expectError(R.unauthorizedPrincipal, res.deactivated, { status: 403, code: 'UNAUTHORIZED_PRINCIPAL' });
      ctx.expectError(R.unsubscribePrincipalError, res.unknown, { status: 403, code: 'UNAUTHORIZED_PRINCIPAL' });
    },
  }),
  scenario({
    id: 'events/level-208-from-bad-request',
    title: 'from level 208 a deactivated or unknown principal in unsubscribe is 400 BAD_REQUEST',
    rules: [R.unsubscribePrincipalError],
    requires: { roles: ['administrator', 'deactivated'], channels: ['public'], level: { from: 'unsubscribe_principal_bad_request' } },
    when: badPrincipals,
    then(ctx, res) {
      ctx.expectError(R.unsubscribePrincipalError, res.deactivated, { status: 400, code: 'BAD_REQUEST' });
      ctx.expectError(R.unsubscribePrincipalError, res.unknown, { status: 400, code: 'BAD_REQUEST' });
    },
  }),
  scenario({
    id: 'events/level-315-below-no-archived-listing',
    title: 'below level 315 archived channels appear in no listing, even when asked for',
    rules: [R.level315],
    requires: { roles: ['member'], channels: ['archived'], level: { below: 'archived_channels' } },
    async when(ctx) {
      const member = ctx.as('member');
      return {
        list: await member.get('/api/v1/streams', { exclude_archived: false }),
        reg: await registerOnce(ctx, member, {
          event_types: ['subscription'],
          fetch_event_types: ['subscription'],
          client_capabilities: { archived_channels: true },
        }),
      };
    },
    then(ctx, { list, reg }) {
      ctx.expectSuccess(R.level315, list);
      const archived = ctx.channel('archived').stream_id;
      ctx.check(
        R.level315,
        streamsOf(list).length > 0 && streamById(list, archived) === undefined,
        `archived channel ${archived} in GET /streams: ${streamById(list, archived) !== undefined}`,
        list,
      );
      ctx.check(
        R.level315,
        streamsOf(list).every((s) => !('is_archived' in s)),
        'no channel object carries is_archived',
        list,
      );
      const subs = asArray(reg.body.subscriptions);
      ctx.check(
        R.level315,
        reg.status === 200 && !subs.some((s) => s.stream_id === archived),
        `archived channel in register's subscriptions: ${subs.some((s) => s.stream_id === archived)}`,
        reg,
      );
    },
  }),
  scenario({
    id: 'events/level-315-from-archived-listing',
    title:
      'from level 315 archived channels are listed (is_archived true) when asked for: GET /streams with exclude_archived false, register with archived_channels',
    rules: [R.level315, R.capArchived, R.excludeArchived],
    requires: { roles: ['member'], channels: ['archived'], level: { from: 'archived_channels' } },
    async when(ctx) {
      const member = ctx.as('member');
      return {
        asked: await member.get('/api/v1/streams', { exclude_archived: false }),
        byDefault: await member.get('/api/v1/streams'),
        reg: await registerOnce(ctx, member, {
          event_types: ['subscription'],
          fetch_event_types: ['subscription'],
          client_capabilities: { archived_channels: true },
        }),
      };
    },
    then(ctx, { asked, byDefault, reg }) {
      ctx.expectSuccess(R.level315, asked);
      const archived = ctx.channel('archived').stream_id;
      ctx.expectEqual(
        R.level315,
        streamById(asked, archived)?.is_archived,
        true,
        `is_archived of channel ${archived} with exclude_archived false`,
        asked,
      );
      ctx.check(
        R.excludeArchived,
        byDefault.status === 200 && streamById(byDefault, archived) === undefined,
        'the archived channel is left out by default',
        byDefault,
      );
      const sub = asArray(reg.body.subscriptions).find((s) => s.stream_id === archived);
      ctx.check(
        R.capArchived,
        sub?.is_archived === true,
        `register with archived_channels, subscription to ${archived}: ${sub ? `is_archived ${JSON.stringify(sub.is_archived)}` : 'absent'}`,
        reg,
      );
    },
  }),
  scenario({
    id: 'events/level-333-below-stream-post-policy',
    title: 'below level 333 channels carry stream_post_policy and no can_send_message_group',
    rules: [R.level333, R.streamPostPolicy],
    requires: { roles: ['member'], channels: ['web_public'], level: { below: 'can_send_message_group' } },
    when: (ctx) => ctx.as('member').get('/api/v1/streams', { include_web_public: true }),
    then(ctx, res) {
      ctx.expectSuccess(R.level333, res);
      const list = streamsOf(res);
      ctx.check(
        R.level333,
        list.length > 0 && list.every((s) => !('can_send_message_group' in s) && Number.isInteger(s.stream_post_policy)),
        'every channel: stream_post_policy, no can_send_message_group',
        res,
      );
      const web = ctx.channel('web_public');
      const adminsOnly = [...(web.can_send_message ?? [])].sort().join() === 'administrator,owner';
      if (adminsOnly) {
        const s = streamById(res, web.stream_id);
        ctx.expectEqual(
          R.streamPostPolicy,
          [s?.stream_post_policy, s?.is_announcement_only],
          [2, true],
          `stream_post_policy and is_announcement_only of ${web.name} (administrators only)`,
          res,
        );
      }
    },
  }),
  scenario({
    id: 'events/level-333-from-can-send-message-group',
    // Changes a world channel: its own realm, so scenarios sharing this level's realm see nothing of it.
    isolated: true,
    title: 'from level 333 channels carry can_send_message_group, and PATCH no longer takes stream_post_policy',
    rules: [R.level333, R.streamPostPolicyRemoved, R.channelPermissionFields, R.groupSettingValue],
    requires: { roles: ['administrator'], channels: ['public'], level: { from: 'can_send_message_group' } },
    async when(ctx) {
      const admin = ctx.as('administrator');
      const path = `/api/v1/streams/${ctx.channel('public').stream_id}`;
      const before = ctx.must(await admin.get(path), 'read the public channel').body.stream as Record<string, unknown> | undefined;
      // Should a server still apply stream_post_policy, the channel gets its posting group back.
      ctx.defer(async () => {
        const now = (await admin.get(path)).body.stream as Record<string, unknown> | undefined;
        if (JSON.stringify(now?.can_send_message_group) !== JSON.stringify(before?.can_send_message_group))
          await admin.patch(path, { can_send_message_group: { new: before?.can_send_message_group as number } });
      });
      return {
        list: await admin.get('/api/v1/streams'),
        reg: await registerOnce(ctx, admin, { event_types: ['stream'], fetch_event_types: ['stream'] }),
        patch: await admin.patch(`/api/v1/streams/${ctx.channel('public').stream_id}`, { stream_post_policy: 2 }),
      };
    },
    then(ctx, { list, reg, patch }) {
      ctx.expectSuccess(R.level333, list);
      ctx.check(
        R.level333,
        streamsOf(list).length > 0 && streamsOf(list).every((s) => 'can_send_message_group' in s),
        'every channel has can_send_message_group',
        list,
      );
      ctx.check(
        R.groupSettingValue,
        streamsOf(list).every((s) => isGroupSetting(s.can_send_message_group)),
        'every can_send_message_group is a group-setting value',
        list,
      );
      const fields = [
        'can_move_messages_within_channel_group',
        'can_send_message_group',
        'can_subscribe_group',
        'can_resolve_topics_group',
      ];
      // Each of these came at a level of its own (can_subscribe_group 357, …): checked where the realm has it.
      const present = channelFieldsAt(ctx, fields);
      const lacking = streamsOf(reg)
        .filter((s) => present.some((f) => !isGroupSetting(s[f])))
        .map((s) => s.name);
      ctx.check(
        R.channelPermissionFields,
        streamsOf(reg).length > 0 && lacking.length === 0,
        `register's channels lacking one of ${present.join(', ')}: ${JSON.stringify(lacking)}`,
        reg,
      );
      expectChannelFieldsAbsent(ctx, R.channelPermissionFields, fields, streamsOf(reg), "register's channels", reg);
      ctx.check(
        R.streamPostPolicyRemoved,
        patch.status === 200 && ignoredOf(patch).includes('stream_post_policy'),
        `PATCH stream_post_policy: HTTP ${patch.status}, ignored_parameters_unsupported ${JSON.stringify(patch.body.ignored_parameters_unsupported)}`,
        patch,
      );
    },
  }),
];
