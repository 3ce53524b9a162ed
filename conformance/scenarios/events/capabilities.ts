import type { Reply } from '../../src/client.js';
import { scenario } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import { R } from './rules.js';
import { asArray, eventsUntil, openQueue, registerOnce, userIds } from './support.js';

/**
 * Spec §4.21 "Client capability effects", one capability at a time, each with and without it.
 * bulk_message_deletion is not here: no spec operation deletes a message, so its scenario is in the
 * companion tier (companion/edit-delete/delete-event-per-capability, through DELETE /messages/{id}).
 */

const ids = (list: unknown) => asArray(list).map((x) => (x.id ?? x.stream_id) as number);
const channelIds = (res: Reply) => [
  ...ids(res.body.subscriptions),
  ...ids(res.body.unsubscribed),
  ...ids(res.body.never_subscribed),
  ...ids(res.body.streams),
];
const snapshot = { event_types: ['subscription', 'stream'], fetch_event_types: ['subscription', 'stream'] };
const LEGACY = ['update_global_notifications', 'update_display_settings'];

/** A human subscriber of the world's archived channel (the member when listed). */
function archivedSubscriber(roles: readonly WorldRole[]): WorldRole {
  const human = roles.filter((r) => r !== 'bot' && r !== 'deactivated');
  return human.includes('member') ? 'member' : (human[0] ?? 'member');
}

