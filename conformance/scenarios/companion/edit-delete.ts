import { scenario } from '../../src/dsl.js';
import { eventsUntil, openQueue, send } from '../events/support.js';
import { asArray, isInt, MISSING_ID, ownChannel } from '../shared.js';
import { EDIT_DELETE_SETTINGS } from './edit-delete-settings.js';
import { EDIT_DELETE_WILDCARDS } from './edit-delete-wildcards.js';
import { fetchRaw, message, movedBelowLevel, ownMessage } from './edit-delete-support.js';

/**
 * Companion tier, area edit-delete (rules conformance/rules/companion/edit-delete.json): editing, moving
 * and deleting messages and their edit history, through PATCH/DELETE /messages/{id} and GET
 * /messages/{id}/history. They also cover the spec rules no spec operation can reach: R2.5-8
 * (last_edit_timestamp), R2.5-9 (last_moved_timestamp) and R4.21-15 (delete_message one at a time).
 * Each scenario works in a channel of its own, with messages it sends, so any order and any server do.
 */

export const EDIT_DELETE = [
  ...EDIT_DELETE_SETTINGS,
  ...EDIT_DELETE_WILDCARDS,
  scenario({
    id: 'companion/edit-delete/content-edit',
    title: 'the sender edits the content: new content, last_edit_timestamp appears, edit_history keeps the old text',
    rules: ['C.edit-delete-1', 'C.edit-delete-2', 'R2.5-8'],
    requires: { roles: ['member', 'member_2'] },
    async given(ctx) {
      const own = await ownMessage(ctx, 'edit content');
      const before = message(ctx.must(await fetchRaw(ctx, 'member_2', own.id), 'fetch the new message'));
      return { ...own, before };
    },
    when: (ctx, g) => ctx.as('member').patch(`/api/v1/messages/${g.id}`, { content: 'edited text' }),
    async then(ctx, res, g) {
      ctx.check(
        'R2.5-8',
        !Object.hasOwn(g.before, 'last_edit_timestamp'),
        Object.hasOwn(g.before, 'last_edit_timestamp')
          ? 'a message never edited has last_edit_timestamp'
          : 'a message never edited has no last_edit_timestamp',
      );
      ctx.expectSuccess('C.edit-delete-1', res);
      const after = await fetchRaw(ctx, 'member_2', g.id);
      const m = message(after);
      ctx.expectEqual('C.edit-delete-1', m.content, 'edited text', 'content after the edit', after);
      ctx.check(
        'R2.5-8',
        isInt(m.last_edit_timestamp),
        `last_edit_timestamp after a content edit: ${JSON.stringify(m.last_edit_timestamp)}`,
        after,
      );
      const entry = asArray(m.edit_history)[0] ?? {};
      ctx.expectEqual(
        'C.edit-delete-2',
        [entry.user_id, entry.prev_content],
        [ctx.user('member').user_id, 'original text'],
        'newest edit_history entry (editor, previous content)',
        after,
      );
      ctx.check('C.edit-delete-2', isInt(entry.timestamp), `edit_history entry timestamp: ${JSON.stringify(entry.timestamp)}`, after);
    },
  }),
  scenario({
    id: 'companion/edit-delete/content-edit-by-other-refused',
    title: "another member may not edit the sender's content",
    rules: ['C.edit-delete-3'],
    requires: { roles: ['member', 'member_2'] },
    given: (ctx) => ownMessage(ctx, 'edit refused'),
    when: (ctx, g) => ctx.as('member_2').patch(`/api/v1/messages/${g.id}`, { content: 'hijacked' }),
    async then(ctx, res, g) {
      ctx.expectError('C.edit-delete-3', res, { status: 400, code: 'BAD_REQUEST' });
      const after = await fetchRaw(ctx, 'member', g.id);
      ctx.expectEqual('C.edit-delete-3', message(after).content, 'original text', 'content after the refused edit', after);
    },
  }),
  scenario({
    id: 'companion/edit-delete/move-topic-change-all',
    title: 'change_all moves every message of the topic and sets last_moved_timestamp (from level 365; absent below)',
    rules: ['C.edit-delete-4', 'R2.5-9'],
    requires: { roles: ['member', 'member_2'] },
    async given(ctx) {
      const own = await ownMessage(ctx, 'move all');
      const second = await send(ctx, 'member_2', { type: 'stream', to: own.channel.stream_id, topic: own.topic, content: 'reply' });
      const before = message(ctx.must(await fetchRaw(ctx, 'member', own.id), 'fetch before the move'));
      return { ...own, second, before, newTopic: ctx.unique('moved all') };
    },
    when: (ctx, g) =>
      ctx
        .as('member')
        .patch(`/api/v1/messages/${g.id}`, { topic: g.newTopic, propagate_mode: 'change_all', send_notification_to_new_thread: false }),
    async then(ctx, res, g) {
      ctx.check('R2.5-9', !Object.hasOwn(g.before, 'last_moved_timestamp'), 'a message never moved has no last_moved_timestamp');
      ctx.expectSuccess('C.edit-delete-4', res);
      for (const id of [g.id, g.second]) {
        const after = await fetchRaw(ctx, 'member', id);
        const m = message(after);
        ctx.expectEqual('C.edit-delete-4', m.subject, g.newTopic, `topic of message ${id} after change_all`, after);
        if (ctx.has('message_last_moved_timestamp_field')) {
          ctx.check(
            'R2.5-9',
            isInt(m.last_moved_timestamp),
            `last_moved_timestamp of a moved message: ${JSON.stringify(m.last_moved_timestamp)}`,
            after,
          );
          // Only from level 365 does last_edit_timestamp mean content edits alone (reference get-messages).
          ctx.check('R2.5-8', !Object.hasOwn(m, 'last_edit_timestamp'), 'a move alone leaves last_edit_timestamp absent', after);
        } else movedBelowLevel(ctx, after);
      }
    },
  }),
  scenario({
    id: 'companion/edit-delete/move-topic-change-one',
    title: 'change_one moves only the message named',
    rules: ['C.edit-delete-5'],
    requires: { roles: ['member', 'member_2'] },
    async given(ctx) {
      const own = await ownMessage(ctx, 'move one');
      const second = await send(ctx, 'member', { type: 'stream', to: own.channel.stream_id, topic: own.topic, content: 'stays' });
      return { ...own, second, newTopic: ctx.unique('moved one') };
    },
    when: (ctx, g) => ctx.as('member').patch(`/api/v1/messages/${g.id}`, { topic: g.newTopic, send_notification_to_new_thread: false }),
    async then(ctx, res, g) {
      ctx.expectSuccess('C.edit-delete-5', res);
      const moved = await fetchRaw(ctx, 'member', g.id);
      const stayed = await fetchRaw(ctx, 'member', g.second);
      ctx.expectEqual(
        'C.edit-delete-5',
        [message(moved).subject, message(stayed).subject],
        [g.newTopic, g.topic],
        'topics of the named and the later message',
        stayed,
      );
    },
  }),
  scenario({
    id: 'companion/edit-delete/resolve-is-not-a-move',
    title: 'resolving a topic (the ✔ prefix) does not set last_moved_timestamp',
    rules: ['R2.5-9'],
    requires: { roles: ['member', 'member_2'] },
    given: (ctx) => ownMessage(ctx, 'resolve'),
    when: (ctx, g) => ctx.as('member').patch(`/api/v1/messages/${g.id}`, { topic: `✔ ${g.topic}`, propagate_mode: 'change_all' }),
    async then(ctx, res, g) {
      ctx.must(res, 'resolve the topic');
      const after = await fetchRaw(ctx, 'member', g.id);
      const m = message(after);
      ctx.expectEqual('R2.5-9', m.subject, `✔ ${g.topic}`, 'topic after resolving', after);
      ctx.check(
        'R2.5-9',
        !Object.hasOwn(m, 'last_moved_timestamp'),
        Object.hasOwn(m, 'last_moved_timestamp') ? 'resolving set last_moved_timestamp' : 'resolving left last_moved_timestamp absent',
        after,
      );
    },
  }),
  scenario({
    id: 'companion/edit-delete/nothing-to-change',
    title: 'an edit naming no content, topic or channel is refused',
    rules: ['C.edit-delete-6'],
    requires: { roles: ['member', 'member_2'] },
    given: (ctx) => ownMessage(ctx, 'nothing'),
    when: (ctx, g) => ctx.as('member').patch(`/api/v1/messages/${g.id}`, {}),
    then: (ctx, res) => void ctx.expectError('C.edit-delete-6', res, { status: 400, code: 'BAD_REQUEST' }),
  }),
  scenario({
    id: 'companion/edit-delete/update-message-event',
    title: 'a content edit reaches a subscriber as update_message with the old and new content',
    rules: ['C.edit-delete-7'],
    requires: { roles: ['member', 'member_2'] },
    async given(ctx) {
      const own = await ownMessage(ctx, 'edit event');
      return { ...own, queue: await openQueue(ctx, 'member_2', { event_types: ['update_message'], apply_markdown: false }) };
    },
    when: (ctx, g) => ctx.as('member').patch(`/api/v1/messages/${g.id}`, { content: 'second version' }),
    async then(ctx, res, g) {
      ctx.expectSuccess('C.edit-delete-7', res);
      const { reply, found } = await eventsUntil(g.queue, (e) => e.type === 'update_message' && e.message_id === g.id);
      ctx.check(
        'C.edit-delete-7',
        found !== undefined,
        found ? 'member_2 received update_message' : 'member_2 received no update_message for the edit',
        reply,
      );
      if (found) {
        ctx.expectEqual(
          'C.edit-delete-7',
          [found.orig_content, found.content],
          ['original text', 'second version'],
          'orig_content and content',
          reply,
        );
        ctx.expectEqual('C.edit-delete-7', found.message_ids, [g.id], 'message_ids', reply);
      }
    },
  }),
  scenario({
    id: 'companion/edit-delete/move-channel',
    title: 'stream_id moves a message to another channel',
    rules: ['C.edit-delete-8'],
    requires: { roles: ['member', 'member_2', 'administrator'] },
    async given(ctx) {
      const own = await ownMessage(ctx, 'move channel');
      const target = await ownChannel(ctx, 'member', 'move target', { members: ['member_2', 'administrator'] });
      return { ...own, target };
    },
    when: (ctx, g) =>
      ctx.as('administrator').patch(`/api/v1/messages/${g.id}`, { stream_id: g.target.stream_id, send_notification_to_new_thread: false }),
    async then(ctx, res, g) {
      ctx.expectSuccess('C.edit-delete-8', res);
      const after = await fetchRaw(ctx, 'member_2', g.id);
      ctx.expectEqual('C.edit-delete-8', message(after).stream_id, g.target.stream_id, 'channel of the moved message', after);
      if (ctx.has('message_last_moved_timestamp_field'))
        ctx.check('R2.5-9', isInt(message(after).last_moved_timestamp), 'a channel move sets last_moved_timestamp', after);
      else movedBelowLevel(ctx, after);
    },
  }),
  scenario({
    id: 'companion/edit-delete/delete-own',
    title: 'the sender deletes their message; it can no longer be fetched',
    rules: ['C.edit-delete-9'],
    requires: { roles: ['member', 'member_2'] },
    given: (ctx) => ownMessage(ctx, 'delete own'),
    when: (ctx, g) => ctx.as('member').delete(`/api/v1/messages/${g.id}`),
    async then(ctx, res, g) {
      ctx.expectSuccess('C.edit-delete-9', res);
      ctx.expectError('C.edit-delete-9', await fetchRaw(ctx, 'member', g.id), { status: 400, code: 'BAD_REQUEST' });
    },
  }),
  scenario({
    id: 'companion/edit-delete/delete-other-refused',
    title: "a member may not delete another member's message",
    rules: ['C.edit-delete-10'],
    requires: { roles: ['member', 'member_2'] },
    given: (ctx) => ownMessage(ctx, 'delete refused'),
    when: (ctx, g) => ctx.as('member_2').delete(`/api/v1/messages/${g.id}`),
    async then(ctx, res, g) {
      ctx.expectError('C.edit-delete-10', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.expectSuccess('C.edit-delete-10', await fetchRaw(ctx, 'member', g.id));
    },
  }),
  scenario({
    id: 'companion/edit-delete/delete-event-per-capability',
    title: 'delete_message names one message_id without bulk_message_deletion, and message_ids with it',
    rules: ['R4.21-15', 'C.edit-delete-11'],
    requires: { roles: ['member', 'member_2'] },
    async given(ctx) {
      const own = await ownMessage(ctx, 'delete event');
      const single = await openQueue(ctx, 'member_2', { event_types: ['delete_message'] });
      const bulk = await openQueue(ctx, 'member_2', {
        event_types: ['delete_message'],
        client_capabilities: { bulk_message_deletion: true },
      });
      return { ...own, single, bulk };
    },
    when: (ctx, g) => ctx.as('member').delete(`/api/v1/messages/${g.id}`),
    async then(ctx, res, g) {
      ctx.expectSuccess('C.edit-delete-11', res);
      // Only this scenario's deletion: on a shared server the queues also see other scenarios' deletions.
      const ours = (e: Record<string, unknown>) =>
        e.type === 'delete_message' && (e.message_id === g.id || (Array.isArray(e.message_ids) && e.message_ids.includes(g.id)));
      const one = await eventsUntil(g.single, ours);
      const many = await eventsUntil(g.bulk, ours);
      const a: Record<string, unknown> = one.found ?? {};
      const b: Record<string, unknown> = many.found ?? {};
      ctx.expectEqual(
        'R4.21-15',
        [a.message_id, Object.hasOwn(a, 'message_ids')],
        [g.id, false],
        'without bulk_message_deletion: message_id, no message_ids',
        one.reply,
      );
      ctx.expectEqual('C.edit-delete-11', b.message_ids, [g.id], 'with bulk_message_deletion: message_ids', many.reply);
      ctx.expectEqual(
        'C.edit-delete-11',
        [a.message_type, a.stream_id, a.topic],
        ['stream', g.channel.stream_id, g.topic],
        'message_type, stream_id, topic',
        one.reply,
      );
    },
  }),
  scenario({
    id: 'companion/edit-delete/history-versions',
    title: 'the edit history lists the original and each edit, oldest first',
    rules: ['C.edit-delete-12'],
    requires: { roles: ['member', 'member_2'] },
    async given(ctx) {
      const own = await ownMessage(ctx, 'history', 'version one');
      ctx.must(await ctx.as('member').patch(`/api/v1/messages/${own.id}`, { content: 'version two' }), 'edit the message');
      return own;
    },
    when: (ctx, g) => ctx.as('member_2').get(`/api/v1/messages/${g.id}/history`),
    then(ctx, res) {
      ctx.expectSuccess('C.edit-delete-12', res);
      const history = asArray(res.body.message_history);
      ctx.expectEqual(
        'C.edit-delete-12',
        history.map((h) => h.content),
        ['version one', 'version two'],
        'contents of the snapshots',
        res,
      );
      ctx.expectEqual('C.edit-delete-12', history[1]?.prev_content, 'version one', 'prev_content of the edit', res);
    },
  }),
  scenario({
    id: 'companion/edit-delete/missing-message',
    title: 'editing or deleting a message that does not exist is refused',
    rules: ['C.edit-delete-13'],
    requires: { roles: ['member'] },
    async when(ctx) {
      return {
        edit: await ctx.as('member').patch(`/api/v1/messages/${MISSING_ID}`, { content: 'x' }),
        remove: await ctx.as('member').delete(`/api/v1/messages/${MISSING_ID}`),
      };
    },
    then(ctx, { edit, remove }) {
      ctx.expectError('C.edit-delete-13', edit, { status: 400, code: 'BAD_REQUEST' });
      ctx.expectError('C.edit-delete-13', remove, { status: 400, code: 'BAD_REQUEST' });
    },
  }),
];
