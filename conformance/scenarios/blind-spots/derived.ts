import { scenario } from '../../src/dsl.js';
import { asArray, asObject, listedFor, ownChannel, sendTo, snapshotOf } from './support.js';

/**
 * Derived values checked against their source, and list order where the spec defines one, on a channel
 * the scenario creates (so the expected values are known exactly): subscriber_count against the
 * subscribers (§2.3), raw_content against the Markdown sent (§4.3), first_message_id against the first
 * message (§2.2), and a channel's topics most recent first with max_id the newest message (§4.11).
 */

const MARKDOWN = '**bold** and _slanted_ with `code`\n\n> quoted';

export default [
  scenario({
    id: 'blind-spots/subscriber-count-equals-subscribers',
    title:
      "a channel's subscriber_count equals the length of its subscribers, for a channel of three made during the run and every other subscription (from level 394; absent below)",
    rules: ['R2.3-8', 'R2.3-1'],
    requires: { roles: ['member', 'member_2', 'member_3'] },
    given: (ctx) => ownChannel(ctx, 'member', 'counted', { members: ['member_2', 'member_3'] }),
    when: (ctx) => snapshotOf(ctx, 'member', ['subscription'], { include_subscribers: true }),
    async then(ctx, res, ch) {
      const subs = asArray(res.body.subscriptions);
      const own = subs.find((s) => s.stream_id === ch.stream_id);
      const want = ['member', 'member_2', 'member_3'].map((r) => ctx.user(r as 'member').user_id).sort((a, b) => a - b);
      const got = Array.isArray(own?.subscribers) ? [...(own.subscribers as number[])].sort((a, b) => a - b) : own?.subscribers;
      ctx.expectEqual('R2.3-1', got, want, 'subscribers of the channel made for three users', res);
      const listed = await listedFor(ctx, 'member', ch.stream_id);
      if (!ctx.has('channel_subscriber_count_field')) {
        // Below level 394 channel objects carry no subscriber_count (reference get-streams): none may show one.
        const shown = subs.filter((s) => Object.hasOwn(s, 'subscriber_count')).map((s) => s.name);
        ctx.check('R2.3-8', shown.length === 0, `subscriptions with a subscriber_count below its level: ${JSON.stringify(shown)}`, res);
        ctx.check(
          'R2.3-8',
          listed.channel !== undefined && !Object.hasOwn(listed.channel, 'subscriber_count'),
          `GET /streams lists the channel without subscriber_count below its level: ${JSON.stringify(listed.channel?.subscriber_count)}`,
          listed.reply,
        );
        return;
      }
      ctx.expectEqual('R2.3-8', own?.subscriber_count, 3, 'subscriber_count of the channel made for three users', res);
      // Other channels change while the suite runs in parallel: §2.3 allows a drift of one after a race.
      const off = subs.filter(
        (s) =>
          Array.isArray(s.subscribers) &&
          s.subscribers.length > 0 &&
          !(typeof s.subscriber_count === 'number' && Math.abs(s.subscriber_count - s.subscribers.length) <= 1),
      );
      ctx.check(
        'R2.3-8',
        off.length === 0,
        `subscriptions whose subscriber_count is more than one off their subscribers: ${JSON.stringify(off.map((s) => [s.name, s.subscriber_count, asArray(s.subscribers).length]))}`,
        res,
      );
      ctx.expectEqual('R2.3-8', listed.channel?.subscriber_count, 3, 'subscriber_count in GET /streams', listed.reply);
    },
  }),

  scenario({
    id: 'blind-spots/raw-content-is-the-markdown-sent',
    title: "a fetched message's raw_content is exactly the Markdown that was sent, and its content the HTML rendering",
    rules: ['R4.3-4', 'R2.5-3', 'R1-13'],
    requires: { roles: ['member'] },
    async given(ctx) {
      const ch = await ownChannel(ctx, 'member', 'markdown');
      return sendTo(ctx, 'member', ch.stream_id, 'markdown', MARKDOWN);
    },
    when: (ctx, id) => ctx.as('member').get(`/api/v1/messages/${id}`),
    async then(ctx, res, id) {
      ctx.expectEqual('R4.3-4', res.body.raw_content, MARKDOWN, 'raw_content (the Markdown sent)', res);
      const html = asObject(res.body.message).content;
      ctx.check(
        'R2.5-3',
        typeof html === 'string' && html !== MARKDOWN && /<strong>bold<\/strong>/.test(html),
        `content with apply_markdown true is the rendering: ${JSON.stringify(html)?.slice(0, 120)}`,
        res,
      );
      ctx.check(
        'R1-13',
        typeof html === 'string' && /<code>code<\/code>/.test(html) && /<blockquote>/.test(html),
        'the rendering is HTML of the Markdown',
        res,
      );
      const raw = await ctx.as('member').get(`/api/v1/messages/${id}`, { apply_markdown: false });
      ctx.expectEqual('R2.5-3', asObject(raw.body.message).content, MARKDOWN, 'content with apply_markdown false', raw);
    },
  }),

  scenario({
    id: 'blind-spots/first-message-id-is-the-first-message',
    title: "a channel's first_message_id is null before any message and then the first message's ID (and does not move)",
    rules: ['R2.2-7'],
    requires: { roles: ['member'] },
    async given(ctx) {
      const ch = await ownChannel(ctx, 'member', 'first message');
      const before = await listedFor(ctx, 'member', ch.stream_id);
      const first = await sendTo(ctx, 'member', ch.stream_id, 'one', 'first');
      await sendTo(ctx, 'member', ch.stream_id, 'two', 'second');
      return { ch, before, first };
    },
    when: (ctx, g) => listedFor(ctx, 'member', g.ch.stream_id),
    then(ctx, after, g) {
      // A server may post its own notice into a new channel (the spec is silent on creation): then that stays first.
      const before = g.before.channel?.first_message_id;
      ctx.check(
        'R2.2-7',
        before === null || (typeof before === 'number' && before < g.first),
        `first_message_id before any message of the scenario: ${JSON.stringify(before)}`,
        g.before.reply,
      );
      ctx.expectEqual(
        'R2.2-7',
        after.channel?.first_message_id,
        before === null ? g.first : before,
        'first_message_id after two messages',
        after.reply,
      );
    },
  }),

  scenario({
    id: 'blind-spots/topics-most-recent-first',
    title: "a channel's topics come most recent first (by newest message, not by creation), each max_id its newest message",
    rules: ['R4.11-2'],
    requires: { roles: ['member'] },
    async given(ctx) {
      const ch = await ownChannel(ctx, 'member', 'ordered topics');
      const ids: Record<string, number> = {};
      for (const topic of ['alpha', 'beta', 'gamma', 'alpha']) ids[topic] = await sendTo(ctx, 'member', ch.stream_id, topic, topic);
      return { ch, ids };
    },
    when: (ctx, g) => ctx.as('member').get(`/api/v1/users/me/${g.ch.stream_id}/topics`),
    then(ctx, res, g) {
      ctx.expectSuccess('R4.11-2', res);
      // Only the scenario's topics: a server may have put a notice of its own in the new channel.
      const topics = asArray(res.body.topics)
        .filter((t) => typeof t.name === 'string' && Object.hasOwn(g.ids, t.name))
        .map((t) => [t.name, t.max_id]);
      ctx.expectEqual(
        'R4.11-2',
        topics,
        [
          ['alpha', g.ids.alpha],
          ['gamma', g.ids.gamma],
          ['beta', g.ids.beta],
        ],
        'topics (name, max_id), most recent first',
        res,
      );
    },
  }),
];