export default [
  scenario({
    id: 'events/capability-linkifier-absent',
    title: 'without linkifier_url_template realm_linkifiers is empty',
    rules: [R.capLinkifier],
    requires: { roles: ['member'] },
    when: (ctx) => registerOnce(ctx, ctx.as('member'), { event_types: ['realm_linkifiers'], fetch_event_types: ['realm_linkifiers'] }),
    then: (ctx, res) => void ctx.expectSuccess(R.capLinkifier, res, { realm_linkifiers: [] }),
  }),
  scenario({
    id: 'events/capability-linkifier-present',
    title: "with linkifier_url_template realm_linkifiers lists the organization's linkifiers",
    rules: [R.capLinkifier, R.clientCapabilities],
    requires: { roles: ['member'] },
    async when(ctx) {
      const member = ctx.as('member');
      const params = {
        event_types: ['realm_linkifiers'],
        fetch_event_types: ['realm_linkifiers'],
        client_capabilities: { linkifier_url_template: true },
      };
      return { reg: await registerOnce(ctx, member, params), list: await member.get('/api/v1/realm/linkifiers') };
    },
    then(ctx, { reg, list }) {
      ctx.expectSuccess(R.clientCapabilities, reg);
      ctx.expectEqual(
        R.capLinkifier,
        ids(reg.body.realm_linkifiers),
        ids(list.body.linkifiers),
        'linkifier IDs in register and in the linkifier list',
        reg,
      );
    },
  }),
  scenario({
    id: 'events/capability-linkifier-events',
    title: 'a new linkifier reaches as a realm_linkifiers event only the queues declaring linkifier_url_template',
    rules: [R.capLinkifier],
    requires: { roles: ['member', 'administrator'] },
    isolated: true,
    async given(ctx) {
      const event_types = ['realm_linkifiers', 'drafts'];
      return {
        modern: await openQueue(ctx, 'member', { event_types, client_capabilities: { linkifier_url_template: true } }),
        legacy: await openQueue(ctx, 'member', { event_types }),
      };
    },
    async when(ctx) {
      const added = ctx.must(
        await ctx
          .as('administrator')
          .post('/api/v1/realm/filters', { pattern: 'CONF-(?P<id>[0-9]+)', url_template: 'https://conf.example.com/{id}' }),
        'add a linkifier',
      );
      ctx.defer(() => ctx.as('administrator').delete(`/api/v1/realm/filters/${String(added.body.id)}`));
      // A later event for both queues: once it arrives, the linkifier event would have too.
      const marker = ctx.must(
        await ctx.as('member').post('/api/v1/drafts', { drafts: [{ type: '', to: [], topic: '', content: ctx.unique('marker') }] }),
        'create a marker draft',
      );
      for (const id of ctx.need(marker, 'ids', 'array')) ctx.defer(() => ctx.as('member').delete(`/api/v1/drafts/${String(id)}`));
      return added;
    },
    async then(ctx, _res, q) {
      const modern = await eventsUntil(q.modern, (e) => e.type === 'realm_linkifiers');
      ctx.check(R.capLinkifier, modern.found !== undefined, 'the queue with linkifier_url_template got realm_linkifiers', modern.reply);
      const legacy = await eventsUntil(q.legacy, (e) => e.type === 'drafts');
      ctx.check(
        R.capLinkifier,
        legacy.found !== undefined && !legacy.events.some((e) => e.type === 'realm_linkifiers'),
        `the queue without it got ${JSON.stringify(legacy.events.map((e) => e.type))}`,
        legacy.reply,
      );
    },
  }),
  scenario({
    id: 'events/capability-user-settings-object',
    title: 'a settings change reaches clients without user_settings_object also as a legacy event, and the others not',
    rules: [R.capUserSettings],
    requires: { roles: ['member'] },
    isolated: true,
    async given(ctx) {
      return {
        modern: await openQueue(ctx, 'member', { client_capabilities: { user_settings_object: true } }),
        legacy: await openQueue(ctx, 'member', { client_capabilities: { user_settings_object: false } }),
      };
    },
    async when(ctx) {
      // away is the inverse of the presence_enabled setting (§2.7): changing it changes a user setting.
      const res = ctx.must(await ctx.as('member').post('/api/v1/users/me/status', { away: true }), 'set away');
      ctx.defer(() => ctx.as('member').post('/api/v1/users/me/status', { away: false }));
      return res;
    },
    async then(ctx, _res, q) {
      const legacy = await eventsUntil(q.legacy, (e) => LEGACY.includes(e.type));
      ctx.check(
        R.capUserSettings,
        legacy.found !== undefined,
        `without user_settings_object: ${JSON.stringify(legacy.events.map((e) => e.type))}`,
        legacy.reply,
      );
      ctx.check(
        R.capUserSettings,
        legacy.events.some((e) => e.type === 'user_settings'),
        'without user_settings_object the user_settings event comes too',
        legacy.reply,
      );
      const modern = await eventsUntil(q.modern, (e) => e.type === 'user_settings');
      const types = modern.events.map((e) => e.type);
      ctx.check(
        R.capUserSettings,
        modern.found !== undefined && !types.some((t) => LEGACY.includes(t)),
        `with user_settings_object: ${JSON.stringify(types)}`,
        modern.reply,
      );
    },
  }),
  scenario({
    id: 'events/capability-archived-channels-absent',
    title: 'without archived_channels the snapshot leaves out archived channels (with it, see events/level-315-from-archived-listing)',
    rules: [R.capArchived],
    requires: { channels: ['archived'] },
    when: (ctx) => registerOnce(ctx, ctx.as(archivedSubscriber(ctx.channel('archived').subscribers)), snapshot),
    then(ctx, res) {
      ctx.expectSuccess(R.capArchived, res);
      const archived = ctx.channel('archived').stream_id;
      ctx.check(
        R.capArchived,
        !channelIds(res).includes(archived),
        `archived channel ${archived} in subscriptions, unsubscribed, never_subscribed or streams: ${channelIds(res).includes(archived)}`,
        res,
      );
    },
  }),
  scenario({
    id: 'events/capability-deactivated-groups-absent',
    title: 'without include_deactivated_groups realm_user_groups holds active groups only',
    rules: [R.capDeactivatedGroups],
    requires: { roles: ['member'] },
    when: (ctx) => registerOnce(ctx, ctx.as('member'), { event_types: ['realm_user_groups'], fetch_event_types: ['realm_user_groups'] }),
    then(ctx, res) {
      ctx.expectSuccess(R.capDeactivatedGroups, res);
      const groups = asArray(res.body.realm_user_groups);
      const deactivated = groups.filter((g) => g.deactivated === true).map((g) => g.id);
      ctx.check(
        R.capDeactivatedGroups,
        groups.length > 0 && deactivated.length === 0,
        `${groups.length} groups; deactivated: ${JSON.stringify(deactivated)}`,
        res,
      );
    },
  }),
  scenario({
    id: 'events/capability-deactivated-groups-present',
    title: 'with include_deactivated_groups realm_user_groups keeps every active group and adds only deactivated ones',
    rules: [R.capDeactivatedGroups],
    requires: { roles: ['member'] },
    async when(ctx) {
      const member = ctx.as('member');
      const params = { event_types: ['realm_user_groups'], fetch_event_types: ['realm_user_groups'] };
      return {
        without: await registerOnce(ctx, member, params),
        with: await registerOnce(ctx, member, { ...params, client_capabilities: { include_deactivated_groups: true } }),
      };
    },
    then(ctx, res) {
      ctx.expectSuccess(R.capDeactivatedGroups, res.with);
      const active = ids(res.without.body.realm_user_groups);
      const all = asArray(res.with.body.realm_user_groups);
      const lost = active.filter((id) => !all.some((g) => g.id === id));
      ctx.expectEqual(R.capDeactivatedGroups, lost, [], 'active groups missing with the capability', res.with);
      const extra = all.filter((g) => !active.includes(g.id as number) && g.deactivated !== true).map((g) => g.id);
      ctx.expectEqual(R.capDeactivatedGroups, extra, [], 'groups added by the capability that are not deactivated', res.with);
    },
  }),
  scenario({
    id: 'events/capability-user-list-complete',
    title: 'without user_list_incomplete realm_users lists every active user of the organization',
    rules: [R.capUserList],
    requires: { roles: ['member'] },
    when: (ctx) => registerOnce(ctx, ctx.as('member'), { event_types: ['realm_user'], fetch_event_types: ['realm_user'] }),
    then(ctx, res) {
      ctx.expectSuccess(R.capUserList, res);
      const listed = ids(asArray(res.body.realm_users).map((u) => ({ id: u.user_id })));
      const everyone = userIds(ctx, ['owner', 'administrator', 'moderator', 'member', 'member_2', 'member_3', 'guest', 'bot']);
      ctx.expectEqual(
        R.capUserList,
        everyone.filter((id) => !listed.includes(id)),
        [],
        'active users of the world file missing from realm_users',
        res,
      );
    },
  }),
];
