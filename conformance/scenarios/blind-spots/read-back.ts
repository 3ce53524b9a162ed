import type { Param, Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { SetupError } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import type { FeatureName } from '../../src/openapi.js';
import type { WorldRole } from '../../src/world.js';
import { asArray, asObject, isInt, listedFor, ownChannel, ownUser, snapshotOf, textOf, type Obj } from './support.js';

/**
 * No stale reads: every update is read back through each way the API shows the value — the list or get
 * operation and a fresh register — and the value was read once before the update too (a server that
 * caches the first answer fails). Each row changes only what the scenario created.
 */

interface Setup {
  id: number | string;
  role: WorldRole;
}
interface Row {
  key: string;
  what: string;
  rule: string;
  destructive?: boolean;
  /** The update, or the field it is read back through, exists only from this level (skipped below it). */
  from?: FeatureName;
  create(ctx: ScenarioContext): Promise<Setup>;
  /** The new value the update sets (unique to the run). */
  value(ctx: ScenarioContext): Param;
  update(ctx: ScenarioContext, s: Setup, value: Param): Promise<Reply>;
  /** Each way to read the value, by name. */
  reads: Record<string, (ctx: ScenarioContext, s: Setup) => Promise<unknown>>;
}

const find = (list: unknown, key: string, id: unknown) => asArray(list).find((x) => x[key] === id);

const channelRow = (
  key: string,
  param: string,
  field: string,
  rule: string,
  value: (ctx: ScenarioContext) => Param,
  from?: FeatureName,
): Row => ({
  key: `channel-${key}`,
  what: `a channel's ${field}`,
  rule,
  ...(from ? { from } : {}),
  value,
  async create(ctx) {
    const ch = await ownChannel(ctx, 'member', `read back ${key}`, { description: 'first' });
    return { id: ch.stream_id, role: 'member' };
  },
  update: (ctx, s, v) => ctx.as('administrator').patch(`/api/v1/streams/${s.id}`, { [param]: v }),
  reads: {
    'GET /streams/{id}': async (ctx, s) =>
      asObject(ctx.must(await ctx.as('member').get(`/api/v1/streams/${s.id}`), 'get the channel').body.stream)[field],
    'GET /streams': async (ctx, s) => (await listedFor(ctx, 'member', s.id as number)).channel?.[field],
    'register subscriptions': async (ctx, s) =>
      find((await snapshotOf(ctx, 'member', ['subscription'])).body.subscriptions, 'stream_id', s.id)?.[field],
  },
});

const ROWS: Row[] = [
  channelRow('description', 'description', 'description', 'R4.16-6', (ctx) => textOf(ctx, 'described', 40)),
  channelRow('name', 'new_name', 'name', 'R4.16-7', (ctx) => textOf(ctx, 'renamed', 40)),
  // Channel objects carry topics_policy from level 392 only (reference get-streams).
  channelRow('topics-policy', 'topics_policy', 'topics_policy', 'R4.16-15', () => 'disable_empty_topic', 'channel_topics_policy_field'),
  // The member who made it stays subscribed, so every read still sees the channel once it is private.
  channelRow('privacy', 'is_private', 'invite_only', 'R4.16-8', () => true),
  {
    key: 'scheduled-message',
    what: "a scheduled message's content",
    rule: 'R4.2-4',
    from: 'scheduled_message_edit_endpoint',
    async create(ctx) {
      const ch = await ownChannel(ctx, 'member', 'read back scheduled');
      const at = (await ctx.serverTime()) + 7 * 86_400;
      const res = ctx.must(
        await ctx.as('member').post('/api/v1/scheduled_messages', {
          type: 'stream',
          to: ch.stream_id,
          topic: 't',
          content: 'first',
          scheduled_delivery_timestamp: at,
        }),
        'schedule',
      );
      const id = res.body.scheduled_message_id;
      if (!isInt(id)) throw new SetupError(`scheduled_message_id ${JSON.stringify(id)}`);
      ctx.defer(() => ctx.as('member').delete(`/api/v1/scheduled_messages/${id}`));
      return { id, role: 'member' };
    },
    value: (ctx) => textOf(ctx, 'scheduled text', 40),
    update: (ctx, s, v) => ctx.as('member').patch(`/api/v1/scheduled_messages/${s.id}`, { content: v }),
    reads: {
      'GET /scheduled_messages': async (ctx, s) =>
        find(
          ctx.must(await ctx.as('member').get('/api/v1/scheduled_messages'), 'list scheduled messages').body.scheduled_messages,
          'scheduled_message_id',
          s.id,
        )?.content,
      'register scheduled_messages': async (ctx, s) =>
        find((await snapshotOf(ctx, 'member', ['scheduled_messages'])).body.scheduled_messages, 'scheduled_message_id', s.id)?.content,
    },
  },
  {
    key: 'user-full-name',
    what: "a user's full_name",
    rule: 'R4.7-4',
    destructive: true,
    create: async (ctx) => ({ id: (await ownUser(ctx, 'read back name')).user_id, role: 'administrator' }),
    value: (ctx) => textOf(ctx, 'Renamed', 40),
    update: (ctx, s, v) => ctx.as('administrator').patch(`/api/v1/users/${s.id}`, { full_name: v }),
    reads: {
      'GET /users/{id}': async (ctx, s) =>
        asObject(ctx.must(await ctx.as('member').get(`/api/v1/users/${s.id}`), 'get the user').body.user).full_name,
      'GET /users': async (ctx, s) =>
        find(ctx.must(await ctx.as('member').get('/api/v1/users'), 'list users').body.members, 'user_id', s.id)?.full_name,
      'register realm_users': async (ctx, s) =>
        find((await snapshotOf(ctx, 'member', ['realm_user'])).body.realm_users, 'user_id', s.id)?.full_name,
    },
  },
  {
    key: 'user-status',
    what: "a user's status_text set by an administrator",
    rule: 'R4.4-3',
    destructive: true,
    async create(ctx) {
      const id = (await ownUser(ctx, 'status read back')).user_id;
      ctx.must(await ctx.as('administrator').post(`/api/v1/users/${id}/status`, { status_text: 'first' }), 'set a first status');
      return { id, role: 'administrator' };
    },
    value: (ctx) => textOf(ctx, 'status', 40),
    update: (ctx, s, v) => ctx.as('administrator').post(`/api/v1/users/${s.id}/status`, { status_text: v }),
    reads: {
      'GET /users/{id}/status': async (ctx, s) =>
        asObject(ctx.must(await ctx.as('member').get(`/api/v1/users/${s.id}/status`), 'get the status').body.status).status_text,
      'register user_status': async (ctx, s) =>
        asObject(asObject((await snapshotOf(ctx, 'member', ['user_status'])).body.user_status)[String(s.id)]).status_text,
    },
  },
  {
    key: 'saved-snippet',
    what: "a saved snippet's content",
    rule: 'R4.14-1',
    async create(ctx) {
      const res = ctx.must(
        await ctx.as('member').post('/api/v1/saved_snippets', { title: ctx.unique('blind snippet'), content: 'first' }),
        'create a snippet',
      );
      const id = res.body.saved_snippet_id;
      if (!isInt(id)) throw new SetupError(`saved_snippet_id ${JSON.stringify(id)}`);
      ctx.defer(() => ctx.as('member').delete(`/api/v1/saved_snippets/${id}`));
      return { id, role: 'member' };
    },
    value: (ctx) => textOf(ctx, 'snippet text', 40),
    update: (ctx, s, v) => ctx.as('member').patch(`/api/v1/saved_snippets/${s.id}`, { content: v }),
    reads: {
      'GET /saved_snippets': async (ctx, s) =>
        find(ctx.must(await ctx.as('member').get('/api/v1/saved_snippets'), 'list snippets').body.saved_snippets, 'id', s.id)?.content,
      'register saved_snippets': async (ctx, s) =>
        find((await snapshotOf(ctx, 'member', ['saved_snippets'])).body.saved_snippets, 'id', s.id)?.content,
    },
  },
  {
    key: 'navigation-view',
    what: "a custom navigation view's name",
    rule: 'R4.12-1',
    // register's navigation_views key and the views themselves came at level 390 (reference register-queue).
    from: 'navigation_views',
    async create(ctx) {
      const fragment = `narrow/search/${ctx.unique('blind view').replace(/[^A-Za-z0-9]+/g, '-')}`;
      ctx.must(
        await ctx.as('member').post('/api/v1/navigation_views', { fragment, is_pinned: false, name: ctx.unique('blind view') }),
        'create a view',
      );
      ctx.defer(() => ctx.as('member').delete(`/api/v1/navigation_views/${encodeURIComponent(fragment)}`));
      return { id: fragment, role: 'member' };
    },
    value: (ctx) => textOf(ctx, 'view name', 40),
    update: (ctx, s, v) => ctx.as('member').patch(`/api/v1/navigation_views/${encodeURIComponent(String(s.id))}`, { name: v }),
    reads: {
      'GET /navigation_views': async (ctx, s) =>
        find(ctx.must(await ctx.as('member').get('/api/v1/navigation_views'), 'list views').body.navigation_views, 'fragment', s.id)?.name,
      'register navigation_views': async (ctx, s) =>
        find((await snapshotOf(ctx, 'member', ['navigation_views'])).body.navigation_views, 'fragment', s.id)?.name,
    },
  },
  {
    key: 'draft',
    what: "an edited draft's content",
    rule: 'R2.6-5',
    async create(ctx) {
      const res = ctx.must(
        await ctx.as('member_3').post('/api/v1/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'first' }] }),
        'create a draft',
      );
      const id: unknown = Array.isArray(res.body.ids) ? res.body.ids[0] : undefined;
      if (!isInt(id)) throw new SetupError(`draft ids ${JSON.stringify(res.body.ids)}`);
      ctx.defer(() => ctx.as('member_3').delete(`/api/v1/drafts/${id}`));
      return { id, role: 'member_3' };
    },
    value: (ctx) => textOf(ctx, 'draft text', 40),
    update: (ctx, s, v) => ctx.as('member_3').patch(`/api/v1/drafts/${s.id}`, { draft: { type: '', to: [], topic: '', content: v } }),
    reads: {
      'GET /drafts': async (ctx, s) =>
        find(ctx.must(await ctx.as('member_3').get('/api/v1/drafts'), 'list drafts').body.drafts, 'id', s.id)?.content,
      'register drafts': async (ctx, s) => find((await snapshotOf(ctx, 'member_3', ['drafts'])).body.drafts, 'id', s.id)?.content,
    },
  },
];

async function readAll(ctx: ScenarioContext, row: Row, s: Setup): Promise<Obj> {
  const out: Obj = {};
  for (const [via, read] of Object.entries(row.reads)) out[via] = await read(ctx, s);
  return out;
}

export default scenarios(ROWS, (row) =>
  scenario({
    id: `blind-spots/read-back-${row.key}`,
    title: `${row.what} reads back updated through every listing and a fresh register`,
    rules: [row.rule],
    requires: { roles: ['member', 'member_3', 'administrator'], ...(row.from ? { level: { from: row.from } } : {}) },
    ...(row.destructive ? { destructive: true } : {}),
    async given(ctx) {
      const s = await row.create(ctx);
      // Read once before: a server that serves its first answer again is caught by the read after.
      const before = await readAll(ctx, row, s);
      return { s, before, value: row.value(ctx) };
    },
    when: (ctx, g) => row.update(ctx, g.s, g.value),
    async then(ctx, res, g) {
      ctx.expectSuccess(row.rule, res);
      const after = await readAll(ctx, row, g.s);
      for (const [via, value] of Object.entries(after))
        ctx.expectEqual(row.rule, value, g.value, `${row.what} through ${via} (before the update: ${JSON.stringify(g.before[via])})`);
    },
  }),
);
