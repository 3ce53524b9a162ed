import { SetupError, type ScenarioContext } from '../../src/context.js';
import { scenario, scenarios, type Requirements } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import { MISSING_ID, asArray, protectedHistory, send } from './support.js';

/**
 * Protected history and access (§4.11, §4.3): what a user who joined a private channel late, or never
 * joined it, may see of its topics and messages (events: ./events.ts).
 */
/**
 * Reads refused with BAD_REQUEST (§4.11, §4.3): channels and messages the caller may not see, or that do
 * not exist. `path` is worked out in the given step, so a world file without what a row needs makes it a
 * setup error.
 */
const REFUSALS: {
  key: string;
  title: string;
  rule: string;
  requires: Requirements;
  role: WorldRole;
  path: (ctx: ScenarioContext) => string;
}[] = [
  {
    key: 'private-topic-list-non-subscriber',
    title: 'a user outside a private channel cannot list its topics',
    rule: 'R4.11-4',
    requires: { roles: ['member_2'], channels: ['private_shared'] },
    role: 'member_2',
    path(ctx) {
      if (ctx.channel('private_shared').subscribers.includes('member_2')) throw new SetupError('member_2 is subscribed to private_shared');
      return `/api/v1/users/me/${ctx.channel('private_shared').stream_id}/topics`;
    },
  },
  {
    key: 'topic-list-unknown-channel',
    title: 'listing the topics of a channel that does not exist is BAD_REQUEST',
    rule: 'R4.11-4',
    requires: { roles: ['member'] },
    role: 'member',
    path: () => `/api/v1/users/me/${MISSING_ID}/topics`,
  },
  {
    key: 'fetch-private-non-subscriber',
    title: 'a user outside a private channel cannot fetch its messages',
    rule: 'R4.3-5',
    requires: { roles: ['member_3'], channels: ['private_protected'] },
    role: 'member_3',
    path: (ctx) => `/api/v1/messages/${protectedHistory(ctx.world).visible_id}`,
  },
  {
    key: 'fetch-direct-third-party',
    title: 'a user who is not a recipient cannot fetch a direct message',
    rule: 'R4.3-5',
    requires: { roles: ['member_3'] },
    role: 'member_3',
    path: (ctx) => `/api/v1/messages/${ctx.world.messages.direct.id}`,
  },
];

export default [
  scenario({
    id: 'topics/protected-history-topic-list',
    title: 'a late subscriber of a protected-history channel sees only topics of messages sent after joining',
    rules: ['R4.11-3'],
    requires: { channels: ['private_protected'] },
    given: (ctx) => protectedHistory(ctx.world),
    when: (ctx, p) => ctx.as(p.role).get(`/api/v1/users/me/${p.stream_id}/topics`),
    then(ctx, res, p) {
      const topics = asArray(res.body.topics);
      ctx.expectSuccess('R4.11-3', res);
      const hidden = topics.filter((t) => (p.hidden_topic !== undefined && t.name === p.hidden_topic) || t.max_id === p.hidden_id);
      ctx.expectEqual('R4.11-3', hidden, [], 'topics of messages from before the subscription', res);
      ctx.check(
        'R4.11-3',
        topics.some((t) => typeof t.max_id === 'number' && t.max_id >= p.visible_id),
        `a topic reaching message ${p.visible_id} is listed`,
        res,
      );
    },
  }),

  scenario({
    id: 'topics/protected-history-topic-list-after-joining',
    title: 'a late subscriber of a protected-history channel sees the topic of a message sent now',
    rules: ['R4.11-3', 'R4.11-2'],
    requires: { roles: ['member'], channels: ['private_protected'] },
    async given(ctx) {
      const p = protectedHistory(ctx.world);
      const topic = ctx.unique('after joining');
      return { p, topic, id: await send(ctx, 'member', p.stream_id, topic) };
    },
    when: (ctx, g) => ctx.as(g.p.role).get(`/api/v1/users/me/${g.p.stream_id}/topics`),
    then(ctx, res, g) {
      const entry = asArray(res.body.topics).find((t) => t.name === g.topic);
      ctx.expectSuccess('R4.11-2', res);
      ctx.expectEqual('R4.11-3', entry?.max_id, g.id, `max_id of the new topic in the late subscriber's list`, res);
    },
  }),

  scenario({
    id: 'topics/protected-history-fetch-hidden',
    title: 'a late subscriber cannot fetch a message sent before they joined',
    rules: ['R4.3-5'],
    requires: { channels: ['private_protected'] },
    given: (ctx) => protectedHistory(ctx.world),
    when: (ctx, p) => ctx.as(p.role).get(`/api/v1/messages/${p.hidden_id}`),
    then: (ctx, res) => void ctx.expectError('R4.3-5', res, { status: 400, code: 'BAD_REQUEST' }),
  }),

  scenario({
    id: 'topics/protected-history-fetch-visible',
    title: 'a late subscriber can fetch a message sent after they joined',
    rules: ['R4.3-4'],
    requires: { channels: ['private_protected'] },
    given: (ctx) => protectedHistory(ctx.world),
    when: (ctx, p) => ctx.as(p.role).get(`/api/v1/messages/${p.visible_id}`),
    then(ctx, res, p) {
      ctx.expectSuccess('R4.3-4', res);
      const m = res.body.message as Record<string, unknown> | undefined;
      ctx.expectEqual('R4.3-4', [m?.id, m?.stream_id], [p.visible_id, p.stream_id], 'id and stream_id of the fetched message', res);
    },
  }),

  ...scenarios(REFUSALS, (row) =>
    scenario({
      id: `topics/${row.key}`,
      title: row.title,
      rules: [row.rule],
      requires: row.requires,
      given: (ctx) => row.path(ctx),
      when: (ctx, path) => ctx.as(row.role).get(path),
      then: (ctx, res) => void ctx.expectError(row.rule, res, { status: 400, code: 'BAD_REQUEST' }),
    }),
  ),
];
