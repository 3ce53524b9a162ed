import type { Params, Reply } from '../../src/client.js';
import { scenario, scenarios } from '../../src/dsl.js';
import { asObject } from '../shared.js';
import { HISTORY_NARROWS } from './history-narrows.js';
import { channelNarrow, channelWithMessages, history, idsOf, messageOf, sendTo } from './history-support.js';

/**
 * Message history (companion tier, area history): GET /messages with anchors, windows and narrows, and
 * who may read which history. Every scenario sends its own messages into a channel of its own (or a
 * direct message of its own) and reads only those, so it passes in any order beside any other.
 */

const window = scenario({
  id: 'companion/history/window-around-anchor',
  title: 'a window around an ID anchor holds num_before older, the anchor and num_after newer messages, ascending',
  rules: ['C.history-1', 'C.history-2', 'C.history-3'],
  requires: { roles: ['member'] },
  given: (ctx) => channelWithMessages(ctx, 'history window', 5),
  when: (ctx, g) =>
    history(ctx, 'member', { anchor: String(g.ids[2]), num_before: 1, num_after: 1, narrow: channelNarrow(g.channel.stream_id) }),
  then(ctx, res, g) {
    ctx.expectSuccess('C.history-1', res);
    ctx.expectEqual('C.history-1', idsOf(res), g.ids.slice(1, 4), 'the window of message IDs', res);
    ctx.expectEqual('C.history-2', res.body.found_anchor, true, 'found_anchor', res);
    ctx.expectEqual('C.history-2', res.body.anchor, g.ids[2], 'anchor', res);
    ctx.expectEqual(
      'C.history-3',
      [res.body.found_oldest, res.body.found_newest],
      [false, false],
      'found_oldest and found_newest inside the channel',
      res,
    );
  },
});

const ends = scenario({
  id: 'companion/history/newest-and-oldest',
  title: 'the anchors newest and oldest give the ends of a narrow, flagged found_newest / found_oldest',
  rules: ['C.history-3', 'C.history-4'],
  requires: { roles: ['member'] },
  given: (ctx) => channelWithMessages(ctx, 'history ends', 3),
  async when(ctx, g) {
    const narrow = channelNarrow(g.channel.stream_id);
    return {
      newest: await history(ctx, 'member', { anchor: 'newest', num_before: 10, narrow }),
      oldest: await history(ctx, 'member', { anchor: 'oldest', num_after: 2, narrow }),
    };
  },
  then(ctx, { newest, oldest }, g) {
    ctx.expectEqual('C.history-4', idsOf(newest), g.ids, 'newest: every message of the channel', newest);
    ctx.expectEqual(
      'C.history-3',
      [newest.body.found_newest, newest.body.found_oldest],
      [true, true],
      'newest with room to spare: both ends found',
      newest,
    );
    ctx.expectEqual('C.history-4', idsOf(oldest), g.ids.slice(0, 2), 'oldest: the first two', oldest);
    ctx.expectEqual(
      'C.history-3',
      [oldest.body.found_oldest, oldest.body.found_newest],
      [true, false],
      'oldest: found_oldest only',
      oldest,
    );
  },
});

const excluded = scenario({
  id: 'companion/history/include-anchor-false',
  title: 'include_anchor false leaves the anchor out of a one-sided window, and is refused inside a two-sided one',
  rules: ['C.history-5', 'C.history-6'],
  requires: { roles: ['member'] },
  given: (ctx) => channelWithMessages(ctx, 'history exclude', 3),
  async when(ctx, g) {
    const base = { anchor: String(g.ids[1]), include_anchor: false, narrow: channelNarrow(g.channel.stream_id) };
    return {
      before: await history(ctx, 'member', { ...base, num_before: 5 }),
      both: await history(ctx, 'member', { ...base, num_before: 1, num_after: 1 }),
    };
  },
  then(ctx, { before, both }, g) {
    ctx.expectEqual('C.history-5', idsOf(before), [g.ids[0]], 'messages before the excluded anchor', before);
    ctx.expectEqual('C.history-5', before.body.found_anchor, false, 'found_anchor with the anchor excluded', before);
    ctx.expectError('C.history-6', both, { status: 400, code: 'BAD_REQUEST' });
  },
});

const firstUnread = scenario({
  id: 'companion/history/first-unread',
  title: "first_unread starts at the oldest of another member's unread messages in the narrow",
  rules: ['C.history-7'],
  requires: { roles: ['member', 'member_2'] },
  given: (ctx) => channelWithMessages(ctx, 'history unread', 3, { members: ['member_2'] }),
  when: (ctx, g) => history(ctx, 'member_2', { anchor: 'first_unread', num_after: 5, narrow: channelNarrow(g.channel.stream_id) }),
  then(ctx, res, g) {
    ctx.expectEqual('C.history-7', res.body.anchor, g.ids[0], 'anchor: the first unread message', res);
    ctx.expectEqual('C.history-7', idsOf(res), g.ids, 'the window from the first unread message', res);
  },
});

const sharedHistory = scenario({
  id: 'companion/history/public-channel-history',
  title: 'a narrow to a public channel shows its history to a non-subscriber, flagged read and historical; without it they do not get it',
  rules: ['C.history-8', 'C.history-9'],
  requires: { roles: ['member', 'member_3'] },
  given: (ctx) => channelWithMessages(ctx, 'history shared', 2),
  async when(ctx, g) {
    return {
      narrowed: await history(ctx, 'member_3', { anchor: 'oldest', num_after: 10, narrow: channelNarrow(g.channel.stream_id) }),
      plain: await history(ctx, 'member_3', { anchor: String(g.ids[0]) }),
    };
  },
  then(ctx, { narrowed, plain }, g) {
    ctx.expectEqual('C.history-8', idsOf(narrowed), g.ids, 'the channel history for a non-subscriber', narrowed);
    const flags = asObject(messageOf(narrowed, g.ids[0]!)).flags;
    const ok = Array.isArray(flags) && flags.includes('read') && flags.includes('historical');
    ctx.check('C.history-8', ok, ok ? 'never-received message flagged read and historical' : `flags ${JSON.stringify(flags)}`, narrowed);
    ctx.expectEqual('C.history-9', idsOf(plain), [], 'the never-received message without a channel narrow', plain);
  },
});

