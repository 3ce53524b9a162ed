import { SetupError } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import type { Reply } from '../../src/client.js';
import { snapshotOf } from './support.js';

/**
 * Spec §4.15 include_can_access_content ("Channels with content access", default false) and §3 / §2.4
 * (a channel folder is archived or not: is_archived), both read without changing anything.
 */

const ids = (res: Reply): number[] => ((res.body.streams ?? []) as { stream_id: number }[]).map((s) => s.stream_id);

/**
 * member_3 is subscribed to the private "shared" channel (content access through the subscription) and
 * may read any public channel; with include_public and include_subscribed off, only the new flag can
 * bring them into the answer.
 */
const contentAccess = scenario<Reply, Reply>({
  id: 'coverage/streams-include-can-access-content',
  title: 'include_can_access_content lists the channels whose content the caller may read',
  rules: ['R4.15-10'],
  requires: { roles: ['member_3'], channels: ['public', 'private_shared'] },
  async given(ctx) {
    if (!(ctx.channel('private_shared').subscribers ?? []).includes('member_3')) throw new SetupError('world file: member_3 must be subscribed to private_shared');
    return ctx.must(await ctx.as('member_3').get('/api/v1/streams', { include_public: false, include_subscribed: false }), 'list streams without the flag');
  },
  when: (ctx) => ctx.as('member_3').get('/api/v1/streams', { include_public: false, include_subscribed: false, include_can_access_content: true }),
  then(ctx, res, without) {
    ctx.expectSuccess('R4.15-10', res);
    const got = ids(res);
    for (const kind of ['public', 'private_shared'] as const) {
      const id = ctx.channel(kind).stream_id;
      ctx.check('R4.15-10', got.includes(id), `the ${kind} channel (${id}) is listed with the flag (got ${got.join(', ')})`, res);
    }
    const priv = ctx.channel('private_shared').stream_id;
    ctx.check('R4.15-10', !ids(without).includes(priv), `without the flag (default false) the private channel is not listed`, without);
  },
});

const foldersArchived = scenario({
  id: 'coverage/channel-folders-carry-is-archived',
  title: "register's channel_folders carry each folder's archived state (is_archived)",
  rules: ['R3-6'],
  // Folders came at level 389 (channel_folders): an older server has none to show.
  requires: { roles: ['member'], level: { from: 'channel_folders' } },
  when: async (ctx) => (await snapshotOf(ctx, 'member', ['channel_folders'])).body,
  then(ctx, body) {
    const folders = body.channel_folders as Record<string, unknown>[] | undefined;
    if (!Array.isArray(folders) || folders.length === 0) throw new SetupError('the realm has no channel folder');
    for (const f of folders) ctx.check('R3-6', typeof f.is_archived === 'boolean', `folder ${JSON.stringify(f.id)} has is_archived ${JSON.stringify(f.is_archived)}`);
  },
});

export default [contentAccess, foldersArchived];
