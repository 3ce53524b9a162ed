import { SetupError, type ScenarioContext } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import type { WorldChannelKind, WorldRole } from '../../src/world.js';
import { R } from './rules.js';
import { eventsOf, eventsUntil, fetchNow, messageEvent, openQueue, send, sendToChannel, type Event } from './support.js';

/**
 * Which message events a queue receives and how they look (spec §4.21 apply_markdown,
 * all_public_streams and narrow; §6.6: a narrow only filters what the user receives anyway, and a
 * bot receives channel messages only for channels it is subscribed to). Each scenario sends
 * messages, so each runs in a realm of its own on the mock.
 */

const HUMANS: WorldRole[] = ['member', 'member_2', 'member_3', 'moderator', 'administrator', 'owner'];
const messagesOnly = { event_types: ['message'] };

/** A human (not a guest) outside the channel's subscribers, and one inside it. */
function outsiderAndInsider(ctx: ScenarioContext, kind: WorldChannelKind): { outsider: WorldRole; insider: WorldRole } {
  const subs = ctx.channel(kind).subscribers;
  const outsider = HUMANS.find((r) => ctx.world.credentials[r] && !subs.includes(r) && ctx.channel('public').subscribers.includes(r));
  const insider = HUMANS.find((r) => ctx.world.credentials[r] && subs.includes(r) && r !== outsider);
  if (!outsider || !insider) throw new SetupError(`the world file has no user outside ${kind} (but in public) and one inside it`);
  return { outsider, insider };
}

const channelMessageIn = (streamId: number) => (e: Event) =>
  e.type === 'message' && (e.message as { stream_id?: number }).stream_id === streamId;
const content = (e: Event | undefined) => e?.message as { content?: unknown; content_type?: unknown } | undefined;

