import { scenario, scenarios } from '../../src/dsl.js';
import { asArray, future, listScheduled, removeLater, schedule } from './support.js';

/**
 * §4.1 parameters of a scheduled message (the required ones, read_by_sender) and §2.1: the message
 * is sent at its time with an ID of its own.
 */

const REQUIRED = [
  { param: 'type', rule: 'R4.1-1' },
  { param: 'to', rule: 'R4.1-2' },
  { param: 'content', rule: 'R4.1-3' },
  { param: 'scheduled_delivery_timestamp', rule: 'R4.1-5' },
] as const;

export default [
  ...scenarios(REQUIRED, (row) =>
    scenario({
      id: `topics/scheduled-requires-${row.param.replaceAll('_', '-')}`,
      title: `a scheduled message without ${row.param} is refused`,
      rules: [row.rule],
      requires: { roles: ['member'], channels: ['public'] },
      given: (ctx) => future(ctx),
      when(ctx, at) {
        const params: Record<string, string | number> = {
          type: 'stream',
          to: ctx.channel('public').stream_id,
          topic: 'incomplete',
          content: 'incomplete',
          scheduled_delivery_timestamp: at,
        };
        delete params[row.param];
        return ctx.as('member').post('/api/v1/scheduled_messages', params);
      },
      then(ctx, res) {
        removeLater(ctx, 'member', res);
        // The code of a missing parameter is not in the spec's list (§7 "complete list of codes: not shown").
        ctx.check(
          row.rule,
          res.status === 400 && res.body.result === 'error' && typeof res.body.code === 'string',
          `HTTP ${res.status} ${JSON.stringify(res.body.code)} without ${row.param}`,
          res,
        );
      },
    }),
  ),

  scenario({
    id: 'topics/scheduled-read-by-sender-kept',
    title: 'read_by_sender given on creation is kept on the scheduled message',
    rules: ['R4.1-6'],
    requires: { roles: ['member'], channels: ['public'] },
    given: (ctx) => future(ctx),
    when: (ctx, at) =>
      ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'stream',
        to: ctx.channel('public').stream_id,
        topic: 'read',
        content: 'already read',
        scheduled_delivery_timestamp: at,
        read_by_sender: true,
      }),
    async then(ctx, res) {
      removeLater(ctx, 'member', res);
      if (!ctx.expectSuccess('R4.1-6', res)) return;
      const item = (await listScheduled(ctx, 'member')).find((m) => m.scheduled_message_id === res.body.scheduled_message_id);
      ctx.expectEqual('R4.1-6', item?.read_by_sender, true, 'read_by_sender of the scheduled message');
    },
  }),

  scenario({
    id: 'topics/scheduled-delivered-with-own-id',
    title: 'at its time a scheduled message is sent, under an ID that differs from scheduled_message_id',
    rules: ['R2.1-1'],
    requires: { roles: ['member'], channels: ['public'], control: true },
    async given(ctx) {
      const topic = ctx.unique('delivered');
      const id = await schedule(ctx, 'member', {
        type: 'stream',
        to: ctx.channel('public').stream_id,
        topic,
        content: 'on time',
        scheduled_delivery_timestamp: await future(ctx, 60),
      });
      await ctx.advanceClock(120);
      return { id, topic };
    },
    async when(ctx, g) {
      for (let i = 0; ; i++) {
        const res = ctx.must(await ctx.as('member').get(`/api/v1/users/me/${ctx.channel('public').stream_id}/topics`), 'list topics');
        if (asArray(res.body.topics).some((t) => t.name === g.topic) || i >= 25) return res;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    then(ctx, res, g) {
      const sent = asArray(res.body.topics).find((t) => t.name === g.topic);
      if (!ctx.check('R2.1-1', sent !== undefined, `scheduled message ${g.id} delivered in its topic`, res)) return;
      ctx.check(
        'R2.1-1',
        typeof sent?.max_id === 'number' && sent.max_id !== g.id,
        `sent as message ${JSON.stringify(sent?.max_id)}, scheduled as ${g.id}`,
        res,
      );
    },
  }),
];
