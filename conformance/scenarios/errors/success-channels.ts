import type { ScenarioContext } from '../../src/context.js';
import { SetupError } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import { channelHas, expectChannelFieldsAbsent } from '../level-fields.js';
import { parsedCheck } from '../shared.js';
import { asArray, expectFields, type FieldType, isGroupValue, isInt } from './support.js';

/**
 * Success shapes of the channel operations: §4.8 unsubscribe (removed / not_removed), §4.11 topics,
 * §4.15 the channel list (with the §2.2 fields and the parameter defaults), §4.16 update (the
 * refusals and the archive transition of §3; other properties are in channel-options.ts). Anything that changes a channel runs in a realm of its own.
 */

const POLICIES = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'];

async function streams(
  ctx: ScenarioContext,
  role: 'member' | 'member_3' | 'administrator',
  params: Record<string, boolean> = {},
): Promise<Record<string, unknown>[]> {
  return asArray(ctx.must(await ctx.as(role).get('/api/v1/streams', params), 'list channels').body.streams);
}

export default [
  scenario({
    id: 'errors/unsubscribe-self',
    title: 'unsubscribing oneself returns removed (was subscribed) and not_removed (already out)',
    rules: ['R4.8-1', 'R4.8-2', 'R4.8-3'],
    isolated: true,
    requires: { roles: ['member_3'] },
    given(ctx) {
      const [inside, outside] = [ctx.channel('public'), ctx.channel('public_2')];
      if (!inside.subscribers.includes('member_3') || outside.subscribers.includes('member_3'))
        throw new SetupError('needs member_3 in the public channel and out of public_2');
      ctx.defer(() => ctx.as('member_3').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: inside.name }] }));
      return { inside: inside.name, outside: outside.name };
    },
    when: (ctx, g) => ctx.as('member_3').delete('/api/v1/users/me/subscriptions', { subscriptions: [g.inside, g.outside] }),
    then: (ctx, res, g) => {
      ctx.expectSuccess('R4.8-3', res, { removed: [g.inside], not_removed: [g.outside] });
      ctx.check(
        'R4.8-2',
        Array.isArray(res.body.removed) && res.body.removed.includes(g.inside),
        'without principals the caller was unsubscribed',
        res,
      );
      ctx.check('R4.8-1', res.body.result === 'success', 'subscriptions given as channel names', res);
    },
  }),
  scenario({
    id: 'errors/channel-topics',
    title: 'the topics of a channel are {max_id, name} objects, most recent first',
    rules: ['R4.11-1', 'R4.11-2'],
    when: (ctx) => ctx.as('member').get(`/api/v1/users/me/${ctx.world.messages.channel.stream_id}/topics`),
    then: (ctx, res) => {
      ctx.expectSuccess('R4.11-2', res);
      const topics = asArray(res.body.topics);
      ctx.check(
        'R4.11-2',
        Array.isArray(res.body.topics) && topics.every((t) => isInt(t.max_id) && typeof t.name === 'string'),
        'every topic has max_id and name',
        res,
      );
      const ids = topics.map((t) => t.max_id as number);
      ctx.check(
        'R4.11-2',
        ids.every((id, i) => i === 0 || ids[i - 1]! > id),
        `max_id order: ${ids.slice(0, 10).join(', ')}`,
        res,
      );
      const known = topics.find((t) => t.name === ctx.world.messages.channel.topic);
      ctx.check(
        'R4.11-1',
        known !== undefined && (known.max_id as number) >= ctx.world.messages.channel.id,
        `the topic of the world's channel message: ${JSON.stringify(known)}`,
        res,
      );
    },
  }),
  scenario({
    id: 'errors/channel-list',
    title: 'the channel list returns streams with the §2.2 fields, the public channel included and no inaccessible private one',
    rules: [
      'R4.15-1',
      'R4.15-2',
      'R4.15-12',
      'R2.2-1',
      'R2.2-2',
      'R2.2-3',
      'R2.2-4',
      'R2.2-5',
      'R2.2-6',
      'R2.2-7',
      'R2.2-8',
      'R2.2-9',
      'R2.2-10',
      'R2.2-11',
      'R1-11',
      'R1-5',
      'R9-11',
      'R3-3',
    ],
    requires: { channels: ['moderation'] },
    when: (ctx) => ctx.as('member').get('/api/v1/streams'),
    then: (ctx, res) => {
      ctx.expectSuccess('R4.15-12', res);
      const list = asArray(res.body.streams);
      const pub = list.find((c) => c.stream_id === ctx.channel('public').stream_id);
      ctx.check('R4.15-12', pub !== undefined, 'the public channel is listed', res);
      ctx.check(
        'R4.15-1',
        !list.some((c) => c.stream_id === ctx.channel('moderation').stream_id),
        'the private moderation channel the member cannot access is not listed',
        res,
      );
      ctx.check('R4.15-2', res.body.result === 'success', 'no parameter is required', res);
      // Fields that came with later levels (§9 and the reference's marks): only those of the scenario's level.
      const allFields: Record<string, FieldType> = {
        stream_id: 'integer',
        name: 'string',
        description: 'string',
        rendered_description: 'string',
        date_created: 'integer',
        creator_id: 'integer|null',
        invite_only: 'boolean',
        is_web_public: 'boolean',
        stream_post_policy: 'integer',
        is_announcement_only: 'boolean',
        message_retention_days: 'integer|null',
        history_public_to_subscribers: 'boolean',
        topics_policy: 'string',
        first_message_id: 'integer|null',
        folder_id: 'integer|null',
        is_recently_active: 'boolean',
        can_add_subscribers_group: 'group',
        can_remove_subscribers_group: 'group',
        can_administer_channel_group: 'group',
        can_move_messages_out_of_channel_group: 'group',
        is_archived: 'boolean',
        can_delete_any_message_group: 'group',
        can_delete_own_message_group: 'group',
      };
      const fields = Object.fromEntries(Object.entries(allFields).filter(([f]) => channelHas(ctx, f)));
      // The delete-permission groups are a §9 level: checked below under R9-11.
      const marked = Object.keys(allFields).filter((f) => !f.startsWith('can_delete_'));
      expectChannelFieldsAbsent(ctx, 'R4.15-12', marked, list, 'listed channels', res);
      const bad = list.find((c) => !expectFields(ctx, 'R4.15-12', c, fields, `channel ${String(c.stream_id)}`));
      ctx.check(
        'R4.15-12',
        bad === undefined,
        bad ? `channel ${String(bad.stream_id)} lacks a field (see above)` : `${list.length} channels with the §2.2 fields`,
        res,
      );
      const every = (f: (c: Record<string, unknown>) => boolean) => list.length > 0 && list.every(f);
      if (channelHas(ctx, 'creator_id'))
        ctx.check(
          'R2.2-1',
          every((c) => c.creator_id === null || isInt(c.creator_id)),
          'creator_id integer or null',
          res,
        );
      ctx.check('R2.2-2', pub?.invite_only === false, 'invite_only false for the public channel', res);
      ctx.check(
        'R2.2-3',
        every((c) => [1, 2, 3, 4].includes(c.stream_post_policy as number)),
        'stream_post_policy in 1–4',
        res,
      );
      ctx.check(
        'R2.2-4',
        every((c) => typeof c.is_announcement_only === 'boolean'),
        'is_announcement_only boolean',
        res,
      );
      ctx.check(
        'R2.2-5',
        every(
          (c) =>
            c.message_retention_days === null ||
            (isInt(c.message_retention_days) && (c.message_retention_days === -1 || c.message_retention_days > 0)),
        ),
        'message_retention_days null, -1 or days',
        res,
      );
      if (channelHas(ctx, 'topics_policy')) {
        ctx.check(
          'R2.2-6',
          every((c) => POLICIES.includes(c.topics_policy as string)),
          'topics_policy one of the four values',
          res,
        );
        ctx.check(
          'R3-3',
          every((c) => POLICIES.includes(c.topics_policy as string)),
          'every channel in one of the four topics_policy states',
          res,
        );
      }
      ctx.check(
        'R2.2-7',
        isInt(pub?.first_message_id) && (pub.first_message_id as number) <= ctx.world.messages.channel.id,
        'first_message_id of a channel with history',
        res,
      );
      if (channelHas(ctx, 'folder_id'))
        ctx.check(
          'R2.2-8',
          every((c) => c.folder_id === null || isInt(c.folder_id)),
          'folder_id integer or null',
          res,
        );
      if (channelHas(ctx, 'can_remove_subscribers_group'))
        ctx.check(
          'R2.2-9',
          every((c) => isGroupValue(c.can_remove_subscribers_group)),
          'can_remove_subscribers_group on every channel',
          res,
        );
      if (channelHas(ctx, 'can_administer_channel_group'))
        ctx.check(
          'R2.2-10',
          every((c) => isGroupValue(c.can_administer_channel_group)),
          'can_administer_channel_group on every channel',
          res,
        );
      if (ctx.has('channel_delete_permission_groups'))
        ctx.check(
          'R2.2-11',
          every((c) => isGroupValue(c.can_delete_any_message_group)),
          'can_delete_any_message_group on every channel',
          res,
        );
      else
        ctx.check(
          'R9-11',
          every((c) => c.can_delete_any_message_group === undefined && c.can_delete_own_message_group === undefined),
          'below level 407 no channel-level delete-permission groups',
          res,
        );
      const groups = list.flatMap((c) => Object.entries(c).filter(([k]) => k.startsWith('can_') && k.endsWith('_group')));
      ctx.check(
        'R1-11',
        groups.length > 0 && groups.every(([, v]) => isGroupValue(v)),
        `${groups.length} group-setting values, each a group ID or {direct_members, direct_subgroups}`,
        res,
      );
      ctx.check(
        'R1-5',
        every((c) => isInt(c.date_created)),
        'date_created is an integer',
        res,
      );
    },
  }),
  scenario({
    id: 'errors/channel-list-include-public',
    title: 'include_public defaults to true; include_public=false (a query parameter) leaves out public channels one is not subscribed to',
    rules: ['R4.15-3', 'R4.15-5', 'R1-1'],
    requires: { roles: ['member_3'] },
    given(ctx) {
      if (ctx.channel('public_2').subscribers.includes('member_3')) throw new SetupError('needs member_3 out of public_2');
    },
    when: (ctx) => ctx.as('member_3').get('/api/v1/streams', { include_public: false }),
    async then(ctx, res) {
      ctx.expectSuccess('R4.15-3', res);
      const ids = asArray(res.body.streams).map((c) => c.stream_id);
      parsedCheck(
        ctx,
        Array.isArray(res.body.streams) && ids.every(isInt),
        !ids.includes(ctx.channel('public_2').stream_id),
        'include_public=false in the query string left out an unsubscribed public channel',
        res,
      );
      ctx.check('R4.15-5', ids.includes(ctx.channel('public').stream_id), 'subscribed channels are still included', res);
      const byDefault = (await streams(ctx, 'member_3')).map((c) => c.stream_id);
      ctx.check('R4.15-3', byDefault.includes(ctx.channel('public_2').stream_id), 'by default the unsubscribed public channel is listed');
    },
  }),
  scenario({
    id: 'errors/channel-list-archived',
    title: 'archived channels are left out by default and listed with exclude_archived=false (from level 315)',
    rules: ['R4.15-6', 'R3-1', 'R9-10'],
    requires: { channels: ['archived'] },
    when: (ctx) => ctx.as('member').get('/api/v1/streams'),
    async then(ctx, res) {
      const archived = ctx.channel('archived').stream_id;
      ctx.check(
        'R4.15-6',
        !asArray(res.body.streams).some((c) => c.stream_id === archived),
        'the archived channel is not listed by default',
        res,
      );
      const all = await streams(ctx, 'member', { exclude_archived: false });
      const found = all.find((c) => c.stream_id === archived);
      if (ctx.has('archived_channels'))
        ctx.check('R3-1', found?.is_archived === true, `with exclude_archived=false: ${JSON.stringify(found?.is_archived)}`);
      else ctx.check('R9-10', found === undefined, 'below level 315 archived channels are not listed');
    },
  }),
  scenario({
    id: 'errors/channel-list-include-all-active',
    title: 'include_all_active (administrators only) from a member is BAD_REQUEST',
    rules: ['R4.15-11', 'R7-3'],
    when: (ctx) => ctx.as('member').get('/api/v1/streams', { include_all_active: true }),
    then: (ctx, res) => {
      ctx.expectError('R4.15-11', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.check('R7-3', res.body.code === 'BAD_REQUEST', 'insufficient permission is a BAD_REQUEST case', res);
    },
  }),
  scenario({
    id: 'errors/update-channel-public-history',
    title: 'history_public_to_subscribers false for a public channel is refused',
    rules: ['R4.16-10'],
    isolated: true,
    requires: { roles: ['administrator'] },
    when: (ctx) =>
      ctx.as('administrator').patch(`/api/v1/streams/${ctx.channel('public').stream_id}`, { history_public_to_subscribers: false }),
    async then(ctx, res) {
      ctx.expectError('R4.16-10', res, { status: 400, code: 'BAD_REQUEST' });
      const c = (await streams(ctx, 'administrator')).find((s) => s.stream_id === ctx.channel('public').stream_id);
      ctx.expectEqual('R4.16-10', c?.history_public_to_subscribers, true, 'history_public_to_subscribers after the refusal');
    },
  }),
  scenario({
    id: 'errors/archive-state-changes',
    title: 'is_archived true unarchives an archived channel and is refused on an active one (only unarchiving is accepted)',
    rules: ['R3-7', 'R4.16-13', 'R3-1'],
    isolated: true,
    destructive: true,
    requires: { roles: ['administrator'], channels: ['archived'], level: { from: 'archived_channels' } },
    given(ctx) {
      // Archive it again afterwards (real servers keep what scenarios change).
      ctx.defer(() => ctx.as('administrator').delete(`/api/v1/streams/${ctx.channel('archived').stream_id}`));
    },
    when: (ctx) => ctx.as('administrator').patch(`/api/v1/streams/${ctx.channel('archived').stream_id}`, { is_archived: true }),
    async then(ctx, res) {
      ctx.expectSuccess('R3-7', res);
      const listed = async () => streams(ctx, 'administrator', { include_all: true, exclude_archived: false });
      const c = (await listed()).find((s) => s.stream_id === ctx.channel('archived').stream_id);
      ctx.expectEqual('R3-7', c?.is_archived, false, 'is_archived of the archived channel after the update');
      ctx.check('R3-1', c !== undefined && typeof c.is_archived === 'boolean', 'the archive state is is_archived');
      const refused = await ctx.as('administrator').patch(`/api/v1/streams/${ctx.channel('public').stream_id}`, { is_archived: true });
      ctx.expectError('R4.16-13', refused, { status: 400, code: 'BAD_REQUEST' });
      const pub = (await listed()).find((s) => s.stream_id === ctx.channel('public').stream_id);
      ctx.expectEqual('R4.16-13', pub?.is_archived, false, 'the active channel stays unarchived');
    },
  }),
];
