import type { ScenarioContext } from '../../src/context.js';
import { SetupError } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import { parsedCheck, retentionParam } from '../shared.js';
import { asArray } from './support.js';
import { channelHas } from '../level-fields.js';

/**
 * More of §4.15 (the parameters of the channel list), §3 channel privacy as the list shows it, §4.16
 * properties beyond the description (isolated: they change a channel), and the §4.21 client
 * capabilities that decide what register returns about linkifiers and archived channels.
 */

async function listIds(ctx: ScenarioContext, role: WorldRole, params: Record<string, boolean> = {}): Promise<unknown[]> {
  return asArray(ctx.must(await ctx.as(role).get('/api/v1/streams', params), 'list channels').body.streams).map((c) => c.stream_id);
}

/** The default channels (§4.15 include_default), listed without public or subscribed ones. */
async function defaultIds(ctx: ScenarioContext): Promise<unknown[]> {
  return listIds(ctx, 'member_3', { include_public: false, include_subscribed: false, include_default: true });
}

/**
 * Puts public_2 back as it was, one property per request so that one refusal does not keep the others
 * (real servers keep what scenarios change; on the mock the realm is dropped anyway).
 */
async function restoreChannelLater(ctx: ScenarioContext, wasDefault: boolean): Promise<void> {
  const id = ctx.channel('public_2').stream_id;
  const c = asArray(ctx.must(await ctx.as('administrator').get('/api/v1/streams'), 'list channels').body.streams).find(
    (s) => s.stream_id === id,
  );
  if (!c) throw new SetupError('the administrator does not see public_2');
  const admin = ctx.as('administrator');
  const retention = retentionParam(c.message_retention_days);
  const restore: Record<string, unknown>[] = [
    { is_private: c.invite_only, history_public_to_subscribers: c.history_public_to_subscribers },
    { is_default_stream: wasDefault },
    { new_name: c.name },
    { description: c.description },
    { folder_id: c.folder_id },
    { message_retention_days: retention },
  ];
  ctx.defer(async () => {
    for (const params of restore) await admin.patch(`/api/v1/streams/${id}`, params as Record<string, string>);
  });
}

