import { scenario, scenarios, type Requirements } from '../../src/dsl.js';
import type { Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { future, listScheduled, removeLater, schedule, storedScheduled } from './support.js';

/**
 * Spec §9 level boundaries of this area, both sides of each: 184 (editing moved to PATCH,
 * scheduled_message_id dropped from creation), 248 ('channel' type), 334 (the empty topic), 370
 * ('(no topic)' read as the empty topic). On the mock each runs in a realm at that level.
 */

const createIn = async (ctx: ScenarioContext, type: string, topic: string): Promise<Reply> =>
  ctx.as('member').post('/api/v1/scheduled_messages', {
    type,
    to: ctx.channel('public').stream_id,
    topic,
    content: 'level boundary',
    scheduled_delivery_timestamp: await future(ctx),
  });

/** The stored topic of a scheduled message the when-step created (read with the empty_topic_name capability). */
async function expectStoredTopic(
  ctx: ScenarioContext,
  rules: { accepted: string; stored: string },
  res: Reply,
  topic: string,
): Promise<void> {
  removeLater(ctx, 'member', res);
  if (!ctx.expectSuccess(rules.accepted, res)) return;
  const { reply, item } = await storedScheduled(ctx, 'member', res.body.scheduled_message_id as number);
  ctx.expectEqual(rules.stored, item?.topic, topic, 'stored topic', reply);
}

/**
 * Creating a scheduled message on either side of a boundary: refused (under the rule given), or accepted
 * (rule `accepted`) and stored with the topic `stored` (rule `stored`).
 */
type Outcome = { refused: string } | { accepted: string; stored: string; topic: string };
const BOUNDARY_ROWS: {
  key: string;
  title: string;
  rules: string[];
  level: Requirements['level'];
  type: string;
  topic: string;
  expect: Outcome;
}[] = [
  {
    key: '334-below-empty-topic-refused',
    title: 'below level 334 a channel message with the empty topic is refused',
    rules: ['R9-6'],
    level: { below: 'empty_topic_name' },
    type: 'stream',
    topic: '',
    expect: { refused: 'R9-6' },
  },
  {
    key: '334-from-empty-topic-valid',
    title: 'from level 334 the empty string is a valid topic for a channel message',
    rules: ['R1-6', 'R9-6'],
    level: { from: 'empty_topic_name' },
    type: 'stream',
    topic: '',
    expect: { accepted: 'R9-6', stored: 'R1-6', topic: '' },
  },
  {
    key: '370-below-no-topic-literal',
    title: 'below level 370 "(no topic)" is an ordinary topic name',
    rules: ['R9-7'],
    level: { below: 'no_topic_reads_as_empty' },
    type: 'stream',
    topic: '(no topic)',
    expect: { accepted: 'R9-7', stored: 'R9-7', topic: '(no topic)' },
  },
  {
    key: '370-from-no-topic-empty',
    title: 'from level 370 "(no topic)" sent as a topic is read as the empty topic',
    rules: ['R9-7'],
    level: { from: 'no_topic_reads_as_empty' },
    type: 'stream',
    topic: '(no topic)',
    expect: { accepted: 'R9-7', stored: 'R9-7', topic: '' },
  },
  {
    key: '248-below-channel-type-refused',
    title: "below level 248 'channel' is not a type value of scheduled messages",
    rules: ['R9-5'],
    level: { below: 'channel_type_value' },
    type: 'channel',
    topic: 'typed',
    expect: { refused: 'R9-5' },
  },
];

export default [
  ...scenarios(BOUNDARY_ROWS, (row) =>
    scenario({
      id: `topics/level-${row.key}`,
      title: row.title,
      rules: row.rules,
      requires: { roles: ['member'], channels: ['public'], level: row.level },
      when: (ctx) => createIn(ctx, row.type, row.topic),
      async then(ctx, res) {
        if ('stored' in row.expect) return expectStoredTopic(ctx, row.expect, res, row.expect.topic);
        removeLater(ctx, 'member', res);
        ctx.expectError(row.expect.refused, res, { status: 400, code: 'BAD_REQUEST' });
      },
    }),
  ),
  scenario({
    id: 'topics/level-248-from-channel-type-accepted',
    title: "from level 248 'channel' schedules a channel message",
    rules: ['R4.1-1', 'R9-5', 'R2.1-2'],
    requires: { roles: ['member'], channels: ['public'], level: { from: 'channel_type_value' } },
    when: (ctx) => createIn(ctx, 'channel', 'typed'),
    async then(ctx, res) {
      removeLater(ctx, 'member', res);
      if (!ctx.expectSuccess('R9-5', res)) return;
      const item = (await listScheduled(ctx, 'member')).find((m) => m.scheduled_message_id === res.body.scheduled_message_id);
      ctx.check(
        'R2.1-2',
        item?.type === 'channel' || item?.type === 'stream',
        `type ${JSON.stringify(item?.type)} means a channel message`,
      );
      ctx.expectEqual('R4.1-1', item?.to, ctx.channel('public').stream_id, 'to of the message scheduled with type channel');
    },
  }),

  scenario({
    id: 'topics/level-184-below-create-edits',
    title: 'below level 184 creating with scheduled_message_id edits that scheduled message',
    rules: ['R9-4'],
    requires: { roles: ['member'], channels: ['public'], level: { below: 'scheduled_message_edit_endpoint' } },
    async given(ctx) {
      const at = await future(ctx);
      return {
        at,
        id: await schedule(ctx, 'member', {
          type: 'stream',
          to: ctx.channel('public').stream_id,
          topic: 'before',
          content: 'first',
          scheduled_delivery_timestamp: at,
        }),
      };
    },
    when: (ctx, g) =>
      ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'stream',
        to: ctx.channel('public').stream_id,
        topic: 'after',
        content: 'edited',
        scheduled_delivery_timestamp: g.at,
        scheduled_message_id: g.id,
      }),
    async then(ctx, res, g) {
      removeLater(ctx, 'member', res);
      ctx.expectSuccess('R9-4', res, { scheduled_message_id: g.id });
      const mine = (await listScheduled(ctx, 'member')).filter((m) => m.topic === 'before' || m.topic === 'after');
      ctx.expectEqual(
        'R9-4',
        mine.map((m) => [m.scheduled_message_id, m.content]),
        [[g.id, 'edited']],
        'the one scheduled message, edited in place',
      );
    },
  }),
  scenario({
    id: 'topics/level-184-below-no-patch',
    title: 'below level 184 there is no PATCH operation for scheduled messages',
    rules: ['R9-4'],
    requires: { roles: ['member'], channels: ['public'], level: { below: 'scheduled_message_edit_endpoint' } },
    given: async (ctx) =>
      schedule(ctx, 'member', {
        type: 'stream',
        to: ctx.channel('public').stream_id,
        topic: 'old',
        content: 'unchanged',
        scheduled_delivery_timestamp: await future(ctx),
      }),
    when: (ctx, id) => ctx.as('member').patch(`/api/v1/scheduled_messages/${id}`, { content: 'patched' }),
    async then(ctx, res, id) {
      ctx.check(
        'R9-4',
        res.status >= 400 && res.body.result === 'error',
        `PATCH answered HTTP ${res.status} ${JSON.stringify(res.body.result)}`,
        res,
      );
      const item = (await listScheduled(ctx, 'member')).find((m) => m.scheduled_message_id === id);
      ctx.expectEqual('R9-4', item?.content, 'unchanged', 'content after the PATCH');
    },
  }),
  scenario({
    id: 'topics/level-184-from-create-ignores-id',
    title: 'from level 184 scheduled_message_id on creation is not a parameter: a new message is created',
    rules: ['R9-4', 'R1-4'],
    requires: { roles: ['member'], channels: ['public'], level: { from: 'scheduled_message_edit_endpoint' } },
    async given(ctx) {
      const at = await future(ctx);
      return {
        at,
        id: await schedule(ctx, 'member', {
          type: 'stream',
          to: ctx.channel('public').stream_id,
          topic: 'first',
          content: 'first',
          scheduled_delivery_timestamp: at,
        }),
      };
    },
    when: (ctx, g) =>
      ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'stream',
        to: ctx.channel('public').stream_id,
        topic: 'second',
        content: 'second',
        scheduled_delivery_timestamp: g.at,
        scheduled_message_id: g.id,
      }),
    async then(ctx, res, g) {
      removeLater(ctx, 'member', res);
      if (!ctx.expectSuccess('R9-4', res)) return;
      ctx.check(
        'R9-4',
        res.body.scheduled_message_id !== g.id,
        `a new ID ${JSON.stringify(res.body.scheduled_message_id)} (not ${g.id})`,
        res,
      );
      const ignored = res.body.ignored_parameters_unsupported;
      ctx.check(
        'R1-4',
        Array.isArray(ignored) && ignored.includes('scheduled_message_id'),
        `ignored_parameters_unsupported ${JSON.stringify(ignored)}`,
        res,
      );
      const first = (await listScheduled(ctx, 'member')).find((m) => m.scheduled_message_id === g.id);
      ctx.expectEqual('R9-4', first?.content, 'first', 'the earlier scheduled message is unchanged');
    },
  }),
];
