import type { Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { SetupError } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import type { FeatureName } from '../../src/openapi.js';
import { isInt, ownChannel, ownUser, sendTo, uniqueEmail } from './support.js';

/**
 * §1 "Unsupported parameters" (from level 167): a success of any operation lists the parameters it does
 * not support in ignored_parameters_unsupported. errors/conventions.ts checks render, the channel list
 * and register; here every other operation of §4 gets one parameter it does not take, on things the
 * scenario created; below level 167, no such field (§9). §4.5 (one's own status) is left out: the
 * only users whose status a scenario could set with their own key are the world's shared ones (users
 * the scenario creates have no key: fetch_api_key picks the realm by host).
 */

const EXTRA = 'conformance_unknown_parameter';

interface Row {
  section: string;
  what: string;
  destructive?: boolean;
  isolated?: boolean;
  /** The operation exists only from this level. */
  from?: FeatureName;
  /** Makes the call, with EXTRA among its parameters; setup steps inside must succeed. */
  call(ctx: ScenarioContext): Promise<Reply>;
}

async function later(ctx: ScenarioContext): Promise<number> {
  return (await ctx.serverTime()) + 7 * 86_400;
}

async function scheduled(ctx: ScenarioContext): Promise<number> {
  const ch = await ownChannel(ctx, 'member', 'ignored scheduled');
  const res = ctx.must(
    await ctx.as('member').post('/api/v1/scheduled_messages', {
      type: 'stream',
      to: ch.stream_id,
      topic: 't',
      content: 'c',
      scheduled_delivery_timestamp: await later(ctx),
    }),
    'schedule',
  );
  const id = res.body.scheduled_message_id;
  if (!isInt(id)) throw new SetupError(`scheduled_message_id ${JSON.stringify(id)}`);
  ctx.defer(() => ctx.as('member').delete(`/api/v1/scheduled_messages/${id}`));
  return id;
}

const ROWS: Row[] = [
  {
    section: '4.1',
    what: 'creating a scheduled message',
    async call(ctx) {
      const ch = await ownChannel(ctx, 'member', 'ignored create scheduled');
      const res = await ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'stream',
        to: ch.stream_id,
        topic: 't',
        content: 'c',
        scheduled_delivery_timestamp: await later(ctx),
        [EXTRA]: 1,
      });
      if (isInt(res.body.scheduled_message_id))
        ctx.defer(() => ctx.as('member').delete(`/api/v1/scheduled_messages/${String(res.body.scheduled_message_id)}`));
      return res;
    },
  },
  {
    section: '4.2',
    what: 'editing a scheduled message',
    from: 'scheduled_message_edit_endpoint',
    call: async (ctx) => ctx.as('member').patch(`/api/v1/scheduled_messages/${await scheduled(ctx)}`, { content: 'edited', [EXTRA]: 1 }),
  },
  {
    section: '4.3',
    what: 'fetching a message',
    async call(ctx) {
      const ch = await ownChannel(ctx, 'member', 'ignored fetch');
      return ctx.as('member').get(`/api/v1/messages/${await sendTo(ctx, 'member', ch.stream_id, 't', 'c')}`, { [EXTRA]: 1 });
    },
  },
  {
    section: '4.4',
    what: "setting another user's status",
    destructive: true,
    call: async (ctx) =>
      ctx
        .as('administrator')
        .post(`/api/v1/users/${(await ownUser(ctx, 'ignored status')).user_id}/status`, { status_text: 'x', [EXTRA]: 1 }),
  },
  {
    section: '4.6',
    what: 'creating drafts',
    async call(ctx) {
      const res = await ctx.as('member_3').post('/api/v1/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'c' }], [EXTRA]: 1 });
      for (const id of Array.isArray(res.body.ids) ? res.body.ids : [])
        ctx.defer(() => ctx.as('member_3').delete(`/api/v1/drafts/${String(id)}`));
      return res;
    },
  },
  {
    section: '4.7',
    what: 'updating a user',
    destructive: true,
    call: async (ctx) =>
      ctx
        .as('administrator')
        .patch(`/api/v1/users/${(await ownUser(ctx, 'ignored update')).user_id}`, { full_name: ctx.unique('blind renamed'), [EXTRA]: 1 }),
  },
  {
    section: '4.8',
    what: 'unsubscribing',
    call: async (ctx) =>
      ctx.as('member').delete('/api/v1/users/me/subscriptions', {
        subscriptions: [(await ownChannel(ctx, 'member', 'ignored unsubscribe', { members: ['member_2'] })).name],
        [EXTRA]: 1,
      }),
  },
  {
    section: '4.9',
    what: 'marking a topic as read',
    async call(ctx) {
      const ch = await ownChannel(ctx, 'member', 'ignored mark read', { members: ['member_2'] });
      await sendTo(ctx, 'member_2', ch.stream_id, 'unread', 'c');
      return ctx.as('member').post('/api/v1/mark_topic_as_read', { stream_id: ch.stream_id, topic_name: 'unread', [EXTRA]: 1 });
    },
  },
  {
    section: '4.10',
    what: 'creating a user',
    destructive: true,
    async call(ctx) {
      const res = await ctx.as('administrator').post('/api/v1/users', {
        email: uniqueEmail(ctx, 'ignored create'),
        password: 'Plausible-Horse-Battery-47',
        full_name: ctx.unique('ignored create'),
        [EXTRA]: 1,
      });
      if (isInt(res.body.user_id)) ctx.defer(() => ctx.as('administrator').delete(`/api/v1/users/${String(res.body.user_id)}`));
      return res;
    },
  },
  {
    section: '4.11',
    what: "listing a channel's topics",
    call: async (ctx) =>
      ctx.as('member').get(`/api/v1/users/me/${(await ownChannel(ctx, 'member', 'ignored topics')).stream_id}/topics`, { [EXTRA]: 1 }),
  },
  {
    section: '4.12',
    what: 'updating a navigation view',
    async call(ctx) {
      const fragment = `narrow/search/${ctx.unique('ignored view').replace(/[^A-Za-z0-9]+/g, '-')}`;
      ctx.must(
        await ctx.as('member').post('/api/v1/navigation_views', { fragment, is_pinned: false, name: ctx.unique('ignored view') }),
        'create a view',
      );
      ctx.defer(() => ctx.as('member').delete(`/api/v1/navigation_views/${encodeURIComponent(fragment)}`));
      return ctx.as('member').patch(`/api/v1/navigation_views/${encodeURIComponent(fragment)}`, { is_pinned: true, [EXTRA]: 1 });
    },
  },
  {
    section: '4.13',
    what: 'reporting a message',
    async call(ctx) {
      const ch = await ownChannel(ctx, 'member', 'ignored report', { members: ['member_2'] });
      return ctx
        .as('member')
        .post(`/api/v1/messages/${await sendTo(ctx, 'member_2', ch.stream_id, 't', 'c')}/report`, { report_type: 'spam', [EXTRA]: 1 });
    },
  },
  {
    section: '4.14',
    what: 'editing a saved snippet',
    async call(ctx) {
      const id = ctx.must(
        await ctx.as('member').post('/api/v1/saved_snippets', { title: ctx.unique('ignored snippet'), content: 'c' }),
        'create a snippet',
      ).body.saved_snippet_id;
      if (!isInt(id)) throw new SetupError(`saved_snippet_id ${JSON.stringify(id)}`);
      ctx.defer(() => ctx.as('member').delete(`/api/v1/saved_snippets/${id}`));
      return ctx.as('member').patch(`/api/v1/saved_snippets/${id}`, { content: 'edited', [EXTRA]: 1 });
    },
  },
  {
    section: '4.16',
    what: 'updating a channel',
    call: async (ctx) =>
      ctx.as('administrator').patch(`/api/v1/streams/${(await ownChannel(ctx, 'member', 'ignored update channel')).stream_id}`, {
        description: 'updated',
        [EXTRA]: 1,
      }),
  },
  {
    section: '4.17',
    what: 'deactivating a user',
    destructive: true,
    call: async (ctx) =>
      ctx.as('administrator').delete(`/api/v1/users/${(await ownUser(ctx, 'ignored deactivate')).user_id}`, { [EXTRA]: 1 }),
  },
  {
    section: '4.18',
    what: 'adding a linkifier',
    // Linkifiers are realm-wide: a realm of its own on the mock, and removed again on other servers.
    isolated: true,
    async call(ctx) {
      const word = ctx.unique('ignored').replace(/[^A-Za-z0-9]+/g, '');
      const res = await ctx
        .as('administrator')
        .post('/api/v1/realm/filters', { pattern: `${word}-(?P<id>[0-9]+)`, url_template: 'https://example.com/t/{id}', [EXTRA]: 1 });
      if (isInt(res.body.id)) ctx.defer(() => ctx.as('administrator').delete(`/api/v1/realm/filters/${String(res.body.id)}`));
      return res;
    },
  },
  {
    section: '4.19',
    what: 'creating a reminder',
    async call(ctx) {
      const ch = await ownChannel(ctx, 'member', 'ignored reminder');
      const res = await ctx.as('member').post('/api/v1/reminders', {
        message_id: await sendTo(ctx, 'member', ch.stream_id, 't', 'c'),
        scheduled_delivery_timestamp: await later(ctx),
        [EXTRA]: 1,
      });
      if (isInt(res.body.reminder_id)) ctx.defer(() => ctx.as('member').delete(`/api/v1/reminders/${String(res.body.reminder_id)}`));
      return res;
    },
  },
];

export default scenarios(ROWS, (row) =>
  scenario({
    id: `blind-spots/ignored-parameters-${row.section.replace('.', '-')}`,
    title: `${row.what} (§${row.section}) lists a parameter it does not take in ignored_parameters_unsupported`,
    rules: ['R1-4', 'R9-3'],
    requires: { roles: ['member', 'member_2', 'member_3', 'administrator'], ...(row.from ? { level: { from: row.from } } : {}) },
    ...(row.destructive ? { destructive: true } : {}),
    ...(row.isolated ? { isolated: true } : {}),
    when: (ctx) => row.call(ctx),
    then(ctx, res) {
      ctx.expectSuccess('R1-4', res);
      const listed = res.body.ignored_parameters_unsupported;
      // Both sides of level 167 (§9): the list from it, no such field below it.
      if (ctx.has('ignored_parameters_unsupported'))
        ctx.check(
          'R1-4',
          Array.isArray(listed) && listed.includes(EXTRA),
          `ignored_parameters_unsupported ${JSON.stringify(listed)} names ${EXTRA}`,
          res,
        );
      else ctx.check('R9-3', listed === undefined, `below level 167: ignored_parameters_unsupported ${JSON.stringify(listed)}`, res);
    },
  }),
);