export default [
  scenario({
    id: 'events/apply-markdown-in-message-events',
    title: 'message events carry Markdown by default and HTML with apply_markdown true',
    rules: [R.applyMarkdown, R.messageContent, R.messageContentType],
    requires: { roles: ['member', 'member_2'], channels: ['public'] },
    isolated: true,
    async given(ctx) {
      return {
        raw: await openQueue(ctx, 'member', messagesOnly),
        html: await openQueue(ctx, 'member', { ...messagesOnly, apply_markdown: true }),
      };
    },
    when: (ctx) => sendToChannel(ctx, 'member_2', ctx.channel('public').stream_id, 'some **bold** words'),
    async then(ctx, id, q) {
      const raw = content((await eventsUntil(q.raw, messageEvent(id))).found);
      ctx.expectEqual(R.applyMarkdown, raw?.content, 'some **bold** words', 'content without apply_markdown');
      ctx.expectEqual(R.messageContentType, raw?.content_type, 'text/x-markdown', 'content_type without apply_markdown');
      const html = content((await eventsUntil(q.html, messageEvent(id))).found);
      ctx.check(
        R.messageContent,
        typeof html?.content === 'string' && html.content.includes('<strong>bold</strong>'),
        `content with apply_markdown: ${JSON.stringify(html?.content)}`,
      );
      ctx.expectEqual(R.messageContentType, html?.content_type, 'text/html', 'content_type with apply_markdown');
    },
  }),
  scenario({
    id: 'events/all-public-streams',
    title: 'all_public_streams brings messages of public channels the user is not subscribed to; without it they do not come',
    rules: [R.allPublicStreams],
    requires: { channels: ['public', 'public_2'] },
    isolated: true,
    async given(ctx) {
      const who = outsiderAndInsider(ctx, 'public_2');
      return {
        ...who,
        all: await openQueue(ctx, who.outsider, { ...messagesOnly, all_public_streams: true }),
        plain: await openQueue(ctx, who.outsider, messagesOnly),
      };
    },
    async when(ctx, g) {
      const unsubscribed = await sendToChannel(ctx, g.insider, ctx.channel('public_2').stream_id, 'to a channel the reader is not in');
      const marker = await sendToChannel(ctx, g.insider, ctx.channel('public').stream_id, 'marker in a subscribed channel');
      return { unsubscribed, marker };
    },
    async then(ctx, sent, g) {
      const all = await eventsUntil(g.all, messageEvent(sent.unsubscribed));
      ctx.check(R.allPublicStreams, all.found !== undefined, 'with all_public_streams the message arrived', all.reply);
      const plain = await eventsUntil(g.plain, messageEvent(sent.marker));
      ctx.check(
        R.allPublicStreams,
        plain.found !== undefined && !plain.events.some(messageEvent(sent.unsubscribed)),
        'without it only the subscribed channel’s message arrived',
        plain.reply,
      );
    },
  }),
  scenario({
    id: 'events/narrow-direct-messages',
    title: 'a queue narrowed to direct messages receives them and not channel messages',
    rules: [R.narrow, R.queueLimited],
    requires: { roles: ['member', 'member_2'], channels: ['public'] },
    isolated: true,
    async given(ctx) {
      return {
        narrowed: await openQueue(ctx, 'member', { ...messagesOnly, narrow: [['is', 'dm']] }),
        plain: await openQueue(ctx, 'member', messagesOnly),
      };
    },
    async when(ctx) {
      const channel = await sendToChannel(ctx, 'member_2', ctx.channel('public').stream_id, 'a channel message');
      const direct = await send(ctx, 'member_2', { type: 'direct', to: [ctx.user('member').user_id], content: 'a direct message' });
      return { channel, direct };
    },
    async then(ctx, sent, q) {
      const plain = await eventsUntil(q.plain, messageEvent(sent.direct));
      ctx.check(R.narrow, plain.events.some(messageEvent(sent.channel)), 'the unnarrowed queue got the channel message', plain.reply);
      const narrowed = await eventsUntil(q.narrowed, messageEvent(sent.direct));
      ctx.check(R.narrow, narrowed.found !== undefined, 'the narrowed queue got the direct message', narrowed.reply);
      ctx.check(
        R.queueLimited,
        !narrowed.events.some(messageEvent(sent.channel)),
        'the narrowed queue did not get the channel message',
        narrowed.reply,
      );
    },
  }),
  scenario({
    id: 'events/narrow-does-not-widen',
    title: 'a narrow naming a channel the user is not subscribed to brings none of its messages',
    rules: [R.narrowOnlyReceived],
    requires: { channels: ['public', 'public_2'] },
    isolated: true,
    async given(ctx) {
      const who = outsiderAndInsider(ctx, 'public_2');
      const narrow = [['channel', ctx.channel('public_2').name]];
      return {
        ...who,
        narrowed: await openQueue(ctx, who.outsider, { ...messagesOnly, narrow }),
        plain: await openQueue(ctx, who.outsider, messagesOnly),
      };
    },
    async when(ctx, g) {
      const unsubscribed = await sendToChannel(ctx, g.insider, ctx.channel('public_2').stream_id, 'in the narrowed channel');
      const marker = await send(ctx, g.insider, { type: 'direct', to: [ctx.user(g.outsider).user_id], content: 'marker' });
      return { unsubscribed, marker };
    },
    async then(ctx, sent, g) {
      // The marker reached the unnarrowed queue, so the channel message would have reached the narrowed one by now.
      const plain = await eventsUntil(g.plain, messageEvent(sent.marker));
      ctx.check(R.narrowOnlyReceived, plain.found !== undefined, 'the marker direct message arrived', plain.reply);
      const narrowed = await fetchNow(g.narrowed);
      ctx.check(
        R.narrowOnlyReceived,
        narrowed.status === 200 && !eventsOf(narrowed).some(messageEvent(sent.unsubscribed)),
        'the narrowed queue did not get the unsubscribed channel’s message',
        narrowed,
      );
    },
  }),
  scenario({
    id: 'events/bot-only-subscribed-channels',
    title: 'a bot receives channel messages only for channels it is subscribed to, all_public_streams notwithstanding',
    rules: [R.botSubscribedOnly, R.allPublicStreams],
    requires: { roles: ['bot'], channels: ['public', 'public_2'] },
    isolated: true,
    async given(ctx) {
      const subscribed = (['public', 'public_2'] as const).find((k) => ctx.channel(k).subscribers.includes('bot'));
      const other = (['public', 'public_2'] as const).find((k) => !ctx.channel(k).subscribers.includes('bot'));
      if (!subscribed || !other) throw new SetupError('the bot must be subscribed to exactly one of public and public_2');
      const sender = HUMANS.find(
        (r) => ctx.world.credentials[r] && ctx.channel(subscribed).subscribers.includes(r) && ctx.channel(other).subscribers.includes(r),
      );
      if (!sender) throw new SetupError('no user of the world file is subscribed to both public channels');
      return {
        subscribed: ctx.channel(subscribed).stream_id,
        other: ctx.channel(other).stream_id,
        sender,
        plain: await openQueue(ctx, 'bot', messagesOnly),
        all: await openQueue(ctx, 'bot', { ...messagesOnly, all_public_streams: true }),
      };
    },
    async when(ctx, g) {
      const unsubscribed = await sendToChannel(ctx, g.sender, g.other, 'not for the bot');
      const subscribed = await sendToChannel(ctx, g.sender, g.subscribed, 'for the bot');
      return { unsubscribed, subscribed };
    },
    async then(ctx, sent, g) {
      for (const [label, q, rule] of [
        ['plain', g.plain, R.botSubscribedOnly],
        ['all_public_streams', g.all, R.allPublicStreams],
      ] as const) {
        const got = await eventsUntil(q, messageEvent(sent.subscribed));
        ctx.check(R.botSubscribedOnly, got.found !== undefined, `${label} queue: the subscribed channel's message arrived`, got.reply);
        ctx.check(rule, !got.events.some(channelMessageIn(g.other)), `${label} queue: nothing from the unsubscribed channel`, got.reply);
      }
    },
  }),
];
