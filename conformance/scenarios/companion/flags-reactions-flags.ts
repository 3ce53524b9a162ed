import { scenario, scenarios } from '../../src/dsl.js';
import { asObject, MISSING_ID, type Obj } from '../shared.js';
import { eventsIn, flagsOf, ownMessages, queueFor, RULE, unreadOf, viewOf } from './flags-reactions-support.js';

/**
 * Companion tier, area flags-reactions: message flags (reference update-message-flags,
 * update-message-flags-for-narrow, mark-stream-as-read, mark-all-as-read and the update_message_flags
 * event). The member writes in a channel of the scenario's own; member_2 reads and flags.
 */
const REQUIRES = { roles: ['member' as const, 'member_2' as const] };
const flagsPath = '/api/v1/messages/flags';

export const FLAG_SCENARIOS = [
  scenario({
    id: 'companion/flags-reactions/star',
    title: 'starring changes the caller’s flags only, and unstarring takes it back',
    rules: [RULE(6)],
    requires: REQUIRES,
    given: (ctx) => ownMessages(ctx, 'starring', 2),
    async when(ctx, { ids }) {
      const starred = await ctx.as('member_2').post(flagsPath, { messages: [ids[0]], op: 'add', flag: 'starred' });
      return {
        starred,
        view: await viewOf(ctx, 'member_2', ids[0]!),
        other: await viewOf(ctx, 'member_2', ids[1]!),
        author: await viewOf(ctx, 'member', ids[0]!),
      };
    },
    async then(ctx, { starred, view, other, author }, { ids }) {
      ctx.expectSuccess(RULE(6), starred);
      ctx.check(
        RULE(6),
        flagsOf(view.message).includes('starred'),
        `member_2's flags ${JSON.stringify(flagsOf(view.message))}`,
        view.reply,
      );
      ctx.check(
        RULE(6),
        !flagsOf(other.message).includes('starred'),
        `the message not named has flags ${JSON.stringify(flagsOf(other.message))}`,
        other.reply,
      );
      ctx.check(
        RULE(6),
        !flagsOf(author.message).includes('starred'),
        `the author's flags ${JSON.stringify(flagsOf(author.message))}`,
        author.reply,
      );
      ctx.expectSuccess(RULE(6), await ctx.as('member_2').post(flagsPath, { messages: [ids[0]], op: 'remove', flag: 'starred' }));
      const after = await viewOf(ctx, 'member_2', ids[0]!);
      ctx.check(
        RULE(6),
        !flagsOf(after.message).includes('starred'),
        `after unstarring: ${JSON.stringify(flagsOf(after.message))}`,
        after.reply,
      );
    },
  }),
  ...scenarios(
    [
      { key: 'unknown', flag: 'not_a_flag' },
      { key: 'mentioned', flag: 'mentioned' },
      { key: 'historical', flag: 'historical' },
    ],
    (row) =>
      scenario({
        id: `companion/flags-reactions/flag-refused-${row.key}`,
        title: `the flag ${row.flag} cannot be added by a user`,
        rules: [RULE(7)],
        requires: REQUIRES,
        given: (ctx) => ownMessages(ctx, `refused flag ${row.key}`),
        when: (ctx, { ids }) => ctx.as('member_2').post(flagsPath, { messages: [ids[0]], op: 'add', flag: row.flag }),
        async then(ctx, res, { ids }) {
          ctx.expectError(RULE(7), res, { status: 400, code: 'BAD_REQUEST' });
          const { reply, message } = await viewOf(ctx, 'member_2', ids[0]!);
          ctx.check(RULE(7), !flagsOf(message).includes(row.flag), `member_2's flags ${JSON.stringify(flagsOf(message))}`, reply);
        },
      }),
  ),
  scenario({
    id: 'companion/flags-reactions/unread-and-read',
    title: 'marking read and unread moves a message out of and back into unread_msgs, with events',
    rules: [RULE(8), RULE(9)],
    requires: REQUIRES,
    async given(ctx) {
      const setup = await ownMessages(ctx, 'unread state');
      return { ...setup, queue: await queueFor(ctx, 'member_2', ['update_message_flags']) };
    },
    async when(ctx, { ids }) {
      const read = await ctx.as('member_2').post(flagsPath, { messages: ids, op: 'add', flag: 'read' });
      const afterRead = await unreadOf(ctx, 'member_2');
      const unread = await ctx.as('member_2').post(flagsPath, { messages: ids, op: 'remove', flag: 'read' });
      return { read, afterRead, unread, afterUnread: await unreadOf(ctx, 'member_2') };
    },
    async then(ctx, { read, afterRead, unread, afterUnread }, { ids, streamId, queue }) {
      ctx.expectSuccess(RULE(9), read);
      ctx.expectSuccess(RULE(9), unread);
      const id = ids[0]!;
      ctx.check(
        RULE(9),
        !afterRead.ids.includes(id),
        `after marking read, unread_msgs ${afterRead.ids.includes(id) ? 'still lists' : 'no longer lists'} it`,
        afterRead.reply,
      );
      ctx.check(
        RULE(9),
        afterUnread.ids.includes(id),
        `after marking unread, unread_msgs ${afterUnread.ids.includes(id) ? 'lists' : 'does not list'} it`,
        afterUnread.reply,
      );
      // Only events about this scenario's message: member_2 flags other scenarios' messages meanwhile.
      const mine = (e: Obj) => Array.isArray(e.messages) && e.messages.includes(id);
      const { reply, events: all } = await eventsIn(queue, (e) => e.filter(mine).length >= 2);
      const events = all.filter(mine);
      const seen = events.map((e) => [e.type, e.op, e.flag, e.messages, e.all]);
      ctx.expectEqual(
        RULE(8),
        seen,
        [
          ['update_message_flags', 'add', 'read', [id], false],
          ['update_message_flags', 'remove', 'read', [id], false],
        ],
        'member_2’s flag events',
        reply,
      );
      const details = asObject(asObject(events[1]?.message_details)[String(id)]);
      ctx.expectEqual(RULE(8), [details.type, details.stream_id], ['stream', streamId], 'message_details of the message', reply);
    },
  }),
  scenario({
    id: 'companion/flags-reactions/mark-channel-read',
    title: 'marking a channel as read leaves none of its messages unread; an unknown channel is refused',
    rules: [RULE(10)],
    requires: REQUIRES,
    given: (ctx) => ownMessages(ctx, 'channel read', 2),
    async when(ctx, { streamId }) {
      const marked = await ctx.as('member_2').post('/api/v1/mark_stream_as_read', { stream_id: streamId });
      const unknown = await ctx.as('member_2').post('/api/v1/mark_stream_as_read', { stream_id: MISSING_ID });
      return { marked, unknown, after: await unreadOf(ctx, 'member_2') };
    },
    then(ctx, { marked, unknown, after }, { ids }) {
      ctx.expectSuccess(RULE(10), marked);
      ctx.expectError(RULE(10), unknown, { status: 400, code: 'BAD_REQUEST' });
      const left = ids.filter((id) => after.ids.includes(id));
      ctx.expectEqual(RULE(10), left, [], 'the channel’s messages still unread', after.reply);
    },
  }),
  scenario({
    id: 'companion/flags-reactions/mark-all-read',
    title: 'marking everything as read empties unread_msgs and sends one event with all true',
    rules: [RULE(11)],
    requires: REQUIRES,
    // Changes every unread message of member_2, which scenarios running beside it may be watching.
    serial: true,
    async given(ctx) {
      const setup = await ownMessages(ctx, 'all read');
      return { ...setup, queue: await queueFor(ctx, 'member_2', ['update_message_flags']) };
    },
    async when(ctx) {
      const marked = await ctx.as('member_2').post('/api/v1/mark_all_as_read');
      return { marked, after: await unreadOf(ctx, 'member_2') };
    },
    async then(ctx, { marked, after }, { queue }) {
      ctx.expectSuccess(RULE(11), marked);
      ctx.expectEqual(RULE(11), [after.count, after.ids], [0, []], 'unread count and messages', after.reply);
      const { reply, events } = await eventsIn(queue, (e) => e.some((x) => x.all === true));
      const all = events.filter((e) => e.type === 'update_message_flags' && e.flag === 'read' && e.op === 'add' && e.all === true);
      ctx.expectEqual(RULE(11), all.length, 1, 'update_message_flags events with all true', reply);
    },
  }),
  scenario({
    id: 'companion/flags-reactions/flags-for-narrow',
    title: 'flags for a narrow change the range of matching messages and count it',
    rules: [RULE(12)],
    requires: REQUIRES,
    async given(ctx) {
      const setup = await ownMessages(ctx, 'narrowed flags', 3);
      // Starred messages stay listed in register's starred_messages even once their channel is archived.
      ctx.defer(() => ctx.as('member_2').post('/api/v1/messages/flags', { messages: setup.ids, op: 'remove', flag: 'starred' }));
      return setup;
    },
    when: (ctx, { streamId }) =>
      ctx.as('member_2').post('/api/v1/messages/flags/narrow', {
        anchor: 'oldest',
        num_before: 0,
        num_after: 2,
        narrow: [{ operator: 'channel', operand: streamId }],
        op: 'add',
        flag: 'starred',
      }),
    async then(ctx, res, { ids }) {
      ctx.expectSuccess(RULE(12), res, { processed_count: 2, updated_count: 2, first_processed_id: ids[0], last_processed_id: ids[1] });
      const views = await Promise.all(ids.map((id) => viewOf(ctx, 'member_2', id)));
      const starred = views.map((v) => flagsOf(v.message).includes('starred'));
      ctx.expectEqual(RULE(12), starred, [true, true, false], 'starred, message by message', views[2]!.reply);
    },
  }),
];
