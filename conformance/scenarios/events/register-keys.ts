import type { Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import { levelOf, type FeatureName } from '../../src/openapi.js';
import { R } from './rules.js';
import { createDraft, eventsUntil, has, openQueue, registerOnce } from './support.js';

/**
 * Spec §4.21: which keys register returns. queue_id, last_event_id, service_feature_level and
 * service_version always; the state keys only when their type is named in fetch_event_types (which
 * defaults to event_types); unread_msgs when event_types holds both message and update_message_flags.
 * Unsupported event types are ignored; event_types decides what the queue receives (§6.6).
 */

/**
 * The state keys of the spec's response table, the type name that fetches each, and the level the reference
 * server added it at (openapi/feature-levels.json): a server announcing an older level has no such key.
 */
const KEYS: readonly { type: string; key: string; rule: string; feature?: FeatureName }[] = [
  { type: 'recent_private_conversations', key: 'recent_private_conversations', rule: R.recentPrivateConversations },
  { type: 'navigation_views', key: 'navigation_views', rule: R.navigationViews, feature: 'navigation_views' },
  { type: 'saved_snippets', key: 'saved_snippets', rule: R.savedSnippets, feature: 'saved_snippets' },
  { type: 'subscription', key: 'subscriptions', rule: R.subscriptions },
  { type: 'channel_folders', key: 'channel_folders', rule: R.channelFolders, feature: 'channel_folders' },
];

const keysPresent = (res: Reply) => KEYS.filter((k) => has(res.body, k.key)).map((k) => k.key);
/** Whether the scenario's level knows the key at all. */
const keyExists = (ctx: ScenarioContext, k: (typeof KEYS)[number]) => k.feature === undefined || ctx.has(k.feature);

export default [
  scenario({
    id: 'events/register-always-fields',
    title: 'register answers queue_id, last_event_id, service_feature_level and service_version even when nothing is fetched',
    rules: [R.lastEventId, R.serviceFeatureLevel, R.serviceVersion, R.queueIdNull, R.featureLevelReported, R.fetchEventTypes],
    requires: { roles: ['member'] },
    when: (ctx) => registerOnce(ctx, ctx.as('member'), { event_types: ['drafts'], fetch_event_types: [] }),
    then(ctx, res) {
      ctx.expectSuccess(R.lastEventId, res);
      const b = res.body;
      ctx.check(
        R.queueIdNull,
        typeof b.queue_id === 'string' && b.queue_id !== '',
        `queue_id ${JSON.stringify(b.queue_id)} for an authenticated caller`,
        res,
      );
      ctx.check(R.lastEventId, Number.isInteger(b.last_event_id), `last_event_id ${JSON.stringify(b.last_event_id)}`, res);
      ctx.check(
        R.serviceFeatureLevel,
        Number.isInteger(b.service_feature_level) && (b.service_feature_level as number) >= 3,
        `service_feature_level ${JSON.stringify(b.service_feature_level)}`,
        res,
      );
      ctx.check(
        R.featureLevelReported,
        b.service_feature_level === ctx.level,
        `service_feature_level ${JSON.stringify(b.service_feature_level)}, the target's level ${ctx.level}`,
        res,
      );
      ctx.check(
        R.serviceVersion,
        typeof b.service_version === 'string' && b.service_version !== '',
        `service_version ${JSON.stringify(b.service_version)}`,
        res,
      );
      ctx.expectEqual(R.fetchEventTypes, keysPresent(res), [], 'state keys with fetch_event_types []', res);
    },
  }),
  ...scenarios(KEYS, (k) =>
    scenario({
      id: `events/register-key-${k.key.replace(/_/g, '-')}`,
      title: `${k.key} is returned when ${k.type} is in fetch_event_types, and only then`,
      rules: [k.rule, R.fetchEventTypes],
      requires: { roles: ['member'] },
      async when(ctx) {
        const member = ctx.as('member');
        return {
          named: await registerOnce(ctx, member, { event_types: ['drafts'], fetch_event_types: [k.type] }),
          other: await registerOnce(ctx, member, { event_types: ['drafts'], fetch_event_types: ['drafts'] }),
        };
      },
      then(ctx, { named, other }) {
        ctx.expectSuccess(k.rule, named);
        if (keyExists(ctx, k)) {
          ctx.expectEqual(k.rule, keysPresent(named), [k.key], `state keys with fetch_event_types ["${k.type}"]`, named);
          ctx.check(k.rule, Array.isArray(named.body[k.key]), `${k.key} is an array`, named);
        } else {
          // Older than the key: the type is one the server does not support, so it is ignored (§4.21).
          const level = levelOf(k.feature!);
          ctx.expectEqual(k.rule, keysPresent(named), [], `below level ${level} state keys with fetch_event_types ["${k.type}"]`, named, {
            reference: { level },
          });
        }
        ctx.expectEqual(k.rule, keysPresent(other), [], 'state keys with fetch_event_types ["drafts"]', other);
      },
    }),
  ),
  scenario({
    id: 'events/register-fetch-everything-by-default',
    title: 'with neither event_types nor fetch_event_types the snapshot holds every type',
    rules: [R.registerAllOptional, R.registerSnapshot, R.fetchEventTypes, R.eventTypes, R.unreadMsgs],
    requires: { roles: ['member'] },
    when: (ctx) => registerOnce(ctx, ctx.as('member')),
    then(ctx, res) {
      ctx.expectSuccess(R.registerAllOptional, res);
      ctx.check(R.registerSnapshot, typeof res.body.queue_id === 'string', 'a queue was allocated', res);
      // Every key the scenario's level knows (the level a key came with is in KEYS).
      ctx.expectEqual(
        R.fetchEventTypes,
        keysPresent(res),
        KEYS.filter((k) => keyExists(ctx, k)).map((k) => k.key),
        `state keys at level ${ctx.level}`,
        res,
      );
      const unread = has(res.body, 'unread_msgs');
      ctx.check(
        R.eventTypes,
        unread,
        'event_types defaults to every type (unread_msgs, which needs message and update_message_flags, is present)',
        res,
      );
      ctx.check(R.unreadMsgs, unread, 'unread_msgs present', res);
    },
  }),
  scenario({
    id: 'events/register-fetch-defaults-to-event-types',
    title: 'without fetch_event_types the snapshot holds the types of event_types',
    rules: [R.fetchEventTypes],
    requires: { roles: ['member'] },
    when: (ctx) => registerOnce(ctx, ctx.as('member'), { event_types: ['saved_snippets', 'subscription'] }),
    then(ctx, res) {
      ctx.expectSuccess(R.fetchEventTypes, res);
      ctx.expectEqual(R.fetchEventTypes, keysPresent(res), ['saved_snippets', 'subscriptions'], 'state keys', res);
    },
  }),
  scenario({
    id: 'events/register-fetch-overrides-event-types',
    title: 'fetch_event_types, when given, decides the snapshot instead of event_types',
    rules: [R.fetchEventTypes],
    requires: { roles: ['member'] },
    // recent_private_conversations is a key of every level, so the override is checked at every level.
    when: (ctx) =>
      registerOnce(ctx, ctx.as('member'), { event_types: ['saved_snippets'], fetch_event_types: ['recent_private_conversations'] }),
    then(ctx, res) {
      ctx.expectSuccess(R.fetchEventTypes, res);
      ctx.expectEqual(R.fetchEventTypes, keysPresent(res), ['recent_private_conversations'], 'state keys', res);
    },
  }),
  scenario({
    id: 'events/register-unknown-event-type-ignored',
    title: 'an unsupported name in event_types is ignored, not refused',
    rules: [R.eventTypes],
    requires: { roles: ['member'] },
    when: (ctx) => registerOnce(ctx, ctx.as('member'), { event_types: ['saved_snippets', 'no_such_event_type_xyz'] }),
    then(ctx, res) {
      ctx.expectSuccess(R.eventTypes, res);
      ctx.check(R.eventTypes, Array.isArray(res.body.saved_snippets), 'the supported type is still fetched', res);
    },
  }),
  ...scenarios(
    [
      { label: 'both', event_types: ['message', 'update_message_flags'], fetch: undefined, present: true },
      { label: 'both-fetching-other', event_types: ['message', 'update_message_flags'], fetch: ['drafts'], present: true },
      { label: 'message-only', event_types: ['message'], fetch: undefined, present: false },
      { label: 'flags-only', event_types: ['update_message_flags'], fetch: undefined, present: false },
    ],
    (row) =>
      scenario({
        id: `events/register-unread-msgs-${row.label}`,
        title: `unread_msgs is ${row.present ? 'present' : 'absent'} with event_types ${JSON.stringify(row.event_types)}${row.fetch ? ` and fetch_event_types ${JSON.stringify(row.fetch)}` : ''}`,
        rules: [R.unreadMsgs],
        requires: { roles: ['member'] },
        when: (ctx) => registerOnce(ctx, ctx.as('member'), { event_types: row.event_types, fetch_event_types: row.fetch }),
        then(ctx, res) {
          ctx.expectSuccess(R.unreadMsgs, res);
          const u = res.body.unread_msgs as Record<string, unknown> | undefined;
          ctx.expectEqual(R.unreadMsgs, has(res.body, 'unread_msgs'), row.present, 'unread_msgs present', res);
          if (row.present)
            ctx.check(
              R.unreadMsgs,
              Number.isInteger(u?.count) &&
                Array.isArray(u?.pms) &&
                Array.isArray(u?.streams) &&
                Array.isArray(u?.huddles) &&
                Array.isArray(u?.mentions),
              'unread_msgs has count, pms, streams, huddles and mentions',
              res,
            );
        },
      }),
  ),
  scenario({
    id: 'events/event-types-filter-queue',
    title: 'a queue receives only the event types it registered for',
    rules: [R.eventTypes, R.queueLimited],
    requires: { roles: ['member'] },
    isolated: true,
    async given(ctx) {
      return {
        drafts: await openQueue(ctx, 'member', { event_types: ['drafts'] }),
        snippets: await openQueue(ctx, 'member', { event_types: ['saved_snippets'] }),
      };
    },
    async when(ctx) {
      await createDraft(ctx, 'member', ctx.unique('draft'));
      const snippet = ctx.must(
        await ctx.as('member').post('/api/v1/saved_snippets', { title: ctx.unique('snippet'), content: 'text' }),
        'create a saved snippet',
      );
      ctx.defer(() => ctx.as('member').delete(`/api/v1/saved_snippets/${String(snippet.body.saved_snippet_id)}`));
      return snippet;
    },
    async then(ctx, _res, q) {
      const snippets = await eventsUntil(q.snippets, (e) => e.type === 'saved_snippets');
      ctx.check(R.queueLimited, snippets.found !== undefined, 'the saved_snippets queue got the snippet event', snippets.reply);
      const foreign = snippets.events.filter((e) => e.type !== 'saved_snippets' && e.type !== 'heartbeat').map((e) => e.type);
      ctx.expectEqual(R.eventTypes, foreign, [], 'other event types in the saved_snippets queue (the draft came first)', snippets.reply);
      const drafts = await eventsUntil(q.drafts, (e) => e.type === 'drafts');
      const types = [...new Set(drafts.events.map((e) => e.type).filter((t) => t !== 'heartbeat'))];
      ctx.expectEqual(R.eventTypes, types, ['drafts'], 'event types in the drafts queue', drafts.reply);
    },
  }),
];
