import type { Scenario } from '../../src/dsl.js';
import { scenario } from '../../src/dsl.js';
import { send } from '../events/support.js';
import { asArray } from '../shared.js';
import { attachmentOf, pathOf, subscriberOf, uploadText } from './live-support.js';

/**
 * Companion tier, area live: uploads and attachments (rules C.live-15 … C.live-20). Every file a scenario
 * uploads is deleted afterwards; a scenario that sends a message runs in a realm of its own on the mock.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const LIVE_UPLOADS: Scenario<any, any>[] = [
  scenario({
    id: 'companion/live/upload-read-back',
    title: 'an uploaded file is served to its uploader byte for byte',
    rules: ['C.live-15'],
    requires: { roles: ['member'] },
    given: (ctx) => uploadText(ctx, 'member', 'conformance bytes ✓'),
    when: (ctx, up) => ctx.as('member').get(pathOf(up.url)),
    then(ctx, file) {
      ctx.expectEqual(
        'C.live-15',
        { status: file.status, text: file.text },
        { status: 200, text: 'conformance bytes ✓' },
        'the served file',
      );
    },
  }),
  scenario({
    id: 'companion/live/upload-private-until-shared',
    title: 'a file nobody was shown is refused without credentials and to another user',
    rules: ['C.live-16'],
    requires: { roles: ['member', 'member_2'] },
    given: (ctx) => uploadText(ctx, 'member', 'not yet shared'),
    async when(ctx, up) {
      return { anonymous: await ctx.anonymous.get(pathOf(up.url)), other: await ctx.as('member_2').get(pathOf(up.url)) };
    },
    then(ctx, r) {
      ctx.expectEqual('C.live-16', r.anonymous.status, 401, 'status without credentials', r.anonymous);
      ctx.check('C.live-16', r.other.status === 403 || r.other.status === 404, `status for another user: ${r.other.status}`, r.other);
      ctx.check('C.live-16', !r.other.text.includes('not yet shared'), 'the other user did not get the bytes', r.other);
    },
  }),
  scenario({
    id: 'companion/live/upload-claimed-by-message',
    title: 'a channel message referencing a file opens it to subscribers and is listed on the attachment',
    rules: ['C.live-17', 'C.live-18'],
    requires: { roles: ['member'], channels: ['public'] },
    isolated: true,
    async given(ctx) {
      return { up: await uploadText(ctx, 'member', 'shared plan'), reader: subscriberOf(ctx, 'public', 'member') };
    },
    async when(ctx, g) {
      const url = g.up.url;
      const id = await send(ctx, 'member', {
        type: 'stream',
        to: ctx.channel('public').stream_id,
        topic: ctx.unique('file'),
        content: `[plan](${url})`,
      });
      return { id, file: await ctx.as(g.reader).get(pathOf(url)) };
    },
    async then(ctx, r, g) {
      ctx.expectEqual(
        'C.live-17',
        { status: r.file.status, text: r.file.text },
        { status: 200, text: 'shared plan' },
        'the file as a subscriber reads it',
      );
      const attachment = await attachmentOf(ctx, 'member', g.up.url);
      ctx.expectEqual('C.live-18', attachment?.size, Buffer.byteLength('shared plan'), 'the attachment’s size');
      ctx.check(
        'C.live-18',
        typeof attachment?.name === 'string' && attachment.name !== '',
        `the attachment’s name ${JSON.stringify(attachment?.name)}`,
      );
      ctx.check(
        'C.live-18',
        asArray(attachment?.messages).some((m) => m.id === r.id),
        `the attachment lists message ${r.id}: ${JSON.stringify(attachment?.messages)}`,
      );
    },
  }),
  scenario({
    id: 'companion/live/attachment-delete',
    title: 'only the owner deletes an attachment; afterwards it is unlisted and no longer served',
    rules: ['C.live-19'],
    requires: { roles: ['member', 'member_2'] },
    given: (ctx) => uploadText(ctx, 'member', 'short-lived'),
    async when(ctx, up) {
      const foreign = await ctx.as('member_2').delete(`/api/v1/attachments/${up.id}`);
      const own = await ctx.as('member').delete(`/api/v1/attachments/${up.id}`);
      return { foreign, own, file: await ctx.as('member').get(pathOf(up.url)) };
    },
    async then(ctx, r, up) {
      ctx.expectError('C.live-19', r.foreign, { status: 400, code: 'BAD_REQUEST' });
      ctx.expectSuccess('C.live-19', r.own);
      ctx.expectEqual('C.live-19', await attachmentOf(ctx, 'member', up.url), undefined, 'the deleted attachment in the list');
      ctx.check('C.live-19', r.file.status === 404 && !r.file.text.includes('short-lived'), `the URL answers ${r.file.status}`, r.file);
    },
  }),
  scenario({
    id: 'companion/live/upload-without-file',
    title: 'an upload without a file is refused',
    rules: ['C.live-20'],
    requires: { roles: ['member'] },
    when: (ctx) => ctx.as('member').upload('/api/v1/user_uploads', [], { note: 'no file' }),
    then: (ctx, reply) => void ctx.expectError('C.live-20', reply, { status: 400, code: 'BAD_REQUEST' }),
  }),
];
