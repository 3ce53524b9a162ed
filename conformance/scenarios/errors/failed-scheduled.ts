import { SetupError } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import { asArray, isInt } from './support.js';

/**
 * Spec §3 "failed scheduled message" and §4.2: a scheduled message the server could not send is
 * failed (failed true), and editing it needs scheduled_delivery_timestamp. To make one fail, the
 * scenario archives the channel it was going to and lets its time pass (the realm clock, or real time
 * under --slow), so it runs in a realm of its own.
 */

export default scenario({
  id: 'errors/failed-scheduled-message-edit',
  title: 'a failed scheduled message cannot be edited without scheduled_delivery_timestamp, and can with one',
  rules: ['R3-4', 'R3-9', 'R4.2-6'],
  isolated: true,
  destructive: true,
  requires: { roles: ['member', 'administrator'], control: true },
  async given(ctx) {
    const member = ctx.as('member');
    const now = await ctx.serverTime();
    const made = ctx.must(
      await member.post('/api/v1/scheduled_messages', {
        type: 'stream',
        to: ctx.channel('public_2').stream_id,
        topic: 'soon',
        content: ctx.unique('doomed'),
        scheduled_delivery_timestamp: now + 5,
      }),
      'schedule a message',
    );
    const id = made.body.scheduled_message_id;
    if (!isInt(id)) throw new SetupError('no scheduled_message_id');
    ctx.must(await ctx.as('administrator').delete(`/api/v1/streams/${ctx.channel('public_2').stream_id}`), 'archive its channel');
    await ctx.advanceClock(30);
    const listed = asArray(
      ctx.must(await member.get('/api/v1/scheduled_messages'), 'list scheduled messages').body.scheduled_messages,
    ).find((m) => m.scheduled_message_id === id);
    if (listed?.failed !== true) throw new SetupError(`the scheduled message did not fail: ${JSON.stringify(listed)}`);
    return { id };
  },
  when: (ctx, g) => ctx.as('member').patch(`/api/v1/scheduled_messages/${g.id}`, { content: ctx.unique('edited') }),
  async then(ctx, res, g) {
    ctx.expectError('R4.2-6', res, { status: 400, code: 'BAD_REQUEST' });
    const still = asArray(
      ctx.must(await ctx.as('member').get('/api/v1/scheduled_messages'), 'list scheduled messages').body.scheduled_messages,
    ).find((m) => m.scheduled_message_id === g.id);
    ctx.expectEqual('R3-4', still?.failed, true, 'failed after the refused edit (still in the failed state)');
    const fixed = await ctx.as('member').patch(`/api/v1/scheduled_messages/${g.id}`, {
      type: 'stream',
      to: ctx.channel('public').stream_id,
      topic: 'retry',
      scheduled_delivery_timestamp: (await ctx.serverTime()) + 3600,
    });
    ctx.expectSuccess('R3-9', fixed);
  },
});
