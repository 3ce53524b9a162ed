import { scenario, scenarios } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import { MISSING_ID, asArray, asObject, displayName, flagsOf, future, isInt, send } from './support.js';

/**
 * Operations on messages: fetch (§4.3), render (§4.20), report (§4.13), reminders (§4.19) and mark
 * topic as read (§4.9).
 */

const isStringList = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
const hasRead = (flags: unknown) => isStringList(flags) && (flags as string[]).includes('read');

/** Reports the server refuses with BAD_REQUEST (§4.13, §7): a bad report_type, or a message the reporter cannot see. */
const REPORT_REFUSALS: { key: string; title: string; rule: string; role: WorldRole; message: 'channel' | 'direct'; report_type: string }[] =
  [
    {
      key: 'other-needs-description',
      title: 'report_type other without a description is BAD_REQUEST',
      rule: 'R4.13-4',
      role: 'member',
      message: 'channel',
      report_type: 'other',
    },
    {
      key: 'unknown-type',
      title: 'a report_type outside the five values is BAD_REQUEST',
      rule: 'R4.13-3',
      role: 'member',
      message: 'channel',
      report_type: 'boring',
    },
    {
      key: 'invisible-message',
      title: 'reporting a direct message one cannot see is BAD_REQUEST',
      rule: 'R7-3',
      role: 'member_3',
      message: 'direct',
      report_type: 'spam',
    },
  ];

