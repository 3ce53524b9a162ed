import type { Params, Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import type { Requirements } from '../../src/dsl.js';
import { MISSING_ID, displayName, future, listScheduled, removeLater, schedule, storedScheduled } from './support.js';

/**
 * Scheduled messages, §4.1 (create) and §4.2 (edit) with their topic rules, §2.1 fields, and the §3
 * transition of a failed scheduled message. Editing exists from level 184 (§9), so every PATCH
 * scenario declares it.
 */

const EDIT: Requirements['level'] = { from: 'scheduled_message_edit_endpoint' };

/** A pending channel message of the member in the public channel, topic "draft". */
const pending = async (ctx: ScenarioContext, streamId = ctx.channel('public').stream_id): Promise<number> =>
  schedule(ctx, 'member', {
    type: 'stream',
    to: streamId,
    topic: 'draft',
    content: 'pending',
    scheduled_delivery_timestamp: await future(ctx),
  });

const patch = (ctx: ScenarioContext, id: number, params: Params): Promise<Reply> =>
  ctx.as('member').patch(`/api/v1/scheduled_messages/${id}`, params);

/** An error whose HTTP status the spec leaves open (§7: statuses stated only where shown): any 4xx. */
function expectCode(ctx: ScenarioContext, rule: string, res: Reply, code: string): void {
  const ok = res.status >= 400 && res.status < 500 && res.body.result === 'error' && res.body.code === code;
  ctx.check(rule, ok, `HTTP ${res.status} ${JSON.stringify(res.body.code)} (expected a 4xx ${code})`, res);
}

export default [
  scenario({
    id: 'topics/scheduled-direct-ignores-topic',
    title: 'a scheduled direct message ignores the topic and keeps the list of user IDs',
    rules: ['R4.1-4', 'R2.1-2', 'R2.1-3', 'R2.1-4'],
    requires: { roles: ['member', 'member_2'] },
    given: (ctx) => future(ctx),
    when: (ctx, at) =>
      ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'direct',
        to: [ctx.user('member_2').user_id],
        topic: 'not for direct messages',
        content: 'direct',
        scheduled_delivery_timestamp: at,
      }),
    async then(ctx, res) {
      removeLater(ctx, 'member', res);
      if (!ctx.expectSuccess('R4.1-4', res)) return;
      const item = (await listScheduled(ctx, 'member')).find((m) => m.scheduled_message_id === res.body.scheduled_message_id);
      ctx.check(
        'R2.1-4',
        item !== undefined && (item.topic === undefined || item.topic === ''),
        `topic of the direct message ${JSON.stringify(item?.topic)}`,
      );
      ctx.expectEqual('R2.1-3', item?.to, [ctx.user('member_2').user_id], 'to of the direct message');
      ctx.check('R2.1-2', item?.type === 'direct' || item?.type === 'private', `type ${JSON.stringify(item?.type)} means a direct message`);
    },
  }),

  scenario({
    id: 'topics/scheduled-unknown-channel',
    title: 'scheduling to an unknown channel is STREAM_DOES_NOT_EXIST with stream_id',
    rules: ['R4.1-8', 'R7-2'],
    requires: { roles: ['member'] },
    given: (ctx) => future(ctx),
    when: (ctx, at) =>
      ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'stream',
        to: MISSING_ID,
        topic: 'nowhere',
        content: 'lost',
        scheduled_delivery_timestamp: at,
      }),
    then(ctx, res) {
      removeLater(ctx, 'member', res);
      // §7 states no status for STREAM_DOES_NOT_EXIST: 400 is the reference's.
      ctx.expectError('R4.1-8', res, { status: 400, code: 'STREAM_DOES_NOT_EXIST', reference: { for: ['status'] } });
      ctx.expectEqual('R7-2', res.body.stream_id, MISSING_ID, 'stream_id of the error', res);
    },
  }),

  scenario({
    id: 'topics/scheduled-invalid-user',
    title: 'scheduling a direct message to an unknown user ID is BAD_REQUEST',
    rules: ['R4.1-9'],
    requires: { roles: ['member'] },
    given: (ctx) => future(ctx),
    when: (ctx, at) =>
      ctx
        .as('member')
        .post('/api/v1/scheduled_messages', { type: 'direct', to: [MISSING_ID], content: 'nobody', scheduled_delivery_timestamp: at }),
    then(ctx, res) {
      removeLater(ctx, 'member', res);
      ctx.expectError('R4.1-9', res, { status: 400, code: 'BAD_REQUEST' });
    },
  }),

  scenario({
    id: 'topics/scheduled-channel-needs-topic',
    title: 'a scheduled channel message without a topic is refused',
    rules: ['R4.1-4'],
    requires: { roles: ['member'], channels: ['public'] },
    given: (ctx) => future(ctx),
    when: (ctx, at) =>
      ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'stream',
        to: ctx.channel('public').stream_id,
        content: 'no topic parameter',
        scheduled_delivery_timestamp: at,
      }),
    then(ctx, res) {
      removeLater(ctx, 'member', res);
      ctx.check(
        'R4.1-4',
        res.status === 400 && res.body.result === 'error',
        `HTTP ${res.status} ${JSON.stringify(res.body.code)} for a channel message without topic`,
        res,
      );
    },
  }),

  scenario({
    id: 'topics/scheduled-edit-type-needs-to',
    title: 'changing the type of a scheduled message without to is refused',
    rules: ['R4.2-2', 'R4.2-3'],
    requires: { roles: ['member'], channels: ['public'], level: EDIT },
    given: (ctx) => pending(ctx),
    when: (ctx, id) => patch(ctx, id, { type: 'direct' }),
    async then(ctx, res, id) {
      ctx.expectError('R4.2-3', res, { status: 400, code: 'BAD_REQUEST' });
      const item = (await listScheduled(ctx, 'member')).find((m) => m.scheduled_message_id === id);
      ctx.expectEqual('R4.2-2', item?.to, ctx.channel('public').stream_id, 'to after the refusal');
    },
  }),

  scenario({
    id: 'topics/scheduled-edit-channel-type-needs-topic',
    title: 'changing a scheduled direct message to a channel type without topic is refused',
    rules: ['R4.2-2'],
    requires: { roles: ['member', 'member_2'], channels: ['public'], level: EDIT },
    given: async (ctx) =>
      schedule(ctx, 'member', {
        type: 'direct',
        to: [ctx.user('member_2').user_id],
        content: 'direct',
        scheduled_delivery_timestamp: await future(ctx),
      }),
    when: (ctx, id) => patch(ctx, id, { type: 'stream', to: ctx.channel('public').stream_id }),
    then: (ctx, res) => void ctx.expectError('R4.2-2', res, { status: 400, code: 'BAD_REQUEST' }),
  }),

  scenario({
    id: 'topics/scheduled-edit-to-direct',
    title: 'a scheduled channel message becomes a direct message with type and to; its topic no longer applies',
    rules: ['R4.2-2', 'R4.2-5', 'R4.2-7'],
    requires: { roles: ['member', 'member_2'], channels: ['public'], level: EDIT },
    given: (ctx) => pending(ctx),
    when: (ctx, id) => patch(ctx, id, { type: 'direct', to: [ctx.user('member_2').user_id], topic: 'ignored' }),
    async then(ctx, res, id) {
      if (!ctx.expectSuccess('R4.2-7', res)) return;
      const extra = Object.keys(res.body).filter((k) => !['result', 'msg', 'ignored_parameters_unsupported'].includes(k));
      ctx.expectEqual('R4.2-7', extra, [], 'fields besides result and msg', res);
      const item = (await listScheduled(ctx, 'member')).find((m) => m.scheduled_message_id === id);
      ctx.expectEqual('R4.2-2', item?.to, [ctx.user('member_2').user_id], 'to after the change');
      ctx.check(
        'R4.2-5',
        item !== undefined && (item.topic === undefined || item.topic === ''),
        `topic of the direct message ${JSON.stringify(item?.topic)}`,
      );
    },
  }),

  scenario({
    id: 'topics/scheduled-edit-to-channel',
    title: 'a scheduled direct message becomes a channel message with type, to and topic',
    rules: ['R4.2-2', 'R4.2-7'],
    requires: { roles: ['member', 'member_2'], channels: ['public'], level: EDIT },
    given: async (ctx) =>
      schedule(ctx, 'member', {
        type: 'direct',
        to: [ctx.user('member_2').user_id],
        content: 'direct',
        scheduled_delivery_timestamp: await future(ctx),
      }),
    when: (ctx, id) => patch(ctx, id, { type: 'stream', to: ctx.channel('public').stream_id, topic: 'now public' }),
    async then(ctx, res, id) {
      if (!ctx.expectSuccess('R4.2-7', res)) return;
      const item = (await listScheduled(ctx, 'member')).find((m) => m.scheduled_message_id === id);
      ctx.expectEqual('R4.2-2', [item?.to, item?.topic], [ctx.channel('public').stream_id, 'now public'], 'to and topic after the change');
    },
  }),

  scenario({
    id: 'topics/scheduled-edit-missing',
    title: 'editing a scheduled message that does not exist is BAD_REQUEST',
    rules: ['R4.2-9', 'R7-3'],
    requires: { roles: ['member'], level: EDIT },
    when: (ctx) => patch(ctx, MISSING_ID, { content: 'ghost' }),
    then(ctx, res) {
      expectCode(ctx, 'R4.2-9', res, 'BAD_REQUEST');
      expectCode(ctx, 'R7-3', res, 'BAD_REQUEST');
    },
  }),

  scenario({
    id: 'topics/scheduled-edit-foreign',
    title: "editing another user's scheduled message is refused as missing and changes nothing",
    rules: ['R4.2-9'],
    requires: { roles: ['member', 'member_2'], channels: ['public'], level: EDIT },
    given: (ctx) => pending(ctx),
    when: (ctx, id) => ctx.as('member_2').patch(`/api/v1/scheduled_messages/${id}`, { content: 'hijacked' }),
    async then(ctx, res, id) {
      expectCode(ctx, 'R4.2-9', res, 'BAD_REQUEST');
      const item = (await listScheduled(ctx, 'member')).find((m) => m.scheduled_message_id === id);
      ctx.expectEqual('R4.2-9', item?.content, 'pending', "the owner's scheduled message afterwards");
    },
  }),

  scenario({
    id: 'topics/scheduled-edit-unknown-channel',
    title: 'editing a scheduled message to an unknown channel is STREAM_DOES_NOT_EXIST with stream_id',
    rules: ['R4.2-8', 'R7-2'],
    requires: { roles: ['member'], channels: ['public'], level: EDIT },
    given: (ctx) => pending(ctx),
    when: (ctx, id) => patch(ctx, id, { type: 'stream', to: MISSING_ID, topic: 'nowhere' }),
    then(ctx, res) {
      ctx.expectError('R4.2-8', res, { status: 400, code: 'STREAM_DOES_NOT_EXIST', reference: { for: ['status'] } });
      ctx.expectEqual('R7-2', res.body.stream_id, MISSING_ID, 'stream_id of the error', res);
    },
  }),

  scenario({
    id: 'topics/scheduled-edit-topic-refused-by-policy',
    title: 'editing the topic to the empty topic in a channel that requires a topic is refused',
    rules: ['R1-9'],
    requires: { roles: ['member'], channels: ['disable_empty_topic'], level: EDIT },
    given: (ctx) => pending(ctx, ctx.channel('disable_empty_topic').stream_id),
    when: (ctx, id) => patch(ctx, id, { topic: '' }),
    async then(ctx, res, id) {
      ctx.expectError('R1-9', res, { status: 400, code: 'BAD_REQUEST' });
      const item = (await listScheduled(ctx, 'member')).find((m) => m.scheduled_message_id === id);
      ctx.expectEqual('R1-9', item?.topic, 'draft', 'topic after the refusal');
    },
  }),

  scenario({
    id: 'topics/scheduled-edit-display-name-topic',
    title: 'editing the topic to the display name stores the empty topic',
    rules: ['R1-7', 'R4.2-5'],
    requires: { roles: ['member'], channels: ['public'], level: { from: 'empty_topic_name' } },
    given: async (ctx) => ({ name: await displayName(ctx), id: await pending(ctx) }),
    when: (ctx, g) => patch(ctx, g.id, { topic: g.name }),
    async then(ctx, res, g) {
      if (!ctx.expectSuccess('R4.2-5', res)) return;
      const { reply, item } = await storedScheduled(ctx, 'member', g.id);
      ctx.expectEqual('R1-7', item?.topic, '', 'stored topic (client with empty_topic_name)', reply);
    },
  }),
];
