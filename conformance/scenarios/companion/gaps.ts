import { scenario } from '../../src/dsl.js';
import { registerOnce, send } from '../events/support.js';
import { asArray, isInt } from '../shared.js';
import { ownMessage } from './edit-delete-support.js';
import { attachmentOf, pathOf, uploadText } from './live-support.js';

/**
 * Companion tier: behaviour the reference server documents beyond the basics of each area (rules
 * C.edit-delete-19 … 21, C.live-24, 25, C.history-20): the word-level history diff, topic policies that
 * follow a moved topic, the level-441 new-topic permission, temporary file URLs, attachments that follow
 * deletions, and the anchors GET /messages accepts. Every check here comes from the reference's
 * documentation (named in each message); each scenario works in a channel of its own.
 */

const REFERENCE = (page: string) => `(reference ${page})`;

export const COMPANION_GAPS = [
  scenario({
    id: 'companion/edit-delete/history-word-diff',
    title: 'the edit history marks the added word inside the new rendering',
    rules: ['C.edit-delete-19'],
    requires: { roles: ['member', 'member_2'] },
    async given(ctx) {
      const own = await ownMessage(ctx, 'word diff', 'original text');
      ctx.must(await ctx.as('member').patch(`/api/v1/messages/${own.id}`, { content: 'original new text' }), 'edit the message');
      return own;
    },
    when: (ctx, g) => ctx.as('member_2').get(`/api/v1/messages/${g.id}/history`),
    then(ctx, res) {
      ctx.expectSuccess('C.edit-delete-19', res);
      const diff = String(asArray(res.body.message_history)[1]?.content_html_diff ?? '');
      const added = '<span class="highlight_text_inserted">new</span>';
      ctx.check(
        'C.edit-delete-19',
        diff.includes(added),
        `content_html_diff marks the added word ${REFERENCE('get-message-history')}: ${diff}`,
        res,
      );
      ctx.check(
        'C.edit-delete-19',
        diff.includes('original ') && !diff.includes('highlight_text_deleted'),
        `content_html_diff leaves the unchanged words unmarked and deletes nothing ${REFERENCE('get-message-history')}: ${diff}`,
        res,
      );
    },
  }),
  scenario({
    id: 'companion/edit-delete/move-carries-topic-policy',
    title: 'moving a whole topic takes the follow policy with it',
    rules: ['C.edit-delete-20'],
    requires: { roles: ['member', 'member_2'] },
    async given(ctx) {
      const own = await ownMessage(ctx, 'policy move');
      const follow = { stream_id: own.channel.stream_id, topic: own.topic, visibility_policy: 3 };
      ctx.must(await ctx.as('member_2').post('/api/v1/user_topics', follow), 'follow the topic');
      const newTopic = ctx.unique('policy moved');
      ctx.defer(() =>
        ctx.as('member_2').post('/api/v1/user_topics', { stream_id: own.channel.stream_id, topic: newTopic, visibility_policy: 0 }),
      );
      return { ...own, newTopic };
    },
    async when(ctx, g) {
      const moved = await ctx.as('member').patch(`/api/v1/messages/${g.id}`, {
        topic: g.newTopic,
        propagate_mode: 'change_all',
        send_notification_to_old_thread: false,
        send_notification_to_new_thread: false,
      });
      return { moved, snapshot: await registerOnce(ctx, ctx.as('member_2'), { fetch_event_types: ['user_topic'] }) };
    },
    then(ctx, r, g) {
      ctx.expectSuccess('C.edit-delete-20', r.moved);
      const mine = asArray(r.snapshot.body.user_topics).filter((t) => t.stream_id === g.channel.stream_id);
      ctx.expectEqual(
        'C.edit-delete-20',
        mine.map((t) => [t.topic_name, t.visibility_policy]),
        [[g.newTopic, 3]],
        `member_2's policies in the channel after the move ${REFERENCE('update-message, move-content-to-another-topic')}`,
        r.snapshot,
      );
    },
  }),
  scenario({
    id: 'companion/edit-delete/new-topic-needs-group',
    title: "starting a topic needs the channel's can_create_topic_group from level 441, posting rights below it",
    rules: ['C.edit-delete-21'],
    requires: { roles: ['member', 'member_2', 'administrator'] },
    async given(ctx) {
      const own = await ownMessage(ctx, 'new topics');
      // Below level 441 the reference does not know the setting (it lists it as ignored): posting rights suffice.
      const only = { new: { direct_members: [ctx.user('member').user_id], direct_subgroups: [] } };
      ctx.must(
        await ctx.as('administrator').patch(`/api/v1/streams/${own.channel.stream_id}`, { can_create_topic_group: JSON.stringify(only) }),
        'restrict new topics to the member',
      );
      return own;
    },
    async when(ctx, g) {
      const to = g.channel.stream_id;
      return {
        fresh: await ctx.as('member_2').post('/api/v1/messages', { type: 'stream', to, topic: ctx.unique('fresh'), content: 'x' }),
        existing: await ctx.as('member_2').post('/api/v1/messages', { type: 'stream', to, topic: g.topic, content: 'y' }),
      };
    },
    then(ctx, r) {
      if (ctx.has('can_create_topic_group'))
        ctx.expectError('C.edit-delete-21', r.fresh, {
          status: 400,
          code: 'BAD_REQUEST',
          msg: 'You do not have permission to create new topics in this channel.',
        });
      else ctx.expectSuccess('C.edit-delete-21', r.fresh);
      ctx.expectSuccess('C.edit-delete-21', r.existing);
    },
  }),
  scenario({
    id: 'companion/live/temporary-url',
    title: 'a temporary URL serves the file without credentials',
    rules: ['C.live-24'],
    requires: { roles: ['member'] },
    given: (ctx) => uploadText(ctx, 'member', 'temporary bytes'),
    async when(ctx, up) {
      const answer = await ctx.as('member').get(`/api/v1${pathOf(up.url)}`);
      const url = typeof answer.body.url === 'string' ? answer.body.url : '';
      return { answer, url, file: url.includes('/user_uploads/') ? await ctx.anonymous.get(pathOf(url)) : undefined };
    },
    then(ctx, r) {
      ctx.expectSuccess('C.live-24', r.answer);
      ctx.check(
        'C.live-24',
        r.url.includes('/user_uploads/temporary/'),
        `the temporary URL ${JSON.stringify(r.url)} ${REFERENCE('get-file-temporary-url')}`,
        r.answer,
      );
      ctx.expectEqual(
        'C.live-24',
        { status: r.file?.status, text: r.file?.text },
        { status: 200, text: 'temporary bytes' },
        'the file at the temporary URL, without credentials',
      );
    },
  }),
  scenario({
    id: 'companion/live/attachment-follows-deletion',
    title: "deleting a message takes it off its attachment's messages",
    rules: ['C.live-25'],
    requires: { roles: ['member', 'member_2'] },
    async given(ctx) {
      const up = await uploadText(ctx, 'member', 'soon unreferenced');
      const own = await ownMessage(ctx, 'attachment deletion', `see ${up.url}`);
      const kept = await send(ctx, 'member', { type: 'stream', to: own.channel.stream_id, topic: own.topic, content: `again ${up.url}` });
      return { up, id: own.id, kept };
    },
    async when(ctx, g) {
      return ctx.as('member').delete(`/api/v1/messages/${g.id}`);
    },
    async then(ctx, res, g) {
      ctx.expectSuccess('C.live-25', res);
      const ids = asArray((await attachmentOf(ctx, 'member', g.up.url))?.messages).map((m) => m.id);
      ctx.check('C.live-25', ids.every(isInt), `message IDs of the attachment: ${JSON.stringify(ids)}`);
      ctx.expectEqual('C.live-25', ids, [g.kept], `the attachment's messages after the deletion ${REFERENCE('get-attachments')}`);
    },
  }),
  scenario({
    id: 'companion/history/date-anchor-refused',
    title: 'GET /messages refuses an anchor it does not document, the proposed date anchor included',
    rules: ['C.history-20'],
    requires: { roles: ['member'] },
    when: (ctx) =>
      ctx.as('member').get('/api/v1/messages', { anchor: 'date', anchor_date: '2024-01-02T00:00:00.000Z', num_before: 1, num_after: 0 }),
    then: (ctx, res) => void ctx.expectError('C.history-20', res, { status: 400, code: 'BAD_REQUEST', msg: 'Invalid anchor' }),
  }),
];