const protectedHistory = scenario({
  id: 'companion/history/protected-history',
  title: 'a private channel with protected history hides from a new subscriber what was sent before they joined',
  rules: ['C.history-10'],
  requires: { roles: ['member', 'member_2'] },
  async given(ctx) {
    const { channel, topic, ids } = await channelWithMessages(ctx, 'history protected', 1, { inviteOnly: true });
    ctx.must(
      await ctx
        .as('member')
        .post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: [ctx.user('member_2').user_id] }),
      'add member_2',
    );
    const after = await sendTo(ctx, 'member', channel.stream_id, topic, 'after the newcomer joined');
    return { channel, before: ids[0]!, after };
  },
  when: (ctx, g) => history(ctx, 'member_2', { anchor: 'oldest', num_after: 10, narrow: channelNarrow(g.channel.stream_id) }),
  then(ctx, res, g) {
    ctx.expectEqual('C.history-10', idsOf(res), [g.after], 'what the newcomer reads of the channel', res);
  },
});

const guest = scenario({
  id: 'companion/history/guest-public-channel',
  title: 'a guest narrowing to a public channel they are not subscribed to gets none of it',
  rules: ['C.history-11'],
  requires: { roles: ['member', 'guest'] },
  given: (ctx) => channelWithMessages(ctx, 'history guest', 2),
  when: (ctx, g) => history(ctx, 'guest', { anchor: 'newest', num_before: 10, narrow: channelNarrow(g.channel.stream_id) }),
  then(ctx, res) {
    ctx.expectSuccess('C.history-11', res);
    ctx.expectEqual('C.history-11', idsOf(res), [], 'messages of an unsubscribed public channel for a guest', res);
  },
});

const ERRORS: { key: string; title: string; rule: string; params: Params; code: string }[] = [
  {
    key: 'unknown-operator',
    title: 'an unknown narrow operator',
    rule: 'C.history-12',
    params: { anchor: 'newest', narrow: [['no-such-operator', 'x']] },
    code: 'BAD_NARROW',
  },
  {
    key: 'unknown-channel',
    title: 'a narrow naming no channel',
    rule: 'C.history-12',
    params: { anchor: 'newest', narrow: [{ operator: 'channel', operand: 999_999_937 }] },
    code: 'BAD_NARROW',
  },
  {
    key: 'malformed-term',
    title: 'a narrow term that is neither an object nor a pair',
    rule: 'C.history-12',
    params: { anchor: 'newest', narrow: [[1, 2, 3]] },
    code: 'BAD_REQUEST',
  },
  {
    key: 'too-many',
    title: 'more than 5000 messages',
    rule: 'C.history-13',
    params: { anchor: 'newest', num_before: 2500, num_after: 2501 },
    code: 'BAD_REQUEST',
  },
  { key: 'missing-anchor', title: 'no anchor', rule: 'C.history-14', params: { num_before: 1 }, code: 'BAD_REQUEST' },
  {
    key: 'invalid-anchor',
    title: 'an anchor that is no ID or keyword',
    rule: 'C.history-14',
    params: { anchor: 'yesterday', num_before: 1 },
    code: 'BAD_REQUEST',
  },
];

const errors = scenarios(ERRORS, (row) =>
  scenario({
    id: `companion/history/error-${row.key}`,
    title: `${row.title} is refused with ${row.code}`,
    rules: [row.rule],
    requires: { roles: ['member'] },
    when: (ctx) => history(ctx, 'member', row.params),
    then(ctx, res) {
      ctx.expectError(row.rule, res, { status: 400, code: row.code });
      if (row.code === 'BAD_NARROW') ctx.check(row.rule, typeof res.body.desc === 'string', `desc: ${JSON.stringify(res.body.desc)}`, res);
    },
  }),
);

/** Reference get-messages: num_before and num_after are required unless message_ids is given. */
const windowSizesRequired = scenario<undefined, { none: Reply; noAfter: Reply }>({
  id: 'companion/history/window-sizes-required',
  title: 'GET /messages without message_ids and without num_before or num_after is refused with REQUEST_VARIABLE_MISSING',
  rules: ['C.history-19'],
  requires: { roles: ['member'] },
  when: async (ctx) => ({
    none: await ctx.as('member').get('/api/v1/messages', { anchor: 'newest' }),
    noAfter: await ctx.as('member').get('/api/v1/messages', { anchor: 'newest', num_before: 1 }),
  }),
  then(ctx, { none, noAfter }) {
    ctx.expectError('C.history-19', none, { status: 400, code: 'REQUEST_VARIABLE_MISSING', extra: { var_name: 'num_before' } });
    ctx.expectError('C.history-19', noAfter, { status: 400, code: 'REQUEST_VARIABLE_MISSING', extra: { var_name: 'num_after' } });
  },
});

export const HISTORY = [
  window,
  ends,
  excluded,
  firstUnread,
  sharedHistory,
  protectedHistory,
  guest,
  ...errors,
  windowSizesRequired,
  ...HISTORY_NARROWS,
];
