import { scenario, scenarios } from '../../src/dsl.js';
import type { Reply } from '../../src/client.js';

/**
 * Spec §9: "Every path starts with /api/v1." (an operation's path without that prefix is not the API),
 * and the deprecation list of §9 / §4.9: a deprecated operation or parameter is still served.
 */

const unprefixed = scenarios(['/streams', '/v1/streams', '/api/streams'], (path) =>
  scenario<undefined, { bare: Reply; api: Reply }>({
    id: `coverage/api-prefix${path.replaceAll('/', '-')}`,
    title: `GET ${path} is not the channel list, GET /api/v1/streams is`,
    rules: ['R9-1'],
    requires: { roles: ['member'] },
    when: async (ctx) => ({ bare: await ctx.as('member').get(path), api: await ctx.as('member').get('/api/v1/streams') }),
    then(ctx, r) {
      const served = r.bare.status === 200 && r.bare.body.result === 'success' && Array.isArray(r.bare.body.streams);
      ctx.check('R9-1', !served, `GET ${path} answered ${r.bare.status} ${JSON.stringify(r.bare.body.result ?? null)}`, r.bare);
      ctx.expectSuccess('R9-1', r.api);
    },
  }),
);

/** Marking a topic read changes the member's read state: a realm of its own on the mock. */
const deprecatedServed = scenario<undefined, { mark: Reply; all: Reply }>({
  id: 'coverage/deprecated-still-served',
  title: 'the deprecated mark_topic_as_read and include_all_active are still served',
  rules: ['R9-13', 'R4.9-3'],
  requires: { roles: ['member', 'administrator'], channels: ['public'] },
  isolated: true,
  when: async (ctx) => ({
    mark: await ctx.as('member').post('/api/v1/mark_topic_as_read', { stream_id: ctx.world.messages.channel.stream_id, topic_name: ctx.world.messages.channel.topic }),
    all: await ctx.as('administrator').get('/api/v1/streams', { include_all_active: true }),
  }),
  then(ctx, r) {
    ctx.expectSuccess('R4.9-3', r.mark);
    ctx.expectSuccess('R9-13', r.mark);
    ctx.expectSuccess('R9-13', r.all);
  },
});

export default [...unprefixed, deprecatedServed];
