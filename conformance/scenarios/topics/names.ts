import { scenario } from '../../src/dsl.js';
import { asArray, asObject, displayName, displayNameIfAny, future, need, removeLater, send, snapshot, storedScheduled } from './support.js';

/**
 * Spec §1 "Topic names": the empty topic, realm_empty_topic_display_name, and what clients without the
 * empty_topic_name capability see (§4.3 and §4.11 allow_empty_topic_name, §4.21 capability effects).
 */
export default [
  scenario({
    id: 'topics/register-display-name',
    title: 'register returns realm_empty_topic_display_name, a non-empty string',
    rules: ['R1-7', 'R9-6'],
    requires: { roles: ['member'] },
    when: (ctx) => snapshot(ctx, 'member', { event_types: ['realm'], fetch_event_types: ['realm'] }),
    then(ctx, res) {
      const name = res.body.realm_empty_topic_display_name;
      if (ctx.has('empty_topic_name'))
        ctx.check('R1-7', typeof name === 'string' && name !== '', `realm_empty_topic_display_name ${JSON.stringify(name)}`, res);
      // Older servers have no empty topic, hence no name for it (the reference's register-queue).
      else
        ctx.check('R9-6', !('realm_empty_topic_display_name' in res.body), 'no realm_empty_topic_display_name below level 334', res, {
          reference: { operation: 'register-queue', level: 334 },
        });
    },
  }),

  scenario({
    id: 'topics/display-name-read-as-empty',
    title: 'the display name sent as a topic is stored as the empty topic',
    rules: ['R1-7', 'R4.1-7'],
    requires: { roles: ['member'], channels: ['public'], level: { from: 'empty_topic_name' } },
    given: async (ctx) => ({ name: await displayName(ctx), at: await future(ctx) }),
    when: (ctx, g) =>
      ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'stream',
        to: ctx.channel('public').stream_id,
        topic: g.name,
        content: 'display name',
        scheduled_delivery_timestamp: g.at,
      }),
    async then(ctx, res) {
      removeLater(ctx, 'member', res);
      if (!ctx.expectSuccess('R4.1-7', res)) return;
      const { reply, item } = await storedScheduled(ctx, 'member', res.body.scheduled_message_id as number);
      ctx.expectEqual('R1-7', item?.topic, '', 'topic of the scheduled message (client with empty_topic_name)', reply);
    },
  }),

  scenario({
    id: 'topics/snapshot-without-capability-shows-display-name',
    title: 'a register snapshot for a client without empty_topic_name shows the empty topic as the display name',
    rules: ['R1-8', 'R4.21-17'],
    requires: { roles: ['member'], channels: ['public'], level: { from: 'empty_topic_name' } },
    async given(ctx) {
      const name = await displayName(ctx);
      const res = ctx.must(
        await ctx.as('member').post('/api/v1/scheduled_messages', {
          type: 'stream',
          to: ctx.channel('public').stream_id,
          topic: '',
          content: 'empty topic',
          scheduled_delivery_timestamp: await future(ctx),
        }),
        'schedule a message in the empty topic',
      );
      removeLater(ctx, 'member', res);
      return { name, id: res.body.scheduled_message_id as number };
    },
    when: (ctx, g) => storedScheduled(ctx, 'member', g.id, false),
    then(ctx, { reply, item }, g) {
      ctx.expectEqual('R4.21-17', item?.topic, g.name, 'topic in the snapshot without the capability', reply);
      ctx.check(
        'R1-8',
        item !== undefined && item.topic !== '',
        'the empty string is not shown to a client without empty-topic support',
        reply,
      );
    },
  }),

  scenario({
    id: 'topics/fetch-empty-topic-default-display-name',
    title: 'fetching a message of the empty topic without allow_empty_topic_name shows the display name',
    rules: ['R4.3-3', 'R1-8'],
    requires: { roles: ['member'] },
    given: async (ctx) => ({ name: await displayNameIfAny(ctx), id: need(ctx.world.messages.empty_topic, 'messages.empty_topic').id }),
    when: (ctx, g) => ctx.as('member').get(`/api/v1/messages/${g.id}`),
    then(ctx, res, g) {
      const subject = asObject(res.body.message).subject;
      ctx.expectSuccess('R4.3-3', res);
      if (g.name !== undefined) ctx.expectEqual('R4.3-3', subject, g.name, 'subject (allow_empty_topic_name defaults to false)', res);
      ctx.check('R1-8', subject !== '', 'the empty string is not shown to a client without empty-topic support', res);
    },
  }),

  scenario({
    id: 'topics/fetch-empty-topic-allowed',
    title: 'fetching a message of the empty topic with allow_empty_topic_name true shows ""',
    rules: ['R4.3-3'],
    requires: { roles: ['member'], level: { from: 'empty_topic_name' } },
    given: (ctx) => need(ctx.world.messages.empty_topic, 'messages.empty_topic'),
    when: (ctx, m) => ctx.as('member').get(`/api/v1/messages/${m.id}`, { allow_empty_topic_name: true }),
    then(ctx, res) {
      ctx.expectSuccess('R4.3-3', res);
      ctx.expectEqual('R4.3-3', asObject(res.body.message).subject, '', 'subject with allow_empty_topic_name true', res);
    },
  }),

  scenario({
    id: 'topics/topic-list-default-display-name',
    title: 'the topic list of a channel shows the empty topic as the display name by default',
    rules: ['R4.11-1', 'R1-8'],
    requires: { roles: ['member'] },
    given: async (ctx) => ({ name: await displayNameIfAny(ctx), m: need(ctx.world.messages.empty_topic, 'messages.empty_topic') }),
    when: (ctx, g) => ctx.as('member').get(`/api/v1/users/me/${g.m.stream_id}/topics`),
    then(ctx, res, g) {
      const names = asArray(res.body.topics).map((t) => t.name);
      ctx.expectSuccess('R4.11-1', res);
      if (g.name !== undefined)
        ctx.check('R4.11-1', names.includes(g.name), `topic names ${JSON.stringify(names)} hold ${JSON.stringify(g.name)}`, res);
      ctx.check('R1-8', !names.includes(''), 'no topic is named ""', res);
    },
  }),

  scenario({
    id: 'topics/topic-list-empty-topic-allowed',
    title: 'with allow_empty_topic_name true the topic list names the empty topic ""',
    rules: ['R4.11-1'],
    requires: { roles: ['member'], level: { from: 'empty_topic_name' } },
    given: (ctx) => need(ctx.world.messages.empty_topic, 'messages.empty_topic'),
    when: (ctx, m) => ctx.as('member').get(`/api/v1/users/me/${m.stream_id}/topics`, { allow_empty_topic_name: true }),
    then(ctx, res, m) {
      const topic = asArray(res.body.topics).find((t) => t.name === '');
      ctx.expectSuccess('R4.11-1', res);
      ctx.check(
        'R4.11-1',
        typeof topic?.max_id === 'number' && topic.max_id >= m.id,
        `the "" topic ${JSON.stringify(topic)} reaches message ${m.id}`,
        res,
      );
    },
  }),

  scenario({
    id: 'topics/topic-list-most-recent-first',
    title: 'the topic list is ordered most recent first by max_id',
    rules: ['R4.11-2'],
    requires: { roles: ['member'], channels: ['public'] },
    when: (ctx) => ctx.as('member').get(`/api/v1/users/me/${ctx.channel('public').stream_id}/topics`),
    then(ctx, res) {
      const ids = asArray(res.body.topics).map((t) => t.max_id);
      ctx.expectSuccess('R4.11-2', res);
      const sorted = ids.every((id, i) => typeof id === 'number' && (i === 0 || (ids[i - 1] as number) > id));
      ctx.check('R4.11-2', ids.length > 0 && sorted, `max_id order ${JSON.stringify(ids)}`, res);
    },
  }),

  scenario({
    id: 'topics/topic-list-max-id-newest',
    title: "a topic's max_id is the ID of its newest message",
    rules: ['R4.11-2'],
    requires: { roles: ['member'], channels: ['public'] },
    async given(ctx) {
      const topic = ctx.unique('newest');
      const stream = ctx.channel('public').stream_id;
      await send(ctx, 'member', stream, topic, 'older');
      return { topic, id: await send(ctx, 'member', stream, topic, 'newer') };
    },
    when: (ctx) => ctx.as('member').get(`/api/v1/users/me/${ctx.channel('public').stream_id}/topics`),
    then(ctx, res, g) {
      const entry = asArray(res.body.topics).find((t) => t.name === g.topic);
      ctx.expectSuccess('R4.11-2', res);
      ctx.expectEqual('R4.11-2', entry?.max_id, g.id, 'max_id of the topic just written twice', res);
    },
  }),
];
