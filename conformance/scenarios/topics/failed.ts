import type { ScenarioContext } from '../../src/context.js';
import { SetupError } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import { future, listScheduled, schedule } from './support.js';

/**
 * §3 "failed scheduled message": editing one needs a new scheduled_delivery_timestamp (§4.2). A
 * message fails when it cannot be sent at its time; here its channel (one the scenario creates) is
 * archived before the time comes, and the target's clock is moved past it (control API, or --slow).
 */

async function failedMessage(ctx: ScenarioContext): Promise<number> {
  const name = ctx.unique('doomed');
  ctx.must(await ctx.as('member').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name }] }), 'create a channel');
  const found = ctx.must(await ctx.as('member').get('/api/v1/get_stream_id', { stream: name }), 'find the new channel');
  const streamId = found.body.stream_id;
  if (typeof streamId !== 'number') throw new SetupError('no stream_id for the new channel');
  const id = await schedule(ctx, 'member', {
    type: 'stream',
    to: streamId,
    topic: 'soon',
    content: 'will fail',
    scheduled_delivery_timestamp: await future(ctx, 60),
  });
  ctx.must(await ctx.as('administrator').delete(`/api/v1/streams/${streamId}`), 'archive the channel');
  await ctx.advanceClock(120);
  for (let i = 0; i < 25; i++) {
    const item = (await listScheduled(ctx, 'member')).find((m) => m.scheduled_message_id === id);
    if (item?.failed === true) return id;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new SetupError(`scheduled message ${id} did not become failed after its channel was archived`);
}

export default [
  scenario({
    id: 'topics/scheduled-failed-edit-needs-timestamp',
    title: 'editing a failed scheduled message without a new delivery time is refused',
    rules: ['R3-9', 'R4.2-6', 'R2.1-5', 'R3-4'],
    requires: { roles: ['member', 'administrator'], control: true, level: { from: 'scheduled_message_edit_endpoint' } },
    given: (ctx) => failedMessage(ctx),
    when: (ctx, id) => ctx.as('member').patch(`/api/v1/scheduled_messages/${id}`, { content: 'try again' }),
    async then(ctx, res, id) {
      ctx.expectError('R4.2-6', res, { status: 400, code: 'BAD_REQUEST' });
      const item = (await listScheduled(ctx, 'member')).find((m) => m.scheduled_message_id === id);
      ctx.expectEqual('R3-9', item?.content, 'will fail', 'content after the refusal');
      ctx.expectEqual('R2.1-5', item?.failed, true, 'failed (the server tried and could not send it)');
      ctx.check('R3-4', item?.failed === true, 'the message is in the failed state');
    },
  }),

  scenario({
    id: 'topics/scheduled-failed-edit-with-timestamp',
    title: 'a failed scheduled message can be edited when a new delivery time is supplied',
    rules: ['R3-9', 'R4.2-6'],
    requires: {
      roles: ['member', 'administrator'],
      channels: ['public'],
      control: true,
      level: { from: 'scheduled_message_edit_endpoint' },
    },
    given: async (ctx) => ({ id: await failedMessage(ctx), at: await future(ctx) }),
    when: (ctx, g) =>
      ctx.as('member').patch(`/api/v1/scheduled_messages/${g.id}`, {
        type: 'stream',
        to: ctx.channel('public').stream_id,
        topic: 'rescued',
        content: 'try again',
        scheduled_delivery_timestamp: g.at,
      }),
    async then(ctx, res, g) {
      ctx.expectSuccess('R3-9', res);
      const item = (await listScheduled(ctx, 'member')).find((m) => m.scheduled_message_id === g.id);
      ctx.expectEqual(
        'R4.2-6',
        [item?.content, item?.scheduled_delivery_timestamp],
        ['try again', g.at],
        'content and delivery time after the edit',
      );
    },
  }),
];
