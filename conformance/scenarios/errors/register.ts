import { scenario, scenarios } from '../../src/dsl.js';
import type { FeatureName } from '../../src/openapi.js';
import { channelFieldsAt, channelHas, expectAbsentBelow, expectChannelFieldsAbsent } from '../level-fields.js';
import { asArray, expectFields, isGroupValue, isInt, isIntArray } from './support.js';

/**
 * Success shape of §4.21 register: the top-level fields, the keys per fetched type, the structures of
 * §2.3 (subscriptions) and §2.13 (recent private conversations), include_subscribers, and the
 * unauthenticated access of §5. Every queue made here is deleted at once.
 */

const boolOrNull = (v: unknown) => v === null || typeof v === 'boolean';

export default [
  scenario({
    id: 'errors/register-shape',
    title: 'register with no parameter returns queue_id, last_event_id, service_feature_level and service_version; the queue serves events',
    rules: ['R4.21-1', 'R4.21-2', 'R4.21-20', 'R4.21-21', 'R4.21-22', 'R4.21-23', 'R9-2', 'R6-1'],
    async when(ctx) {
      const res = await ctx.as('member').post('/api/v1/register');
      if (typeof res.body.queue_id === 'string')
        ctx.defer(() => ctx.as('member').delete('/api/v1/events', { queue_id: res.body.queue_id as string }));
      return res;
    },
    async then(ctx, res) {
      ctx.expectSuccess('R4.21-2', res);
      ctx.check('R4.21-20', typeof res.body.queue_id === 'string', `queue_id ${JSON.stringify(res.body.queue_id)}`, res);
      ctx.check('R4.21-21', isInt(res.body.last_event_id), `last_event_id ${JSON.stringify(res.body.last_event_id)}`, res);
      ctx.check(
        'R4.21-22',
        isInt(res.body.service_feature_level),
        `service_feature_level ${JSON.stringify(res.body.service_feature_level)}`,
        res,
      );
      ctx.check(
        'R4.21-23',
        typeof res.body.service_version === 'string',
        `service_version ${JSON.stringify(res.body.service_version)}`,
        res,
      );
      ctx.check(
        'R9-2',
        isInt(res.body.service_feature_level) && typeof res.body.service_version === 'string',
        'the feature level and version are returned by register',
        res,
      );
      if (typeof res.body.queue_id !== 'string') return;
      const events = await ctx
        .as('member')
        .get('/api/v1/events', { queue_id: res.body.queue_id, last_event_id: res.body.last_event_id as number, dont_block: true });
      ctx.expectSuccess('R6-1', events);
      ctx.check('R4.21-1', Array.isArray(events.body.events), 'the allocated queue answers an events fetch', events);
    },
  }),
  scenario({
    id: 'errors/register-fetch-types',
    title:
      'register returns recent_private_conversations, navigation_views, saved_snippets, subscriptions and channel_folders when fetched',
    rules: ['R4.21-11', 'R4.21-24', 'R4.21-25', 'R4.21-26', 'R4.21-27', 'R4.21-28', 'R2.4-1'],
    when: (ctx) =>
      ctx.snapshot('member', {
        event_types: ['message'],
        fetch_event_types: ['recent_private_conversations', 'navigation_views', 'saved_snippets', 'subscription', 'channel_folders'],
      }),
    then: (ctx, res) => {
      ctx.expectSuccess('R4.21-11', res);
      // Keys added after the reference's first levels name that level: an older server does not know them.
      const keys: [rule: string, key: string, feature?: FeatureName][] = [
        ['R4.21-24', 'recent_private_conversations'],
        ['R4.21-25', 'navigation_views', 'navigation_views'],
        ['R4.21-26', 'saved_snippets', 'saved_snippets'],
        ['R4.21-27', 'subscriptions'],
        ['R4.21-28', 'channel_folders', 'channel_folders'],
      ];
      for (const [rule, key, feature] of keys) {
        if (feature && expectAbsentBelow(ctx, rule, feature, key, [res.body], 'register answers', res)) continue;
        ctx.check(rule, Array.isArray(res.body[key]), `${key}: ${JSON.stringify(res.body[key])?.slice(0, 80) ?? 'absent'}`, res);
      }
      if (!ctx.has('channel_folders')) return;
      const folders = asArray(res.body.channel_folders);
      ctx.check(
        'R2.4-1',
        folders.every(
          (f) =>
            isInt(f.id) && typeof f.name === 'string' && isInt(f.order) && (f.order as number) >= 0 && typeof f.is_archived === 'boolean',
        ),
        `${folders.length} folders with integer order`,
        res,
      );
    },
  }),
  scenario({
    id: 'errors/recent-private-conversations',
    title: 'recent private conversations list the other users (never the caller) and the newest message ID',
    rules: ['R2.13-1', 'R4.21-24'],
    requires: { roles: ['member', 'member_2'] },
    when: (ctx) => ctx.snapshot('member', { event_types: ['message'], fetch_event_types: ['recent_private_conversations'] }),
    then: (ctx, res) => {
      ctx.expectSuccess('R4.21-24', res);
      const list = asArray(res.body.recent_private_conversations);
      const me = ctx.user('member').user_id;
      ctx.check(
        'R2.13-1',
        list.every((c) => isInt(c.max_message_id) && isIntArray(c.user_ids) && !c.user_ids.includes(me)),
        'entries: max_message_id and user_ids without the caller',
        res,
      );
      const withMember2 = list.find((c) => JSON.stringify(c.user_ids) === JSON.stringify([ctx.user('member_2').user_id]));
      ctx.check(
        'R2.13-1',
        withMember2 !== undefined && (withMember2.max_message_id as number) >= ctx.world.messages.direct.id,
        `the conversation with member_2: ${JSON.stringify(withMember2)}`,
        res,
      );
    },
  }),
  scenario({
    id: 'errors/register-subscriptions',
    title: 'subscriptions in register carry the §2.3 fields; channels carry the permission groups',
    rules: ['R2.3-1', 'R2.3-3', 'R2.3-4', 'R2.3-5', 'R2.3-6', 'R2.3-7', 'R2.3-8', 'R2.2-12', 'R9-8'],
    when: (ctx) => ctx.snapshot('member', { event_types: ['subscription', 'stream'], fetch_event_types: ['subscription', 'stream'] }),
    then: (ctx, res) => {
      ctx.expectSuccess('R2.3-8', res);
      const subs = asArray(res.body.subscriptions);
      const every = (f: (s: Record<string, unknown>) => boolean) => subs.length > 0 && subs.every(f);
      expectFields(
        ctx,
        'R2.3-8',
        subs[0],
        {
          stream_id: 'integer',
          name: 'string',
          color: 'string',
          pin_to_top: 'boolean',
          is_muted: 'boolean',
          in_home_view: 'boolean',
          ...(channelHas(ctx, 'can_subscribe_group') ? { can_subscribe_group: 'group' as const } : {}),
        },
        'a subscription',
        res,
      );
      ctx.check(
        'R2.3-1',
        every((s) => !('subscribers' in s)),
        'no subscribers without include_subscribers',
        res,
      );
      const notes = [
        'desktop_notifications',
        'email_notifications',
        'wildcard_mentions_notify',
        'push_notifications',
        'audible_notifications',
      ];
      ctx.check(
        'R2.3-3',
        every((s) => notes.every((n) => n in s && boolOrNull(s[n]))),
        'notification settings boolean or null',
        res,
      );
      ctx.check(
        'R2.3-4',
        every((s) => s.in_home_view === !s.is_muted),
        'in_home_view is the inverse of is_muted',
        res,
      );
      ctx.check(
        'R2.3-5',
        every((s) => typeof s.is_announcement_only === 'boolean' && [1, 2, 3, 4].includes(s.stream_post_policy as number)),
        'deprecated is_announcement_only and stream_post_policy',
        res,
      );
      ctx.check(
        'R2.3-6',
        every((s) => s.stream_weekly_traffic === null || isInt(s.stream_weekly_traffic)),
        'stream_weekly_traffic integer or null',
        res,
      );
      if (channelHas(ctx, 'can_subscribe_group'))
        ctx.check(
          'R2.3-7',
          every((s) => 'can_subscribe_group' in s),
          'can_subscribe_group on every subscription',
          res,
        );
      if (channelHas(ctx, 'subscriber_count'))
        ctx.check(
          'R2.3-8',
          every((s) => typeof s.subscriber_count === 'number' && s.subscriber_count >= 1),
          'subscriber_count a number (at least the caller)',
          res,
        );
      expectChannelFieldsAbsent(ctx, 'R2.3-7', ['can_subscribe_group'], subs, 'subscriptions', res);
      expectChannelFieldsAbsent(ctx, 'R2.3-8', ['subscriber_count'], subs, 'subscriptions', res);
      const channels = asArray(res.body.streams);
      const allPerms = [
        'can_move_messages_within_channel_group',
        'can_send_message_group',
        'can_subscribe_group',
        'can_resolve_topics_group',
      ];
      // Each permission came at a level of its own (can_subscribe_group 357, …): those of the scenario's level.
      const perms = channelFieldsAt(ctx, allPerms);
      if (ctx.has('can_send_message_group')) {
        ctx.check(
          'R2.2-12',
          channels.length > 0 && channels.every((c) => perms.every((p) => isGroupValue(c[p]))),
          `register channel objects carry ${perms.join(', ')}`,
          res,
        );
        expectChannelFieldsAbsent(ctx, 'R2.2-12', allPerms, channels, 'register channel objects', res);
      } else {
        // Below level 333 the channel's posting rule is stream_post_policy (§9).
        ctx.check(
          'R9-8',
          channels.length > 0 && channels.every((c) => [1, 2, 3, 4].includes(c.stream_post_policy as number)),
          'below level 333 channels carry stream_post_policy',
          res,
        );
      }
    },
  }),
  scenario({
    id: 'errors/register-include-subscribers',
    title: 'include_subscribers true adds subscribers (user IDs) to each subscription',
    rules: ['R2.3-1', 'R4.21-5'],
    when: (ctx) =>
      ctx.snapshot('member', { event_types: ['subscription'], fetch_event_types: ['subscription'], include_subscribers: 'true' }),
    then: (ctx, res) => {
      ctx.expectSuccess('R4.21-5', res);
      const subs = asArray(res.body.subscriptions);
      ctx.check('R2.3-1', subs.length > 0 && subs.every((s) => isIntArray(s.subscribers)), 'every subscription has subscribers', res);
      const pub = subs.find((s) => s.stream_id === ctx.channel('public').stream_id);
      ctx.check(
        'R4.21-5',
        isIntArray(pub?.subscribers) && pub.subscribers.includes(ctx.user('member').user_id),
        "the public channel's subscribers include the caller",
        res,
      );
    },
  }),
  scenario({
    id: 'errors/register-unsupported-event-type',
    title: 'an event type the server does not know is ignored',
    rules: ['R4.21-8'],
    when: (ctx) => ctx.snapshot('member', { event_types: ['drafts', 'no_such_event_type'] }),
    then: (ctx, res) => {
      ctx.expectSuccess('R4.21-8', res);
    },
  }),
  scenario({
    id: 'errors/register-anonymous',
    title: 'register without credentials gives a null queue_id in a realm with public access (refused otherwise)',
    rules: ['R5-4', 'R4.21-20'],
    when: (ctx) => ctx.anonymous.post('/api/v1/register', { client_gravatar: false, event_types: ['message'] }),
    then: (ctx, res) => {
      if (ctx.world.realm.spectator_access === true) {
        ctx.expectSuccess('R5-4', res);
        ctx.expectEqual('R4.21-20', res.body.queue_id, null, 'queue_id of an unauthenticated register', res);
      } else {
        ctx.check('R5-4', res.body.result === 'error' && res.status >= 400, `without public access: HTTP ${res.status}`, res);
      }
    },
  }),
  scenario({
    id: 'errors/no-credentials',
    title: 'an operation that does not say otherwise refuses a request without credentials',
    rules: ['R4-1', 'R5-1'],
    when: (ctx) => ctx.anonymous.get('/api/v1/drafts'),
    then: (ctx, res) => {
      ctx.check(
        'R4-1',
        res.body.result === 'error' && res.status >= 400 && res.status < 500,
        `HTTP ${res.status}: ${res.text.slice(0, 120)}`,
        res,
      );
      ctx.check('R5-1', res.body.drafts === undefined, 'no drafts without HTTP Basic credentials', res);
    },
  }),
  ...scenarios(
    [
      { key: 'client-gravatar', params: { client_gravatar: true }, rule: 'R4.21-4' },
      { key: 'include-subscribers', params: { client_gravatar: false, include_subscribers: 'true' }, rule: 'R4.21-5' },
    ],
    (row) =>
      scenario({
        id: `errors/register-anonymous-${row.key}`,
        title: `an unauthenticated register with ${row.key.replace('-', '_')} true is an error`,
        rules: ['R5-4', row.rule],
        when: (ctx) => ctx.anonymous.post('/api/v1/register', { event_types: ['message'], ...row.params }),
        then: (ctx, res) => {
          ctx.check(
            row.rule,
            res.body.result === 'error' && res.status >= 400 && res.status < 500,
            `HTTP ${res.status}: ${res.text.slice(0, 120)}`,
            res,
          );
          ctx.check('R5-4', res.body.queue_id === undefined, 'no queue was allocated', res);
        },
      }),
  ),
];
