import { scenario, scenarios } from '../../src/dsl.js';
import { asObject } from '../shared.js';
import { channelNarrow, channelWithMessages, history, idsOf, messageOf, sendTo } from './history-support.js';

/**
 * Message history (companion tier, area history), part two: what the narrow operators match, direct
 * messages, and the content form. Each scenario sends its own messages and reads only those.
 */

export interface OperatorRow {
  key: string;
  title: string;
  /** The narrow beside the channel term, from the messages the scenario sent. */
  terms: (g: OperatorGiven) => unknown[];
  /** Which of the sent messages (0: member, topic A, "lighthouse"; 1: member_2, topic A; 2: member, topic B) it matches. */
  expected: number[];
}
export interface OperatorGiven {
  stream_id: number;
  topicA: string;
  topicB: string;
  ids: number[];
  member2: number;
}

const OPERATORS: OperatorRow[] = [
  {
    key: 'topic',
    title: 'topic, in another letter case',
    terms: (g) => [{ operator: 'topic', operand: g.topicA.toUpperCase() }],
    expected: [0, 1],
  },
  {
    key: 'negated-topic',
    title: 'a negated topic',
    terms: (g) => [{ operator: 'topic', operand: g.topicA, negated: true }],
    expected: [2],
  },
  { key: 'sender', title: 'sender by ID', terms: (g) => [{ operator: 'sender', operand: g.member2 }], expected: [1] },
  { key: 'search', title: 'search for a word in any case', terms: () => [{ operator: 'search', operand: 'LIGHTHOUSE' }], expected: [0] },
  { key: 'id', title: 'id', terms: (g) => [{ operator: 'id', operand: g.ids[2] }], expected: [2] },
  { key: 'legacy-pairs', title: 'legacy [operator, operand] pairs', terms: (g) => [['topic', g.topicB]], expected: [2] },
];

const operators = scenarios(OPERATORS, (row) =>
  scenario({
    id: `companion/history/operator-${row.key}`,
    title: `the ${row.title} narrow finds exactly its messages of the channel`,
    rules: ['C.history-15'],
    requires: { roles: ['member', 'member_2'] },
    async given(ctx): Promise<OperatorGiven> {
      const { channel, topic } = await channelWithMessages(ctx, `history op ${row.key}`, 0, { members: ['member_2'] });
      const topicB = ctx.unique(`history op ${row.key} other`);
      const ids = [
        await sendTo(ctx, 'member', channel.stream_id, topic, 'The lighthouse keeper waves'),
        await sendTo(ctx, 'member_2', channel.stream_id, topic, 'a reply without the word'),
        await sendTo(ctx, 'member', channel.stream_id, topicB, 'another conversation'),
      ];
      return { stream_id: channel.stream_id, topicA: topic, topicB, ids, member2: ctx.user('member_2').user_id };
    },
    when: (ctx, g) =>
      history(ctx, 'member', {
        anchor: 'oldest',
        num_after: 100,
        narrow: [{ operator: 'channel', operand: g.stream_id }, ...row.terms(g)],
      }),
    then(ctx, res, g) {
      ctx.expectEqual(
        'C.history-15',
        idsOf(res),
        row.expected.map((i) => g.ids[i]),
        `messages matching ${row.title}`,
        res,
      );
    },
  }),
);

const directMessages = scenario({
  id: 'companion/history/dm-narrow',
  title: 'a dm narrow gives its participants that conversation and an outsider nothing of it',
  rules: ['C.history-16', 'C.history-9'],
  requires: { roles: ['member', 'member_2', 'member_3'] },
  async given(ctx) {
    const res = ctx.must(
      await ctx
        .as('member')
        .post('/api/v1/messages', { type: 'direct', to: [ctx.user('member_2').user_id], content: ctx.unique('history dm') }),
      'send a direct message',
    );
    return ctx.need(res, 'id', 'integer');
  },
  async when(ctx, id) {
    const anchor = String(id);
    return {
      recipient: await history(ctx, 'member_2', { anchor, narrow: [{ operator: 'dm', operand: [ctx.user('member').user_id] }] }),
      sender: await history(ctx, 'member', { anchor, narrow: [{ operator: 'dm', operand: [ctx.user('member_2').user_id] }] }),
      outsider: await history(ctx, 'member_3', { anchor, narrow: [{ operator: 'dm', operand: [ctx.user('member').user_id] }] }),
      otherConversation: await history(ctx, 'member_2', { anchor, narrow: [{ operator: 'dm', operand: [ctx.user('member_3').user_id] }] }),
    };
  },
  then(ctx, r, id) {
    ctx.expectEqual('C.history-16', idsOf(r.recipient), [id], 'the recipient narrowed to the conversation', r.recipient);
    ctx.expectEqual('C.history-16', idsOf(r.sender), [id], 'the sender narrowed to the conversation', r.sender);
    ctx.expectEqual('C.history-9', idsOf(r.outsider), [], "an outsider narrowed to the sender's DMs", r.outsider);
    ctx.expectEqual('C.history-16', idsOf(r.otherConversation), [], 'the recipient narrowed to another conversation', r.otherConversation);
  },
});

const markdown = scenario({
  id: 'companion/history/apply-markdown-false',
  title: 'apply_markdown false returns the Markdown source of each message',
  rules: ['C.history-17'],
  requires: { roles: ['member'] },
  async given(ctx) {
    const { channel, topic } = await channelWithMessages(ctx, 'history markdown', 0);
    return { channel, id: await sendTo(ctx, 'member', channel.stream_id, topic, 'some **bold** words') };
  },
  when: (ctx, g) => history(ctx, 'member', { anchor: String(g.id), apply_markdown: false, narrow: channelNarrow(g.channel.stream_id) }),
  then(ctx, res, g) {
    const m = asObject(messageOf(res, g.id));
    ctx.expectEqual(
      'C.history-17',
      [m.content, m.content_type],
      ['some **bold** words', 'text/x-markdown'],
      'content and content_type',
      res,
    );
  },
});

const WEB_PUBLIC = { operator: 'channels', operand: 'web-public' };

const spectator = scenario({
  id: 'companion/history/spectator-web-public',
  title: 'without credentials a web-public narrow reads a web-public channel (where spectators are allowed); other narrows are refused',
  rules: ['C.history-18'],
  requires: { roles: ['owner'], channels: ['web_public'] },
  async given(ctx) {
    const channel = ctx.channel('web_public').stream_id;
    const topic = ctx.unique('history spectator');
    return { channel, topic, id: await sendTo(ctx, 'owner', channel, topic, 'for every spectator') };
  },
  async when(ctx, g) {
    const narrow = [WEB_PUBLIC, { operator: 'channel', operand: g.channel }, { operator: 'topic', operand: g.topic }];
    return {
      read: await ctx.anonymous.get('/api/v1/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow }),
      refused: await ctx.anonymous.get('/api/v1/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: narrow.slice(1) }),
    };
  },
  then(ctx, { read, refused }, g) {
    ctx.expectError('C.history-18', refused, { status: 401, code: 'UNAUTHORIZED' });
    if (!ctx.world.realm.spectator_access) {
      ctx.expectError('C.history-18', read, { status: 401, code: 'UNAUTHORIZED' });
      return;
    }
    ctx.expectEqual('C.history-18', idsOf(read), [g.id], 'the web-public message a spectator reads', read);
    ctx.expectEqual('C.history-18', asObject(messageOf(read, g.id)).flags, ['read'], "a spectator's flags", read);
  },
});

export const HISTORY_NARROWS = [...operators, directMessages, markdown, spectator];