export default [
  scenario({
    id: 'errors/channel-privacy-states',
    title: 'the channel list shows privacy as invite_only (private) and is_web_public (web-public)',
    rules: ['R3-2', 'R2.2-2'],
    requires: { channels: ['private_protected', 'web_public'] },
    when: (ctx) => ctx.as('member').get('/api/v1/streams'),
    then: (ctx, res) => {
      ctx.expectSuccess('R3-2', res);
      const list = asArray(res.body.streams);
      const of = (kind: 'public' | 'private_protected' | 'web_public') => list.find((c) => c.stream_id === ctx.channel(kind).stream_id);
      ctx.expectEqual(
        'R3-2',
        [of('public')?.invite_only, of('public')?.is_web_public],
        [false, false],
        'public channel: invite_only, is_web_public',
        res,
      );
      ctx.expectEqual('R2.2-2', of('private_protected')?.invite_only, true, 'invite_only of a private channel', res);
      ctx.expectEqual(
        'R3-2',
        [of('web_public')?.invite_only, of('web_public')?.is_web_public],
        [false, true],
        'web-public channel: invite_only, is_web_public',
        res,
      );
    },
  }),
  scenario({
    id: 'errors/channel-list-include-all',
    title: 'include_all lists, for an administrator, a private channel they are not subscribed to',
    rules: ['R4.15-7', 'R9-9'],
    requires: { roles: ['administrator'] },
    given(ctx) {
      if (ctx.channel('private_shared').subscribers.includes('administrator'))
        throw new SetupError('needs the administrator out of private_shared');
    },
    when: (ctx) => ctx.as('administrator').get('/api/v1/streams', { include_all: true }),
    async then(ctx, res) {
      ctx.expectSuccess('R4.15-7', res);
      const ids = asArray(res.body.streams).map((c) => c.stream_id);
      const target = ctx.channel('private_shared').stream_id;
      if (ctx.has('include_all')) {
        ctx.check('R4.15-7', ids.includes(target), 'include_all lists the unsubscribed private channel', res);
        ctx.check('R4.15-7', !(await listIds(ctx, 'administrator')).includes(target), 'without include_all it is not listed');
      } else {
        ctx.check('R9-9', !ids.includes(target), 'below level 356 include_all is not a parameter', res);
      }
    },
  }),
  scenario({
    id: 'errors/channel-list-include-owner-subscribed',
    title: 'include_owner_subscribed lists, for a bot, a channel its owner is subscribed to',
    rules: ['R4.15-9'],
    requires: { roles: ['bot', 'bot_owner'] },
    given(ctx) {
      const ch = ctx.channel('private_shared');
      if (!ch.subscribers.includes('bot_owner') || ch.subscribers.includes('bot'))
        throw new SetupError('needs private_shared with the bot owner and without the bot');
    },
    when: (ctx) => ctx.as('bot').get('/api/v1/streams', { include_owner_subscribed: true }),
    async then(ctx, res) {
      ctx.expectSuccess('R4.15-9', res);
      const target = ctx.channel('private_shared').stream_id;
      ctx.check(
        'R4.15-9',
        asArray(res.body.streams).some((c) => c.stream_id === target),
        "the owner's private channel is listed",
        res,
      );
      ctx.check('R4.15-9', !(await listIds(ctx, 'bot')).includes(target), 'by default (false) it is not');
    },
  }),
  scenario({
    id: 'errors/channel-list-include-web-public',
    title: 'include_web_public lists, for a guest, a web-public channel the guest is not subscribed to (not by default)',
    rules: ['R4.15-4'],
    requires: { roles: ['guest'], channels: ['web_public'] },
    given(ctx) {
      if (ctx.channel('web_public').subscribers.includes('guest')) throw new SetupError('needs the guest out of the web-public channel');
    },
    when: (ctx) => ctx.as('guest').get('/api/v1/streams', { include_web_public: true }),
    async then(ctx, res) {
      ctx.expectSuccess('R4.15-4', res);
      const target = ctx.channel('web_public').stream_id;
      ctx.check(
        'R4.15-4',
        asArray(res.body.streams).some((c) => c.stream_id === target),
        'the web-public channel is listed',
        res,
      );
      ctx.check('R4.15-4', !(await listIds(ctx, 'guest')).includes(target), 'by default (false) it is not');
    },
  }),
  scenario({
    id: 'errors/channel-update-properties',
    title: 'an administrator updates description, name, folder, retention and default status of a channel in one request',
    rules: ['R4.16-1', 'R4.16-4', 'R4.16-5', 'R4.16-6', 'R4.16-7', 'R4.16-11', 'R4.16-12', 'R4.16-14', 'R4.15-8', 'R2.2-5', 'R2.2-8'],
    isolated: true,
    destructive: true,
    requires: { roles: ['administrator'] },
    async given(ctx) {
      const wasDefault = (await defaultIds(ctx)).includes(ctx.channel('public_2').stream_id);
      await restoreChannelLater(ctx, wasDefault);
      return { name: ctx.unique('renamed').slice(0, 50), description: `${ctx.unique('About')}: **important** things`, wasDefault };
    },
    when: (ctx, g) =>
      ctx.as('administrator').patch(`/api/v1/streams/${ctx.channel('public_2').stream_id}`, {
        description: g.description,
        new_name: g.name,
        // Channel folders came at a feature level (reference get-channel-folders): below it there is no folder_id.
        ...(channelHas(ctx, 'folder_id') ? { folder_id: null } : {}),
        message_retention_days: 30,
        is_default_stream: !g.wasDefault,
      }),
    async then(ctx, res, { name, description, wasDefault }) {
      ctx.expectSuccess('R4.16-1', res);
      ctx.check('R4.16-4', res.body.result === 'success', 'optional parameters only, besides the path', res);
      const list = asArray(
        ctx.must(await ctx.as('administrator').get('/api/v1/streams', { include_default: true }), 'list channels').body.streams,
      );
      const c = list.find((s) => s.stream_id === ctx.channel('public_2').stream_id);
      ctx.check('R4.16-5', c !== undefined, 'the channel of the path is listed');
      ctx.expectEqual('R4.16-6', c?.description, description, 'description (Markdown)');
      ctx.check(
        'R4.16-6',
        typeof c?.rendered_description === 'string' && c.rendered_description.includes('<strong>important</strong>'),
        `rendered_description ${JSON.stringify(c?.rendered_description)}`,
      );
      ctx.expectEqual('R4.16-7', c?.name, name, 'name after new_name');
      if (channelHas(ctx, 'folder_id')) {
        ctx.expectEqual('R4.16-14', c?.folder_id, null, 'folder_id after folder_id null');
        ctx.expectEqual('R2.2-8', c?.folder_id, null, 'null: in no folder');
      }
      ctx.expectEqual('R4.16-12', c?.message_retention_days, 30, 'message_retention_days after setting 30 days');
      ctx.check('R2.2-5', c?.message_retention_days === 30, 'retention given in days', res);
      const isDefault = (await defaultIds(ctx)).includes(ctx.channel('public_2').stream_id);
      ctx.check('R4.16-11', isDefault === !wasDefault, `the channel was ${wasDefault ? 'removed from' : 'added to'} the default channels`);
      ctx.check('R4.15-8', isDefault === !wasDefault, 'include_default lists exactly the default channels');
    },
  }),
  scenario({
    id: 'errors/channel-make-private',
    title: 'an administrator subscribed to a public channel makes it private: invite_only becomes true',
    rules: ['R4.16-8', 'R3-2'],
    isolated: true,
    destructive: true,
    requires: { roles: ['administrator'] },
    async given(ctx) {
      // A default channel cannot be private: take it off the default list first.
      const id = ctx.channel('public_2').stream_id;
      const wasDefault = (await defaultIds(ctx)).includes(id);
      await restoreChannelLater(ctx, wasDefault);
      if (wasDefault)
        ctx.must(await ctx.as('administrator').patch(`/api/v1/streams/${id}`, { is_default_stream: false }), 'remove a default channel');
    },
    when: (ctx) => ctx.as('administrator').patch(`/api/v1/streams/${ctx.channel('public_2').stream_id}`, { is_private: true }),
    async then(ctx, res) {
      ctx.expectSuccess('R4.16-8', res);
      const c = asArray(ctx.must(await ctx.as('administrator').get('/api/v1/streams'), 'list channels').body.streams).find(
        (s) => s.stream_id === ctx.channel('public_2').stream_id,
      );
      ctx.expectEqual('R3-2', c?.invite_only, true, 'invite_only after is_private true');
    },
  }),
  scenario({
    id: 'errors/register-linkifier-capability',
    title: 'realm_linkifiers is empty without the linkifier_url_template capability and filled with it',
    rules: ['R4.21-13', 'R4.21-10', 'R1-1'],
    async given(ctx) {
      const list = asArray(ctx.must(await ctx.as('member').get('/api/v1/realm/linkifiers'), 'list linkifiers').body.linkifiers);
      if (list.length === 0) throw new SetupError('the realm has no linkifier');
      return list.length;
    },
    when: (ctx) => ctx.snapshot('member', { event_types: ['realm_linkifiers'], client_capabilities: { linkifier_url_template: true } }),
    async then(ctx, res, count) {
      ctx.expectSuccess('R4.21-10', res);
      ctx.check(
        'R4.21-10',
        Array.isArray(res.body.realm_linkifiers) && res.body.realm_linkifiers.length === count,
        `with the capability: ${JSON.stringify(res.body.realm_linkifiers)?.slice(0, 120)}`,
        res,
      );
      parsedCheck(
        ctx,
        Array.isArray(res.body.realm_linkifiers),
        Array.isArray(res.body.realm_linkifiers) && res.body.realm_linkifiers.length > 0,
        'the JSON-encoded client_capabilities object was read',
        res,
      );
      const without = await ctx.snapshot('member', { event_types: ['realm_linkifiers'] });
      ctx.expectEqual('R4.21-13', without.body.realm_linkifiers, [], 'realm_linkifiers without the capability', without);
    },
  }),
  scenario({
    id: 'errors/register-archived-capability',
    title: 'archived channels are left out of register without the archived_channels capability and included with it',
    rules: ['R4.21-16'],
    requires: { channels: ['archived'] },
    given(ctx) {
      if (!ctx.channel('archived').subscribers.includes('member'))
        throw new SetupError('needs the member subscribed to the archived channel');
    },
    when: (ctx) => ctx.snapshot('member', { event_types: ['subscription'], fetch_event_types: ['subscription'] }),
    async then(ctx, res) {
      const archived = ctx.channel('archived').stream_id;
      ctx.check(
        'R4.21-16',
        !asArray(res.body.subscriptions).some((s) => s.stream_id === archived),
        'without the capability the archived channel is left out',
        res,
      );
      if (!ctx.has('archived_channels')) return;
      const withCap = await ctx.snapshot('member', {
        event_types: ['subscription'],
        fetch_event_types: ['subscription'],
        client_capabilities: { archived_channels: true },
      });
      ctx.check(
        'R4.21-16',
        asArray(withCap.body.subscriptions).some((s) => s.stream_id === archived && s.is_archived === true),
        'with the capability it is included, is_archived true',
        withCap,
      );
    },
  }),
];
