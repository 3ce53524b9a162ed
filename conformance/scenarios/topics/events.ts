import { scenario } from '../../src/dsl.js';
import { SetupError } from '../../src/context.js';
import { displayName, messagesOf, openQueue, pollEvents, send } from './support.js';

/**
 * What message events reach whom (§4.21 all_public_streams and the empty_topic_name capability, §6
 * narrows and bots). Each scenario opens its own queues and looks only for the messages it sends, so
 * other scenarios' traffic in the same realm does not disturb it.
 */
export default [
  scenario({
    id: 'topics/event-topic-by-capability',
    title: 'a message event in the empty topic shows the display name without empty_topic_name and "" with it',
    rules: ['R4.21-17', 'R1-8'],
    requires: { roles: ['member', 'member_2', 'moderator'], channels: ['public'], level: { from: 'empty_topic_name' } },
    async given(ctx) {
      return {
        name: await displayName(ctx),
        without: await openQueue(ctx, 'member', { event_types: ['message'] }),
        with: await openQueue(ctx, 'member_2', { event_types: ['message'], client_capabilities: { empty_topic_name: true } }),
      };
    },
    when: (ctx) => send(ctx, 'moderator', ctx.channel('public').stream_id, '', 'in the empty topic'),
    async then(ctx, id, g) {
      const find = (events: Parameters<typeof messagesOf>[0]) => messagesOf(events).find((m) => m.id === id);
      const a = await pollEvents(ctx, 'member', g.without, (e) => find(e) !== undefined);
      ctx.expectEqual('R4.21-17', find(a.events)?.subject, g.name, 'subject for the queue without empty_topic_name', a.reply);
      const b = await pollEvents(ctx, 'member_2', g.with, (e) => find(e) !== undefined);
      ctx.expectEqual('R1-8', find(b.events)?.subject, '', 'subject for the queue with empty_topic_name', b.reply);
    },
  }),
  scenario({
    id: 'topics/events-all-public-not-private',
    title: 'all_public_streams brings public-channel messages to a non-subscriber, never private-channel ones',
    rules: ['R4.21-9'],
    requires: { roles: ['member', 'member_3'], channels: ['public_2', 'private_protected'] },
    given: (ctx) => openQueue(ctx, 'member_3', { event_types: ['message'], all_public_streams: true }),
    async when(ctx) {
      const hidden = await send(ctx, 'member', ctx.channel('private_protected').stream_id, ctx.unique('secret'));
      const shown = await send(ctx, 'member', ctx.channel('public_2').stream_id, ctx.unique('open'));
      return { hidden, shown };
    },
    async then(ctx, sent, queue) {
      const { reply, events } = await pollEvents(ctx, 'member_3', queue, (e) => messagesOf(e).some((m) => m.id === sent.shown));
      const ids = messagesOf(events).map((m) => m.id);
      ctx.check('R4.21-9', ids.includes(sent.shown), `public-channel message ${sent.shown} among ${JSON.stringify(ids)}`, reply);
      ctx.check('R4.21-9', !ids.includes(sent.hidden), `private-channel message ${sent.hidden} not delivered`, reply);
    },
  }),

  scenario({
    id: 'topics/events-narrow-grants-nothing',
    title: 'a narrow on a private channel does not bring its messages to a non-subscriber',
    rules: ['R6-8', 'R6-7'],
    requires: { roles: ['member', 'member_3'], channels: ['private_protected'] },
    async given(ctx) {
      const narrow = [['stream', ctx.channel('private_protected').name]];
      return {
        outsider: await openQueue(ctx, 'member_3', { event_types: ['message'], narrow }),
        witness: await openQueue(ctx, 'member_2', { event_types: ['message'], narrow }),
      };
    },
    when: (ctx) => send(ctx, 'member', ctx.channel('private_protected').stream_id, ctx.unique('narrowed')),
    async then(ctx, id, q) {
      const w = await pollEvents(ctx, 'member_2', q.witness, (e) => messagesOf(e).some((m) => m.id === id));
      ctx.check(
        'R6-7',
        messagesOf(w.events).some((m) => m.id === id),
        `a subscriber with the same narrow got message ${id}`,
        w.reply,
      );
      const o = await pollEvents(ctx, 'member_3', q.outsider, () => true, 1);
      ctx.expectEqual(
        'R6-8',
        messagesOf(o.events).map((m) => m.id),
        [],
        'message events for the non-subscriber',
        o.reply,
      );
    },
  }),

  scenario({
    id: 'topics/events-bot-unsubscribed',
    title: 'a bot gets message events only from channels it is subscribed to',
    rules: ['R6-9'],
    requires: { roles: ['bot', 'member'], channels: ['public', 'public_2'] },
    given(ctx) {
      const subs = (k: 'public' | 'public_2') => ctx.channel(k).subscribers.includes('bot');
      if (!subs('public') || subs('public_2')) throw new SetupError('needs the bot in public and not in public_2');
      return openQueue(ctx, 'bot', { event_types: ['message'] });
    },
    async when(ctx) {
      const outside = await send(ctx, 'member', ctx.channel('public_2').stream_id, ctx.unique('not for bots'));
      const inside = await send(ctx, 'member', ctx.channel('public').stream_id, ctx.unique('for bots'));
      return { outside, inside };
    },
    async then(ctx, sent, queue) {
      const { reply, events } = await pollEvents(ctx, 'bot', queue, (e) => messagesOf(e).some((m) => m.id === sent.inside));
      const ids = messagesOf(events).map((m) => m.id);
      ctx.check('R6-9', ids.includes(sent.inside), `message ${sent.inside} of a subscribed channel among ${JSON.stringify(ids)}`, reply);
      ctx.check('R6-9', !ids.includes(sent.outside), `message ${sent.outside} of an unsubscribed channel not delivered`, reply);
    },
  }),
];
