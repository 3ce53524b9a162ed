import type { ScenarioContext } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import { parsedCheck } from '../shared.js';
import { asArray, createSnippet, draftsWithContent, expectFields, future, isInt, isIntArray } from './support.js';

/**
 * Success shapes of the per-user resources: drafts (§4.6, fields of §2.6), navigation views (§4.12,
 * §2.9), saved snippets (§4.14, §2.10), reminders (§4.19, §2.12), and linkifiers (§4.18, §2.11;
 * realm-wide, so isolated). Each scenario asserts only about what it created, and removes it.
 */

/** Deletes the drafts a create call made. */
function dropDrafts(ctx: ScenarioContext, ids: unknown): void {
  if (isIntArray(ids)) for (const id of ids) ctx.defer(() => ctx.as('member').delete(`/api/v1/drafts/${id}`));
}

const views = async (ctx: ScenarioContext) =>
  asArray(ctx.must(await ctx.as('member_3').get('/api/v1/navigation_views'), 'list views').body.navigation_views);

export default [
  scenario({
    id: 'errors/drafts-create',
    title: 'creating a channel, a direct and an unaddressed draft returns one integer ID per draft',
    rules: ['R4.6-1', 'R4.6-2', 'R2.6-2', 'R2.6-3', 'R1-1'],
    requires: { roles: ['member', 'member_2'] },
    given: (ctx) => ctx.unique('batch'),
    async when(ctx, tag) {
      const res = await ctx.as('member').post('/api/v1/drafts', {
        drafts: [
          { type: 'stream', to: [ctx.channel('public').stream_id], topic: 'drafted', content: `${tag} channel` },
          { type: 'private', to: [ctx.user('member_2').user_id], topic: '', content: `${tag} direct` },
          { type: '', to: [], topic: '', content: `${tag} unaddressed` },
        ],
      });
      dropDrafts(ctx, res.body.ids);
      return res;
    },
    async then(ctx, res, tag) {
      ctx.expectSuccess('R4.6-2', res);
      const ids = res.body.ids;
      ctx.check('R4.6-2', isIntArray(ids) && ids.length === 3 && new Set(ids).size === 3, `ids ${JSON.stringify(ids)}`, res);
      const list = asArray(ctx.must(await ctx.as('member').get('/api/v1/drafts'), 'list drafts').body.drafts);
      const byContent = (suffix: string) => list.find((d) => d.content === `${tag} ${suffix}`);
      const [channel, direct, none] = [byContent('channel'), byContent('direct'), byContent('unaddressed')];
      // Drafts listed without their content cannot tell whether the list was read whole.
      parsedCheck(
        ctx,
        list.every((d) => typeof d.content === 'string'),
        channel !== undefined && direct !== undefined && none !== undefined,
        'the JSON-encoded list of draft objects was read whole',
      );
      ctx.expectEqual('R2.6-2', [channel?.type, direct?.type, none?.type], ['stream', 'private', ''], 'the types of the fetched drafts');
      ctx.expectEqual(
        'R2.6-3',
        [channel?.to, direct?.to],
        [[ctx.channel('public').stream_id], [ctx.user('member_2').user_id]],
        'to of the channel and direct drafts',
      );
      ctx.expectEqual(
        'R4.6-1',
        isIntArray(ids) ? [channel?.id, direct?.id, none?.id] : null,
        ids,
        'the IDs returned, in input order, are the IDs of the drafts',
      );
    },
  }),
  scenario({
    id: 'errors/draft-fetched-fields',
    title: 'a fetched draft has its id and the timestamp the server filled in',
    rules: ['R2.6-1', 'R2.6-6', 'R1-5'],
    given: async (ctx) => ({ content: ctx.unique('timestamped'), now: await ctx.serverTime() }),
    async when(ctx, g) {
      const res = await ctx
        .as('member')
        .post('/api/v1/drafts', { drafts: [{ type: 'stream', to: [ctx.channel('public').stream_id], topic: 'when', content: g.content }] });
      dropDrafts(ctx, res.body.ids);
      return res;
    },
    async then(ctx, res, g) {
      ctx.expectSuccess('R2.6-1', res);
      const [d] = await draftsWithContent(ctx, 'member', g.content);
      ctx.expectEqual('R2.6-1', d?.id, (res.body.ids as unknown[] | undefined)?.[0], 'id of the fetched draft');
      ctx.check('R1-5', isInt(d?.timestamp), `timestamp ${JSON.stringify(d?.timestamp)} is an integer`);
      ctx.check(
        'R2.6-6',
        isInt(d?.timestamp) && Math.abs(d.timestamp - g.now) < 3600,
        `timestamp ${JSON.stringify(d?.timestamp)} filled near the server's time ${g.now}`,
      );
    },
  }),
  scenario({
    id: 'errors/drafts-absent',
    title: 'create drafts without the (optional) drafts parameter succeeds with no IDs',
    rules: ['R4.6-1', 'R4.6-2'],
    when: (ctx) => ctx.as('member').post('/api/v1/drafts', {}),
    then: (ctx, res) => {
      ctx.expectSuccess('R4.6-1', res);
      ctx.expectEqual('R4.6-2', res.body.ids, [], 'ids when no draft was sent', res);
    },
  }),
  ...(['content', 'topic'] as const).map((field) =>
    scenario({
      id: `errors/draft-null-byte-${field}`,
      title: `a draft whose ${field} holds a null byte is refused and creates nothing`,
      rules: [field === 'content' ? 'R2.6-5' : 'R2.6-4'],
      given: (ctx) => ctx.unique('nul'),
      when: (ctx, tag) =>
        ctx.as('member').post('/api/v1/drafts', {
          drafts: [
            {
              type: 'stream',
              to: [ctx.channel('public').stream_id],
              topic: field === 'topic' ? 'a\u0000b' : 'ok',
              content: field === 'content' ? `${tag}\u0000` : tag,
            },
          ],
        }),
      async then(ctx, res, tag) {
        const rule = field === 'content' ? 'R2.6-5' : 'R2.6-4';
        ctx.expectError(rule, res, { status: 400, code: 'BAD_REQUEST' });
        const list = asArray(ctx.must(await ctx.as('member').get('/api/v1/drafts'), 'list drafts').body.drafts);
        ctx.check(rule, !list.some((d) => typeof d.content === 'string' && d.content.startsWith(tag)), 'no draft was created');
      },
    }),
  ),
  scenario({
    id: 'errors/navigation-view-update',
    title: 'updating a custom navigation view succeeds and changes only is_pinned',
    rules: ['R4.12-1', 'R2.9-1', 'R2.9-2'],
    requires: { roles: ['member_3'] },
    async given(ctx) {
      const fragment = `narrow/is/${ctx.unique('pinned').replace(/[^A-Za-z0-9]+/g, '-')}`;
      const name = ctx.unique('My view');
      ctx.must(await ctx.as('member_3').post('/api/v1/navigation_views', { fragment, is_pinned: true, name }), 'add a view');
      ctx.defer(() => ctx.as('member_3').delete(`/api/v1/navigation_views/${fragment}`));
      return { fragment, name };
    },
    when: (ctx, g) => ctx.as('member_3').patch(`/api/v1/navigation_views/${g.fragment}`, { is_pinned: false }),
    async then(ctx, res, g) {
      ctx.expectSuccess('R4.12-1', res);
      const v = (await views(ctx)).find((x) => x.fragment === g.fragment);
      ctx.expectEqual('R4.12-1', v?.is_pinned, false, 'is_pinned after the update');
      ctx.expectEqual('R2.9-2', v?.name, g.name, 'the custom view keeps its name');
      ctx.check('R2.9-1', (await views(ctx)).filter((x) => x.fragment === g.fragment).length === 1, 'the fragment identifies one view');
    },
  }),
  scenario({
    id: 'errors/navigation-view-built-in-no-name',
    title: 'a built-in navigation view (recent) is listed without a name',
    rules: ['R2.9-2'],
    requires: { roles: ['member_3'] },
    async given(ctx) {
      if (!(await views(ctx)).some((v) => v.fragment === 'recent')) {
        ctx.must(
          await ctx.as('member_3').post('/api/v1/navigation_views', { fragment: 'recent', is_pinned: false }),
          'add the recent view',
        );
        ctx.defer(() => ctx.as('member_3').delete('/api/v1/navigation_views/recent'));
      }
    },
    when: (ctx) => ctx.as('member_3').get('/api/v1/navigation_views'),
    then: (ctx, res) => {
      ctx.expectSuccess('R2.9-2', res);
      const v = asArray(res.body.navigation_views).find((x) => x.fragment === 'recent');
      ctx.check('R2.9-2', v !== undefined && !('name' in v), `the recent view: ${JSON.stringify(v)}`, res);
    },
  }),
  scenario({
    id: 'errors/saved-snippet-edit',
    title: 'editing a saved snippet title succeeds; the snippet keeps its content and has the §2.10 fields',
    rules: ['R4.14-1', 'R1-5'],
    given: async (ctx) => ({ ...(await createSnippet(ctx, 'member')), title2: ctx.unique('retitled') }),
    when: (ctx, g) => ctx.as('member').patch(`/api/v1/saved_snippets/${g.id}`, { title: g.title2 }),
    async then(ctx, res, g) {
      ctx.expectSuccess('R4.14-1', res);
      const s = asArray(ctx.must(await ctx.as('member').get('/api/v1/saved_snippets'), 'list snippets').body.saved_snippets).find(
        (x) => x.id === g.id,
      );
      ctx.expectEqual('R4.14-1', [s?.title, s?.content], [g.title2, g.content], 'title and content after the edit');
      expectFields(ctx, 'R1-5', s, { id: 'integer', title: 'string', content: 'string', date_created: 'integer' }, 'saved snippet');
    },
  }),
  scenario({
    id: 'errors/reminder-create',
    title: 'creating a message reminder returns an integer reminder_id; the reminder has the §2.12 fields',
    rules: ['R4.19-1', 'R4.19-2', 'R4.19-3'],
    given: async (ctx) => ({ at: await future(ctx), note: ctx.unique('remember') }),
    async when(ctx, g) {
      const res = await ctx
        .as('member')
        .post('/api/v1/reminders', { message_id: ctx.world.messages.channel.id, scheduled_delivery_timestamp: g.at, note: g.note });
      if (isInt(res.body.reminder_id)) ctx.defer(() => ctx.as('member').delete(`/api/v1/reminders/${res.body.reminder_id as number}`));
      return res;
    },
    async then(ctx, res, g) {
      ctx.expectSuccess('R4.19-3', res);
      ctx.check('R4.19-3', isInt(res.body.reminder_id), `reminder_id ${JSON.stringify(res.body.reminder_id)}`, res);
      const r = asArray(ctx.must(await ctx.as('member').get('/api/v1/reminders'), 'list reminders').body.reminders).find(
        (x) => x.reminder_id === res.body.reminder_id,
      );
      ctx.check('R4.19-1', r !== undefined, 'the reminder is listed for the current user');
      ctx.expectEqual(
        'R4.19-2',
        [r?.message_id, r?.scheduled_delivery_timestamp, r?.note],
        [ctx.world.messages.channel.id, g.at, g.note],
        'message_id, scheduled_delivery_timestamp and note',
      );
    },
  }),
  scenario({
    id: 'errors/linkifier-add',
    title: 'adding a linkifier returns an integer id; it is listed with its pattern and url_template and applies when rendering',
    rules: ['R4.18-1', 'R4.18-2', 'R2.11-1', 'R2.11-2'],
    isolated: true,
    requires: { roles: ['administrator'] },
    async when(ctx) {
      const res = await ctx
        .as('administrator')
        .post('/api/v1/realm/filters', { pattern: 'QX-(?P<num>[0-9]+)', url_template: 'https://tracker.example.com/qx/{num}' });
      if (isInt(res.body.id)) ctx.defer(() => ctx.as('administrator').delete(`/api/v1/realm/filters/${res.body.id as number}`));
      return res;
    },
    async then(ctx, res) {
      ctx.expectSuccess('R4.18-2', res);
      ctx.check('R4.18-2', isInt(res.body.id), `id ${JSON.stringify(res.body.id)}`, res);
      const l = asArray(ctx.must(await ctx.as('member').get('/api/v1/realm/linkifiers'), 'list linkifiers').body.linkifiers).find(
        (x) => x.id === res.body.id,
      );
      ctx.expectEqual(
        'R4.18-1',
        [l?.pattern, l?.url_template],
        ['QX-(?P<num>[0-9]+)', 'https://tracker.example.com/qx/{num}'],
        'the stored pattern and url_template',
      );
      ctx.check('R2.11-1', typeof l?.pattern === 'string', 'pattern in Python syntax with a named group is accepted');
      const rendered = await ctx.as('member').post('/api/v1/messages/render', { content: 'see QX-42' });
      ctx.check(
        'R2.11-2',
        typeof rendered.body.rendered === 'string' && rendered.body.rendered.includes('https://tracker.example.com/qx/42'),
        'the named group was inserted into the URL template',
        rendered,
      );
    },
  }),
];
