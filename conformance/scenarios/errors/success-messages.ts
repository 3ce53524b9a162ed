import { SetupError } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import { asArray, asObject, expectFields, isInt, isStringArray } from './support.js';

/**
 * Success shapes of the message operations: §4.3 fetch (with the §2.5 fields), §4.20 render, §4.13
 * report (isolated: it posts in the moderation channel), §4.9 mark a topic as read (isolated: it
 * sends messages to have something unread).
 */

const REACTION_TYPES = ['unicode_emoji', 'realm_emoji', 'service_extra_emoji'];

export default [
  scenario({
    id: 'errors/fetch-channel-message',
    title: 'fetching a channel message returns message with the §2.5 fields and raw_content',
    rules: [
      'R4.3-4',
      'R4.3-1',
      'R2.5-1',
      'R2.5-2',
      'R2.5-3',
      'R2.5-4',
      'R2.5-5',
      'R2.5-6',
      'R2.5-7',
      'R2.5-10',
      'R2.5-11',
      'R2.5-12',
      'R2.5-13',
      'R2.5-14',
      'R2.5-15',
      'R1-5',
    ],
    when: (ctx) => ctx.as('member').get(`/api/v1/messages/${ctx.world.messages.channel.id}`),
    then: (ctx, res) => {
      const w = ctx.world.messages.channel;
      ctx.expectSuccess('R4.3-4', res);
      ctx.check('R4.3-4', typeof res.body.raw_content === 'string', 'raw_content is a string', res);
      const m = asObject(res.body.message);
      expectFields(
        ctx,
        'R4.3-4',
        m,
        {
          id: 'integer',
          type: 'string',
          content: 'string',
          content_type: 'string',
          client: 'string',
          is_me_message: 'boolean',
          reactions: 'array',
          recipient_id: 'integer',
          sender_email: 'string',
          sender_full_name: 'string',
          sender_id: 'integer',
          sender_realm_str: 'string',
          subject: 'string',
          submessages: 'array',
          timestamp: 'integer',
          topic_links: 'array',
          flags: 'string[]',
        },
        'message',
        res,
      );
      ctx.expectEqual('R4.3-1', m.id, w.id, 'the message ID (path)', res);
      ctx.expectEqual('R2.5-1', isInt(m.id), true, 'id is an integer', res);
      ctx.expectEqual('R2.5-2', m.type, 'stream', 'type of a channel message', res);
      ctx.expectEqual('R2.5-3', typeof m.content === 'string' && m.content.includes('<'), true, 'content is HTML by default', res);
      ctx.expectEqual('R2.5-4', m.content_type, 'text/html', 'content_type by default', res);
      ctx.check('R2.5-5', m.avatar_url === null || typeof m.avatar_url === 'string', `avatar_url ${JSON.stringify(m.avatar_url)}`, res);
      ctx.check(
        'R2.5-6',
        typeof m.display_recipient === 'string',
        `display_recipient of a channel message: ${JSON.stringify(m.display_recipient)}`,
        res,
      );
      const history = m.edit_history === undefined ? [] : asArray(m.edit_history);
      ctx.check(
        'R2.5-7',
        history.every((e) => (e.user_id === null || isInt(e.user_id)) && isInt(e.timestamp)),
        `edit_history entries: ${JSON.stringify(m.edit_history)?.slice(0, 200)}`,
        res,
      );
      ctx.check(
        'R2.5-10',
        asArray(m.reactions).every(
          (r) =>
            typeof r.emoji_name === 'string' &&
            typeof r.emoji_code === 'string' &&
            REACTION_TYPES.includes(r.reaction_type as string) &&
            isInt(r.user_id),
        ),
        'reactions entries',
        res,
      );
      ctx.expectEqual('R2.5-11', m.stream_id, w.stream_id, 'stream_id', res);
      ctx.expectEqual('R2.5-12', m.subject, w.topic, 'subject (the topic)', res);
      ctx.check(
        'R2.5-13',
        asArray(m.submessages).every(
          (s) =>
            typeof s.msg_type === 'string' && typeof s.content === 'string' && isInt(s.message_id) && isInt(s.sender_id) && isInt(s.id),
        ),
        'submessages entries',
        res,
      );
      ctx.check(
        'R2.5-14',
        asArray(m.topic_links).every((l) => typeof l.text === 'string' && typeof l.url === 'string'),
        'topic_links entries',
        res,
      );
      ctx.check('R2.5-15', isStringArray(m.flags), `flags ${JSON.stringify(m.flags)}`, res);
      ctx.check(
        'R1-5',
        isInt(m.timestamp) && (m.last_edit_timestamp === undefined || isInt(m.last_edit_timestamp)),
        'timestamps are integers',
        res,
      );
    },
  }),
  scenario({
    id: 'errors/fetch-message-raw',
    title: 'fetching a message with apply_markdown false returns the raw Markdown as text/x-markdown',
    rules: ['R4.3-2', 'R2.5-3', 'R2.5-4'],
    when: (ctx) => ctx.as('member').get(`/api/v1/messages/${ctx.world.messages.channel.id}`, { apply_markdown: false }),
    then: (ctx, res) => {
      ctx.expectSuccess('R4.3-2', res);
      const m = asObject(res.body.message);
      ctx.expectEqual('R2.5-4', m.content_type, 'text/x-markdown', 'content_type with apply_markdown false', res);
      ctx.expectEqual('R2.5-3', m.content, res.body.raw_content, 'content equals the raw Markdown', res);
    },
  }),
  scenario({
    id: 'errors/fetch-direct-message',
    title: 'a fetched direct message has type private, an empty subject and a list of users as display_recipient',
    rules: ['R2.5-2', 'R2.5-6', 'R2.5-11', 'R2.5-12'],
    when: (ctx) => ctx.as('member').get(`/api/v1/messages/${ctx.world.messages.direct.id}`),
    then: (ctx, res) => {
      ctx.expectSuccess('R2.5-2', res);
      const m = asObject(res.body.message);
      ctx.expectEqual('R2.5-2', m.type, 'private', 'type of a direct message', res);
      ctx.expectEqual('R2.5-12', m.subject, '', 'subject of a direct message', res);
      ctx.check('R2.5-11', m.stream_id === undefined, `stream_id of a direct message: ${JSON.stringify(m.stream_id)}`, res);
      const users = asArray(m.display_recipient);
      const wellFormed =
        Array.isArray(m.display_recipient) &&
        users.every(
          (u) => isInt(u.id) && typeof u.email === 'string' && typeof u.full_name === 'string' && typeof u.is_mirror_dummy === 'boolean',
        );
      ctx.check('R2.5-6', wellFormed, `display_recipient ${JSON.stringify(m.display_recipient)?.slice(0, 200)}`, res);
      const ids = users.map((u) => u.id as number).sort((a, b) => a - b);
      ctx.expectEqual(
        'R2.5-6',
        ids,
        [...ctx.world.messages.direct.user_ids].sort((a, b) => a - b),
        'the users of display_recipient',
        res,
      );
    },
  }),
  scenario({
    id: 'errors/render',
    title: 'rendering Markdown returns rendered, an HTML string',
    rules: ['R4.20-1', 'R4.20-2', 'R1-13'],
    when: (ctx) => ctx.as('member').post('/api/v1/messages/render', { content: '**bold**' }),
    then: (ctx, res) => {
      ctx.expectSuccess('R4.20-2', res);
      ctx.check('R4.20-2', typeof res.body.rendered === 'string', `rendered ${JSON.stringify(res.body.rendered)}`, res);
      ctx.check(
        'R1-13',
        typeof res.body.rendered === 'string' && res.body.rendered.includes('<strong>bold</strong>'),
        'Markdown bold became HTML',
        res,
      );
      ctx.check('R4.20-1', res.body.result === 'success', 'content accepted as a string', res);
    },
  }),
  scenario({
    id: 'errors/render-without-content',
    title: 'rendering without content (required) is refused',
    rules: ['R4.20-1'],
    when: (ctx) => ctx.as('member').post('/api/v1/messages/render', {}),
    then: (ctx, res) => {
      ctx.check(
        'R4.20-1',
        res.body.result === 'error' && res.status >= 400 && res.status < 500,
        `HTTP ${res.status}, ${res.text.slice(0, 120)}`,
        res,
      );
    },
  }),
  scenario({
    id: 'errors/report-message',
    title: 'a report with a 1000-character explanation succeeds and posts to the moderation request channel',
    rules: ['R4.13-1', 'R4.13-2', 'R4.13-3', 'R4.13-4', 'R8-2'],
    isolated: true,
    requires: { roles: ['member', 'moderator'], channels: ['moderation'] },
    async given(ctx) {
      const res = ctx.must(
        await ctx.as('moderator').get(`/api/v1/users/me/${ctx.channel('moderation').stream_id}/topics`),
        'list moderation topics',
      );
      return Math.max(0, ...asArray(res.body.topics).map((t) => (isInt(t.max_id) ? t.max_id : 0)));
    },
    when: (ctx) =>
      ctx
        .as('member')
        .post(`/api/v1/messages/${ctx.world.messages.channel.id}/report`, { report_type: 'other', description: 'd'.repeat(1000) }),
    async then(ctx, res, before) {
      ctx.expectSuccess('R4.13-3', res);
      ctx.check('R8-2', res.body.result === 'success', 'a description of 1000 characters (the client limit) is accepted', res);
      ctx.check('R4.13-4', res.body.result === 'success', 'report_type other with a non-empty description is accepted', res);
      ctx.check('R4.13-2', res.body.result === 'success', 'the message ID from the path was reported', res);
      const after = ctx.must(
        await ctx.as('moderator').get(`/api/v1/users/me/${ctx.channel('moderation').stream_id}/topics`),
        'list moderation topics',
      );
      const newest = Math.max(0, ...asArray(after.body.topics).map((t) => (isInt(t.max_id) ? t.max_id : 0)));
      ctx.check('R4.13-1', newest > before, `newest message in the moderation channel: ${newest} (was ${before})`, after);
    },
  }),
  scenario({
    id: 'errors/report-other-without-description',
    title: 'a report of type other without a description is BAD_REQUEST',
    rules: ['R4.13-4', 'R7-3'],
    when: (ctx) => ctx.as('member').post(`/api/v1/messages/${ctx.world.messages.channel.id}/report`, { report_type: 'other' }),
    then: (ctx, res) => {
      ctx.expectError('R4.13-4', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.check('R7-3', res.body.code === 'BAD_REQUEST', 'invalid input is BAD_REQUEST', res);
    },
  }),
  scenario({
    id: 'errors/mark-topic-as-read',
    title: 'marking a topic as read succeeds and leaves no unread message in that topic',
    rules: ['R4.9-1', 'R4.9-2'],
    isolated: true,
    requires: { roles: ['member', 'member_2'] },
    async given(ctx) {
      // Two messages from someone else in a fresh topic: unread for the member until marked.
      const t = { stream_id: ctx.channel('public').stream_id, topic: ctx.unique('unread news').slice(0, 50) };
      for (const n of [1, 2])
        ctx.must(
          await ctx.as('member_2').post('/api/v1/messages', { type: 'stream', to: t.stream_id, topic: t.topic, content: `news ${n}` }),
          'send a message',
        );
      const res = await ctx.snapshot('member', { event_types: ['message', 'update_message_flags'] });
      const unread = asArray(asObject(res.body.unread_msgs).streams).some((s) => s.stream_id === t.stream_id && s.topic === t.topic);
      if (!unread) throw new SetupError('the new messages are not unread for the member');
      return t;
    },
    when: (ctx, t) => ctx.as('member').post('/api/v1/mark_topic_as_read', { stream_id: t.stream_id, topic_name: t.topic }),
    async then(ctx, res, t) {
      ctx.expectSuccess('R4.9-1', res);
      const after = await ctx.snapshot('member', { event_types: ['message', 'update_message_flags'] });
      const left = asArray(asObject(after.body.unread_msgs).streams).filter((s) => s.stream_id === t.stream_id && s.topic === t.topic);
      ctx.expectEqual('R4.9-2', left, [], 'unread entries of the topic afterwards', after);
    },
  }),
];