export default [
  scenario({
    id: 'topics/fetch-success-shape',
    title: 'fetching a channel message returns message (with its topic and channel) and raw_content',
    rules: ['R4.3-4', 'R4.3-1', 'R2.5-12', 'R2.5-11'],
    requires: { roles: ['member'] },
    when: (ctx) => ctx.as('member').get(`/api/v1/messages/${ctx.world.messages.channel.id}`),
    then(ctx, res) {
      const m = asObject(res.body.message);
      const want = ctx.world.messages.channel;
      ctx.expectSuccess('R4.3-4', res);
      ctx.check(
        'R4.3-4',
        typeof res.body.raw_content === 'string',
        `raw_content ${JSON.stringify(res.body.raw_content)?.slice(0, 60)}`,
        res,
      );
      ctx.expectEqual('R4.3-1', m.id, want.id, 'message id', res);
      ctx.expectEqual('R2.5-12', m.subject, want.topic, 'subject (the topic)', res);
      ctx.expectEqual('R2.5-11', m.stream_id, want.stream_id, 'stream_id', res);
    },
  }),

  scenario({
    id: 'topics/fetch-default-html',
    title: 'apply_markdown defaults to true: content is HTML',
    rules: ['R4.3-2', 'R2.5-3', 'R2.5-4'],
    requires: { roles: ['member'] },
    when: (ctx) => ctx.as('member').get(`/api/v1/messages/${ctx.world.messages.channel.id}`),
    then(ctx, res) {
      const m = asObject(res.body.message);
      ctx.expectSuccess('R4.3-2', res);
      ctx.expectEqual('R2.5-4', m.content_type, 'text/html', 'content_type', res);
      ctx.check(
        'R2.5-3',
        typeof m.content === 'string' && m.content.trimStart().startsWith('<'),
        `content ${JSON.stringify(m.content)?.slice(0, 60)} is HTML`,
        res,
      );
    },
  }),

  scenario({
    id: 'topics/fetch-raw-markdown',
    title: 'apply_markdown false returns the Markdown source as content',
    rules: ['R4.3-2', 'R2.5-3', 'R2.5-4'],
    requires: { roles: ['member'] },
    when: (ctx) => ctx.as('member').get(`/api/v1/messages/${ctx.world.messages.channel.id}`, { apply_markdown: false }),
    then(ctx, res) {
      const m = asObject(res.body.message);
      ctx.expectSuccess('R4.3-2', res);
      ctx.expectEqual('R2.5-4', m.content_type, 'text/x-markdown', 'content_type', res);
      ctx.expectEqual('R2.5-3', m.content, res.body.raw_content, 'content equals raw_content (the Markdown)', res);
    },
  }),

  scenario({
    id: 'topics/fetch-direct-message-topic',
    title: 'a fetched direct message has the empty string as subject',
    rules: ['R2.5-12', 'R4.3-4'],
    requires: { roles: ['member'] },
    when: (ctx) => ctx.as('member').get(`/api/v1/messages/${ctx.world.messages.direct.id}`),
    then(ctx, res) {
      const m = asObject(res.body.message);
      ctx.expectSuccess('R4.3-4', res);
      ctx.expectEqual('R2.5-12', [m.type, m.subject], ['private', ''], 'type and subject of the direct message', res);
    },
  }),

  scenario({
    id: 'topics/fetch-missing-message',
    title: 'fetching a message that does not exist is BAD_REQUEST',
    rules: ['R4.3-5', 'R7-3'],
    requires: { roles: ['member'] },
    when: (ctx) => ctx.as('member').get(`/api/v1/messages/${MISSING_ID}`),
    then(ctx, res) {
      ctx.expectError('R4.3-5', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.expectError('R7-3', res, { status: 400, code: 'BAD_REQUEST' });
    },
  }),

  scenario({
    id: 'topics/render-success',
    title: 'render returns the HTML of service-flavored Markdown',
    rules: ['R4.20-2', 'R1-13'],
    requires: { roles: ['member'] },
    when: (ctx) => ctx.as('member').post('/api/v1/messages/render', { content: 'some **bold** words' }),
    then(ctx, res) {
      const html = res.body.rendered;
      ctx.expectSuccess('R4.20-2', res);
      ctx.check('R1-13', typeof html === 'string' && html.includes('<strong>bold</strong>'), `rendered ${JSON.stringify(html)}`, res);
    },
  }),

  scenario({
    id: 'topics/render-needs-content',
    title: 'render without content is refused',
    rules: ['R4.20-1'],
    requires: { roles: ['member'] },
    when: (ctx) => ctx.as('member').post('/api/v1/messages/render', {}),
    then(ctx, res) {
      ctx.check(
        'R4.20-1',
        res.status === 400 && res.body.result === 'error' && typeof res.body.code === 'string',
        `HTTP ${res.status} ${JSON.stringify(res.body.code)} without content`,
        res,
      );
    },
  }),

  scenario({
    id: 'topics/report-posts-to-moderation-channel',
    title: 'reporting a message succeeds and posts a notification in the moderation request channel',
    rules: ['R4.13-1', 'R4.13-3'],
    requires: { roles: ['member', 'moderator'], channels: ['moderation'] },
    async given(ctx) {
      const topics = ctx.must(
        await ctx.as('moderator').get(`/api/v1/users/me/${ctx.channel('moderation').stream_id}/topics`),
        'topics of the moderation channel',
      );
      return Math.max(0, ...asArray(topics.body.topics).map((t) => (isInt(t.max_id) ? t.max_id : 0)));
    },
    when: (ctx) => ctx.as('member').post(`/api/v1/messages/${ctx.world.messages.channel.id}/report`, { report_type: 'spam' }),
    async then(ctx, res, before) {
      ctx.expectSuccess('R4.13-3', res);
      const topics = await ctx.as('moderator').get(`/api/v1/users/me/${ctx.channel('moderation').stream_id}/topics`);
      const newest = Math.max(0, ...asArray(topics.body.topics).map((t) => (isInt(t.max_id) ? t.max_id : 0)));
      ctx.check('R4.13-1', newest > before, `newest message of the moderation channel ${newest} (was ${before})`, topics);
    },
  }),

  ...scenarios(REPORT_REFUSALS, (row) =>
    scenario({
      id: `topics/report-${row.key}`,
      title: row.title,
      rules: [row.rule],
      requires: { roles: [row.role] },
      when: (ctx) =>
        ctx.as(row.role).post(`/api/v1/messages/${ctx.world.messages[row.message].id}/report`, { report_type: row.report_type }),
      then: (ctx, res) => void ctx.expectError(row.rule, res, { status: 400, code: 'BAD_REQUEST' }),
    }),
  ),

  scenario({
    id: 'topics/reminder-created',
    title: 'a reminder links the message for the current user and returns reminder_id',
    rules: ['R4.19-3', 'R4.19-1', 'R4.19-2'],
    requires: { roles: ['member'] },
    given: (ctx) => future(ctx),
    when: (ctx, at) =>
      ctx
        .as('member')
        .post('/api/v1/reminders', { message_id: ctx.world.messages.channel.id, scheduled_delivery_timestamp: at, note: 'look again' }),
    async then(ctx, res, at) {
      const id = res.body.reminder_id;
      if (isInt(id)) ctx.defer(() => ctx.as('member').delete(`/api/v1/reminders/${id}`));
      ctx.expectSuccess('R4.19-3', res);
      ctx.check('R4.19-3', isInt(id), `reminder_id ${JSON.stringify(id)}`, res);
      const list = ctx.must(await ctx.as('member').get('/api/v1/reminders'), 'list reminders');
      const item = asArray(list.body.reminders).find((r) => r.reminder_id === id);
      ctx.expectEqual('R4.19-1', item?.message_id, ctx.world.messages.channel.id, 'message_id of the listed reminder', list);
      ctx.expectEqual(
        'R4.19-2',
        [item?.scheduled_delivery_timestamp, item?.note],
        [at, 'look again'],
        'delivery time and note of the listed reminder',
        list,
      );
    },
  }),

  scenario({
    id: 'topics/reminder-invisible-message',
    title: 'a reminder for a message the caller cannot see is BAD_REQUEST',
    rules: ['R7-3'],
    requires: { roles: ['member_3'] },
    given: (ctx) => future(ctx),
    when: (ctx, at) =>
      ctx.as('member_3').post('/api/v1/reminders', { message_id: ctx.world.messages.direct.id, scheduled_delivery_timestamp: at }),
    then(ctx, res) {
      if (isInt(res.body.reminder_id)) ctx.defer(() => ctx.as('member_3').delete(`/api/v1/reminders/${res.body.reminder_id}`));
      ctx.expectError('R7-3', res, { status: 400, code: 'BAD_REQUEST' });
    },
  }),

  scenario({
    id: 'topics/mark-topic-read-only-that-topic',
    title: 'marking a topic as read marks its messages and leaves another topic unread',
    rules: ['R4.9-2', 'R4.9-1'],
    requires: { roles: ['member', 'member_2'], channels: ['public'] },
    async given(ctx) {
      const topic = ctx.unique('read me');
      const stream = ctx.channel('public').stream_id;
      return {
        topic,
        read: await send(ctx, 'member_2', stream, topic),
        other: await send(ctx, 'member_2', stream, ctx.unique('leave me')),
      };
    },
    when: (ctx, g) =>
      ctx.as('member').post('/api/v1/mark_topic_as_read', { stream_id: ctx.channel('public').stream_id, topic_name: g.topic }),
    async then(ctx, res, g) {
      ctx.expectSuccess('R4.9-1', res);
      const a = await flagsOf(ctx, 'member', g.read);
      ctx.check('R4.9-2', hasRead(a.flags), `flags of the topic's message ${JSON.stringify(a.flags)}`, a.reply);
      const b = await flagsOf(ctx, 'member', g.other);
      ctx.check('R4.9-2', !hasRead(b.flags), `flags of the other topic's message ${JSON.stringify(b.flags)}`, b.reply);
    },
  }),

  scenario({
    id: 'topics/mark-empty-topic-read-only-that-topic',
    title: 'marking the empty topic (named by its display name) as read leaves named topics unread',
    rules: ['R4.9-2', 'R1-7'],
    requires: { roles: ['member', 'member_2'], channels: ['public'], level: { from: 'empty_topic_name' } },
    async given(ctx) {
      const stream = ctx.channel('public').stream_id;
      return {
        name: await displayName(ctx),
        empty: await send(ctx, 'member_2', stream, ''),
        other: await send(ctx, 'member_2', stream, ctx.unique('named')),
      };
    },
    when: (ctx, g) =>
      ctx.as('member').post('/api/v1/mark_topic_as_read', { stream_id: ctx.channel('public').stream_id, topic_name: g.name }),
    async then(ctx, res, g) {
      ctx.expectSuccess('R4.9-2', res);
      const a = await flagsOf(ctx, 'member', g.empty);
      ctx.check('R1-7', hasRead(a.flags), `flags of the empty-topic message ${JSON.stringify(a.flags)}`, a.reply);
      const b = await flagsOf(ctx, 'member', g.other);
      ctx.check('R4.9-2', !hasRead(b.flags), `flags of the named topic's message ${JSON.stringify(b.flags)}`, b.reply);
    },
  }),

  scenario({
    id: 'topics/mark-topic-read-unknown-channel',
    title: 'marking a topic of a channel that does not exist as read is BAD_REQUEST',
    rules: ['R7-3'],
    requires: { roles: ['member'] },
    when: (ctx) => ctx.as('member').post('/api/v1/mark_topic_as_read', { stream_id: MISSING_ID, topic_name: 'anything' }),
    then: (ctx, res) => void ctx.expectError('R7-3', res, { status: 400, code: 'BAD_REQUEST' }),
  }),
];
