import type { Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import { asArray, beforeEditOperation, expectFields, future, isInt, scheduleMessage } from './support.js';

/**
 * Success shapes of §4.1 (create) and §4.2 (edit a scheduled message), the fields of §2.1 as the list
 * of scheduled messages shows them, and §4.2's rules on type changes. Each scenario works on scheduled
 * messages it creates itself (deleted afterwards), so they share the demo realm.
 */

/** The caller's scheduled message with that ID, from GET /scheduled_messages. */
async function listed(ctx: ScenarioContext, id: unknown): Promise<Record<string, unknown> | undefined> {
  const res = ctx.must(await ctx.as('member').get('/api/v1/scheduled_messages'), 'list scheduled messages');
  return asArray(res.body.scheduled_messages).find((m) => m.scheduled_message_id === id);
}

/** Deletes what a create call made, whatever the scenario concludes. */
function cleanUp(ctx: ScenarioContext, res: Reply): void {
  const id = res.body.scheduled_message_id;
  if (isInt(id)) ctx.defer(() => ctx.as('member').delete(`/api/v1/scheduled_messages/${id}`));
}

const CHANNEL_TYPES = ['stream', 'channel'];
const DIRECT_TYPES = ['private', 'direct'];

export default [
  scenario({
    id: 'errors/scheduled-message-create-channel',
    title: 'scheduling a channel message returns an integer scheduled_message_id; the list shows its §2.1 fields',
    rules: ['R4.1-7', 'R4.1-1', 'R4.1-3', 'R4.1-5', 'R2.1-1', 'R2.1-2', 'R2.1-3', 'R2.1-4', 'R2.1-5', 'R1-5'],
    async given(ctx) {
      return { at: await future(ctx), topic: ctx.unique('plan'), content: ctx.unique('plan body') };
    },
    async when(ctx, g) {
      const res = await ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'stream',
        to: ctx.channel('public').stream_id,
        topic: g.topic,
        content: g.content,
        scheduled_delivery_timestamp: g.at,
      });
      cleanUp(ctx, res);
      return res;
    },
    async then(ctx, res, g) {
      ctx.expectSuccess('R4.1-7', res);
      ctx.check(
        'R4.1-7',
        isInt(res.body.scheduled_message_id),
        `scheduled_message_id ${JSON.stringify(res.body.scheduled_message_id)}`,
        res,
      );
      const m = await listed(ctx, res.body.scheduled_message_id);
      ctx.check('R2.1-1', m !== undefined, 'the list has the new scheduled message under its scheduled_message_id');
      if (!m) return;
      expectFields(
        ctx,
        'R2.1-1',
        m,
        {
          scheduled_message_id: 'integer',
          type: 'string',
          to: 'integer|integer[]',
          content: 'string',
          topic: 'string',
          scheduled_delivery_timestamp: 'integer',
          read_by_sender: 'boolean',
          failed: 'boolean',
        },
        'listed scheduled message',
      );
      ctx.check('R2.1-2', CHANNEL_TYPES.includes(m.type as string), `type ${JSON.stringify(m.type)} means a channel message`);
      ctx.expectEqual('R2.1-3', m.to, ctx.channel('public').stream_id, 'to (the channel ID)');
      ctx.expectEqual('R2.1-4', m.topic, g.topic, 'topic');
      ctx.expectEqual('R4.1-3', m.content, g.content, 'content');
      ctx.expectEqual('R4.1-5', m.scheduled_delivery_timestamp, g.at, 'scheduled_delivery_timestamp');
      ctx.expectEqual('R2.1-5', m.failed, false, 'failed of a pending message');
      ctx.check('R4.1-1', res.body.result === 'success', 'type stream is accepted', res);
      ctx.check('R1-5', isInt(m.scheduled_delivery_timestamp), 'the timestamp is an integer');
    },
  }),
  scenario({
    id: 'errors/scheduled-message-create-direct',
    title: 'scheduling a direct message (type direct, to a list of user IDs) succeeds; its topic is ignored',
    rules: ['R4.1-7', 'R4.1-2', 'R4.1-4', 'R4.1-6', 'R2.1-2', 'R2.1-3', 'R2.1-4'],
    requires: { roles: ['member', 'member_2'] },
    given: (ctx) => future(ctx),
    async when(ctx, at) {
      const res = await ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'direct',
        to: [ctx.user('member_2').user_id],
        topic: 'ignored topic',
        content: ctx.unique('direct plan'),
        scheduled_delivery_timestamp: at,
        read_by_sender: true,
      });
      cleanUp(ctx, res);
      return res;
    },
    async then(ctx, res) {
      ctx.expectSuccess('R4.1-7', res);
      const m = await listed(ctx, res.body.scheduled_message_id);
      ctx.check('R4.1-2', m !== undefined, 'the direct scheduled message is listed');
      if (!m) return;
      ctx.check('R2.1-2', DIRECT_TYPES.includes(m.type as string), `type ${JSON.stringify(m.type)} means a direct message`);
      ctx.expectEqual('R2.1-3', m.to, [ctx.user('member_2').user_id], 'to (list of user IDs)');
      ctx.check('R4.1-4', m.topic === undefined || m.topic === '', `topic of a direct message: ${JSON.stringify(m.topic)}`);
      ctx.check('R2.1-4', m.topic === undefined || m.topic === '', 'a topic only for channel messages');
      ctx.expectEqual('R4.1-6', m.read_by_sender, true, 'read_by_sender as sent');
    },
  }),
  scenario({
    id: 'errors/scheduled-message-edit-content',
    title: 'editing a scheduled message succeeds with no extra fields and changes only what was sent',
    rules: ['R4.2-7', 'R4.2-4', 'R4.2-1', 'R9-4'],
    async given(ctx) {
      const id = await scheduleMessage(ctx, 'member');
      return { id, before: await listed(ctx, id), content: ctx.unique('edited body') };
    },
    when: (ctx, g) => ctx.as('member').patch(`/api/v1/scheduled_messages/${g.id}`, { content: g.content }),
    async then(ctx, res, g) {
      if (beforeEditOperation(ctx, res)) return;
      ctx.expectSuccess('R4.2-7', res);
      const extra = Object.keys(res.body).filter((k) => !['result', 'msg', 'ignored_parameters_unsupported'].includes(k));
      ctx.expectEqual('R4.2-7', extra, [], 'fields beyond result and msg');
      const after = await listed(ctx, g.id);
      ctx.expectEqual('R4.2-1', after?.content, g.content, 'content of the scheduled message named by the path');
      ctx.expectEqual('R4.2-4', [after?.topic, after?.to], [g.before?.topic, g.before?.to], 'topic and to, not sent, unchanged');
    },
  }),
  scenario({
    id: 'errors/scheduled-message-type-without-to',
    title: 'changing the type of a scheduled message without to is refused',
    rules: ['R4.2-2', 'R4.2-3', 'R9-4'],
    requires: { roles: ['member', 'member_2'] },
    given: (ctx) => scheduleMessage(ctx, 'member'),
    when: (ctx, id) => ctx.as('member').patch(`/api/v1/scheduled_messages/${id}`, { type: 'direct' }),
    then: (ctx, res) => {
      if (beforeEditOperation(ctx, res)) return;
      ctx.expectError('R4.2-3', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.check('R4.2-2', res.body.result === 'error', 'to is required when changing the type', res);
    },
  }),
  scenario({
    id: 'errors/scheduled-message-to-channel-without-topic',
    title: 'changing a scheduled direct message to a channel type without a topic is refused',
    rules: ['R4.2-2', 'R9-4'],
    requires: { roles: ['member', 'member_2'] },
    given: (ctx) => scheduleMessage(ctx, 'member', { type: 'direct', to: [ctx.user('member_2').user_id], topic: undefined }),
    when: (ctx, id) => ctx.as('member').patch(`/api/v1/scheduled_messages/${id}`, { type: 'stream', to: ctx.channel('public').stream_id }),
    then: (ctx, res) => {
      if (beforeEditOperation(ctx, res)) return;
      ctx.expectError('R4.2-2', res, { status: 400, code: 'BAD_REQUEST' });
    },
  }),
  scenario({
    id: 'errors/scheduled-message-direct-to-channel',
    title: 'changing a scheduled direct message to a channel message with to and topic succeeds',
    rules: ['R4.2-2', 'R4.2-3', 'R4.2-7', 'R2.1-3', 'R9-4'],
    requires: { roles: ['member', 'member_2'] },
    async given(ctx) {
      return {
        id: await scheduleMessage(ctx, 'member', { type: 'direct', to: [ctx.user('member_2').user_id], topic: undefined }),
        topic: ctx.unique('moved'),
      };
    },
    when: (ctx, g) =>
      ctx.as('member').patch(`/api/v1/scheduled_messages/${g.id}`, { type: 'stream', to: ctx.channel('public').stream_id, topic: g.topic }),
    async then(ctx, res, g) {
      if (beforeEditOperation(ctx, res)) return;
      ctx.expectSuccess('R4.2-7', res);
      const m = await listed(ctx, g.id);
      ctx.check('R4.2-2', CHANNEL_TYPES.includes(m?.type as string), `type after the change: ${JSON.stringify(m?.type)}`);
      ctx.expectEqual('R4.2-3', [m?.to, m?.topic], [ctx.channel('public').stream_id, g.topic], 'to and topic after the change');
      ctx.check('R2.1-3', isInt(m?.to), 'to is an integer channel ID for a channel message');
    },
  }),
  scenario({
    id: 'errors/scheduled-message-direct-topic-ignored',
    title: 'a topic sent when editing a scheduled direct message is ignored',
    rules: ['R4.2-5', 'R4.2-7', 'R9-4'],
    requires: { roles: ['member', 'member_2'] },
    given: (ctx) => scheduleMessage(ctx, 'member', { type: 'direct', to: [ctx.user('member_2').user_id], topic: undefined }),
    when: (ctx, id) =>
      ctx.as('member').patch(`/api/v1/scheduled_messages/${id}`, { topic: 'not for direct messages', content: ctx.unique('still direct') }),
    async then(ctx, res, id) {
      if (beforeEditOperation(ctx, res)) return;
      ctx.expectSuccess('R4.2-7', res);
      const m = await listed(ctx, id);
      ctx.check(
        'R4.2-5',
        DIRECT_TYPES.includes(m?.type as string) && (m?.topic === undefined || m.topic === ''),
        `after the edit: type ${JSON.stringify(m?.type)}, topic ${JSON.stringify(m?.topic)}`,
      );
    },
  }),
];
