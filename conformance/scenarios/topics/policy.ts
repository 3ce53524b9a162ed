import { SetupError } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import type { FeatureName } from '../../src/openapi.js';
import { asArray, channelInfo, displayName, future, removeLater, setPolicy, storedScheduled } from './support.js';

/**
 * topics_policy (§2.2, §3, §4.16) and §1 "where a topic is required for a channel message", read through
 * the channel's topics_policy as the reference does: a disable_empty_topic channel refuses "", "(no
 * topic)" and the display name; an empty_topic_only channel takes only the empty topic.
 */

const POLICIES = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'];

type Spelling = { key: string; label: string; topic: 'empty' | 'no-topic' | 'display'; level?: FeatureName };
const REFUSED: Spelling[] = [
  { key: 'empty-string', label: 'the empty string', topic: 'empty' },
  { key: 'no-topic', label: '"(no topic)"', topic: 'no-topic', level: 'no_topic_reads_as_empty' },
  // realm_empty_topic_display_name exists from the level that made the empty topic valid.
  { key: 'display-name', label: 'the display name', topic: 'display', level: 'empty_topic_name' },
];

export default [
  ...scenarios(REFUSED, (row) =>
    scenario({
      id: `topics/required-topic-refuses-${row.key}`,
      title: `a channel that requires a topic refuses ${row.label} as the topic`,
      rules: ['R1-9'],
      requires: { roles: ['member'], channels: ['disable_empty_topic'], ...(row.level ? { level: { from: row.level } } : {}) },
      async given(ctx) {
        const topic = row.topic === 'empty' ? '' : row.topic === 'no-topic' ? '(no topic)' : await displayName(ctx);
        return { topic, at: await future(ctx) };
      },
      when: (ctx, g) =>
        ctx.as('member').post('/api/v1/scheduled_messages', {
          type: 'stream',
          to: ctx.channel('disable_empty_topic').stream_id,
          topic: g.topic,
          content: 'needs a topic',
          scheduled_delivery_timestamp: g.at,
        }),
      then(ctx, res) {
        removeLater(ctx, 'member', res);
        ctx.expectError('R1-9', res, { status: 400, code: 'BAD_REQUEST' });
      },
    }),
  ),

  scenario({
    id: 'topics/required-topic-accepts-named-topic',
    title: 'a channel that requires a topic accepts a named topic',
    rules: ['R1-9', 'R4.1-7'],
    requires: { roles: ['member'], channels: ['disable_empty_topic'] },
    given: (ctx) => future(ctx),
    when: (ctx, at) =>
      ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'stream',
        to: ctx.channel('disable_empty_topic').stream_id,
        topic: 'a real topic',
        content: 'named',
        scheduled_delivery_timestamp: at,
      }),
    then(ctx, res) {
      removeLater(ctx, 'member', res);
      ctx.expectSuccess('R1-9', res);
      ctx.check(
        'R4.1-7',
        typeof res.body.scheduled_message_id === 'number' && Number.isInteger(res.body.scheduled_message_id),
        `scheduled_message_id ${JSON.stringify(res.body.scheduled_message_id)}`,
        res,
      );
    },
  }),

  scenario({
    id: 'topics/empty-topic-only-refuses-named-topic',
    title: 'an empty_topic_only channel refuses a named topic',
    rules: ['R3-3'],
    requires: { roles: ['member'], channels: ['empty_topic_only'] },
    given: (ctx) => future(ctx),
    when: (ctx, at) =>
      ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'stream',
        to: ctx.channel('empty_topic_only').stream_id,
        topic: 'not allowed here',
        content: 'named',
        scheduled_delivery_timestamp: at,
      }),
    then(ctx, res) {
      removeLater(ctx, 'member', res);
      ctx.expectError('R3-3', res, { status: 400, code: 'BAD_REQUEST' });
    },
  }),

  scenario({
    id: 'topics/empty-topic-only-accepts-empty-topic',
    title: 'an empty_topic_only channel accepts the empty topic',
    rules: ['R3-3', 'R1-6'],
    requires: { roles: ['member'], channels: ['empty_topic_only'], level: { from: 'empty_topic_name' } },
    given: (ctx) => future(ctx),
    when: (ctx, at) =>
      ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'stream',
        to: ctx.channel('empty_topic_only').stream_id,
        topic: '',
        content: 'empty',
        scheduled_delivery_timestamp: at,
      }),
    async then(ctx, res) {
      removeLater(ctx, 'member', res);
      if (!ctx.expectSuccess('R3-3', res)) return;
      const { reply, item } = await storedScheduled(ctx, 'member', res.body.scheduled_message_id as number);
      ctx.expectEqual('R1-6', item?.topic, '', 'stored topic', reply);
    },
  }),

  scenario({
    id: 'topics/policy-values-in-channel-list',
    title: "every channel's topics_policy is one of the four values, and the world's special channels carry theirs",
    rules: ['R2.2-6', 'R3-3'],
    requires: { roles: ['member'], channels: ['empty_topic_only', 'disable_empty_topic'] },
    when: (ctx) => ctx.as('member').get('/api/v1/streams'),
    then(ctx, res) {
      const streams = asArray(res.body.streams);
      ctx.expectSuccess('R2.2-6', res);
      if (!ctx.has('channel_topics_policy_field')) {
        // Older servers send no topics_policy at all (the reference's get-streams).
        const carrying = streams.filter((s) => 'topics_policy' in s).map((s) => s.stream_id);
        ctx.check('R2.2-6', carrying.length === 0, `channels with topics_policy below level 392: ${JSON.stringify(carrying)}`, res, {
          reference: { operation: 'get-streams', level: 392 },
        });
        return;
      }
      const bad = streams.filter((s) => !POLICIES.includes(s.topics_policy as string)).map((s) => [s.stream_id, s.topics_policy]);
      ctx.check(
        'R2.2-6',
        streams.length > 0 && bad.length === 0,
        bad.length ? `unexpected topics_policy values ${JSON.stringify(bad)}` : `${streams.length} channels with valid topics_policy`,
        res,
      );
      const policy = (kind: 'empty_topic_only' | 'disable_empty_topic') =>
        streams.find((s) => s.stream_id === ctx.channel(kind).stream_id)?.topics_policy;
      ctx.expectEqual(
        'R3-3',
        [policy('empty_topic_only'), policy('disable_empty_topic')],
        ['empty_topic_only', 'disable_empty_topic'],
        'topics_policy of the two special channels',
        res,
      );
    },
  }),

  scenario({
    id: 'topics/policy-unknown-value-refused',
    title: 'an unknown topics_policy value is refused and changes nothing',
    rules: ['R4.16-15'],
    // Older servers know no topics_policy parameter: they would ignore it, not refuse it.
    requires: { roles: ['administrator'], channels: ['public'], level: { from: 'channel_topics_policy_field' } },
    given: async (ctx) => (await channelInfo(ctx, 'administrator', ctx.channel('public').stream_id))?.topics_policy,
    when: (ctx) =>
      ctx.as('administrator').patch(`/api/v1/streams/${ctx.channel('public').stream_id}`, { topics_policy: 'only_on_tuesdays' }),
    async then(ctx, res, before) {
      // Should a faulty server take the value, the shared channel gets its old value back.
      if (res.status === 200 && typeof before === 'string')
        ctx.defer(() => ctx.as('administrator').patch(`/api/v1/streams/${ctx.channel('public').stream_id}`, { topics_policy: before }));
      ctx.expectError('R4.16-15', res, { status: 400, code: 'BAD_REQUEST' });
      const after = await channelInfo(ctx, 'administrator', ctx.channel('public').stream_id);
      ctx.expectEqual('R4.16-15', after?.topics_policy, before, 'topics_policy afterwards');
    },
  }),

  scenario({
    id: 'topics/policy-empty-topic-only-refused-with-named-topics',
    title: 'empty_topic_only is refused for a channel with messages in named topics',
    rules: ['R3-8'],
    requires: { roles: ['administrator'], channels: ['public'], level: { from: 'channel_topics_policy_empty_topic_only' } },
    isolated: true,
    async given(ctx) {
      const before = await channelInfo(ctx, 'administrator', ctx.channel('public').stream_id);
      return before?.topics_policy;
    },
    when: (ctx) =>
      ctx.as('administrator').patch(`/api/v1/streams/${ctx.channel('public').stream_id}`, { topics_policy: 'empty_topic_only' }),
    async then(ctx, res, before) {
      if (res.status === 200)
        ctx.defer(() =>
          ctx.as('administrator').patch(`/api/v1/streams/${ctx.channel('public').stream_id}`, { topics_policy: before as string }),
        );
      ctx.expectError('R3-8', res, { status: 400, code: 'BAD_REQUEST' });
      const after = await channelInfo(ctx, 'administrator', ctx.channel('public').stream_id);
      ctx.expectEqual('R3-8', after?.topics_policy, before, 'topics_policy after the refusal');
    },
  }),

  scenario({
    id: 'topics/policy-empty-topic-only-accepted-when-all-empty',
    title: 'empty_topic_only is accepted for a channel whose messages are all in the empty topic',
    rules: ['R3-8'],
    requires: { roles: ['administrator'], channels: ['empty_topic_only'], level: { from: 'channel_topics_policy_empty_topic_only' } },
    isolated: true,
    // The world's empty_topic_only channel holds only empty-topic messages: move it away, then back.
    given: (ctx) => setPolicy(ctx, ctx.channel('empty_topic_only').stream_id, 'allow_empty_topic'),
    when: (ctx) =>
      ctx.as('administrator').patch(`/api/v1/streams/${ctx.channel('empty_topic_only').stream_id}`, { topics_policy: 'empty_topic_only' }),
    async then(ctx, res) {
      ctx.expectSuccess('R3-8', res);
      const after = await channelInfo(ctx, 'administrator', ctx.channel('empty_topic_only').stream_id);
      ctx.expectEqual('R3-8', after?.topics_policy, 'empty_topic_only', 'topics_policy after the change');
    },
  }),

  scenario({
    id: 'topics/policy-inherit-follows-realm',
    title: 'a channel set to inherit takes the realm default (here: the empty topic allowed)',
    rules: ['R3-3', 'R4.16-15'],
    // Needs topics_policy (392), which comes after the empty topic itself (334).
    requires: { roles: ['administrator', 'member'], channels: ['disable_empty_topic'], level: { from: 'channel_topics_policy_field' } },
    isolated: true,
    async given(ctx) {
      if (ctx.world.realm.topics_policy !== 'allow_empty_topic')
        throw new SetupError(`needs a realm default of allow_empty_topic (the world says ${ctx.world.realm.topics_policy})`);
      await setPolicy(ctx, ctx.channel('disable_empty_topic').stream_id, 'inherit');
      return future(ctx);
    },
    when: (ctx, at) =>
      ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'stream',
        to: ctx.channel('disable_empty_topic').stream_id,
        topic: '',
        content: 'inherited',
        scheduled_delivery_timestamp: at,
      }),
    async then(ctx, res) {
      removeLater(ctx, 'member', res);
      ctx.expectSuccess('R3-3', res);
      const after = await channelInfo(ctx, 'administrator', ctx.channel('disable_empty_topic').stream_id);
      ctx.expectEqual('R4.16-15', after?.topics_policy, 'inherit', 'topics_policy after the change');
    },
  }),

  scenario({
    id: 'topics/policy-new-channel-inherits',
    title: 'a new channel created without topics_policy gets inherit',
    rules: ['R3-8'],
    requires: { roles: ['member'], level: { from: 'channel_topics_policy_field' } },
    isolated: true,
    given: (ctx) => ctx.unique('fresh'),
    async when(ctx, name) {
      const res = await ctx.as('member').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name }] });
      ctx.defer(async () => {
        const id = await ctx.as('member').get('/api/v1/get_stream_id', { stream: name });
        if (typeof id.body.stream_id === 'number') await ctx.as('administrator').delete(`/api/v1/streams/${id.body.stream_id}`);
      });
      return res;
    },
    async then(ctx, res, name) {
      if (!ctx.expectSuccess('R3-8', res)) return;
      const streams = asArray(ctx.must(await ctx.as('member').get('/api/v1/streams'), 'list channels').body.streams);
      ctx.expectEqual('R3-8', streams.find((s) => s.name === name)?.topics_policy, 'inherit', 'topics_policy of the new channel');
    },
  }),
];
