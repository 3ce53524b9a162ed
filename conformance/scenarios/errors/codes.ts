import { SetupError } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import { parsedCheck } from '../shared.js';
import { asArray, beforeEditOperation, expectCode, future, MISSING_ID, scheduleMessage, unknownFragment } from './support.js';

/**
 * Spec §7, the codes other than BAD_REQUEST: STREAM_DOES_NOT_EXIST with stream_id (scheduled
 * messages, §4.1 and §4.2) or stream (unsubscribe, §4.8); NOT_FOUND for a navigation view nobody has
 * (§4.12; fragments may contain slashes); BAD_EVENT_QUEUE_ID for a queue that is not there (§6). Their
 * HTTP statuses are not stated, so any 4xx passes. Also the §7 BAD_REQUEST "built-in view named".
 */

const streamDoesNotExist = [
  scenario({
    id: 'errors/scheduled-message-unknown-channel',
    title: 'scheduling a message to a channel ID that does not exist is STREAM_DOES_NOT_EXIST with stream_id',
    rules: ['R4.1-8', 'R7-2'],
    given: (ctx) => future(ctx),
    when: (ctx, at) =>
      ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'stream',
        to: MISSING_ID,
        topic: 'nowhere',
        content: ctx.unique('to nowhere'),
        scheduled_delivery_timestamp: at,
      }),
    then: (ctx, res) => {
      expectCode(ctx, 'R4.1-8', res, 'STREAM_DOES_NOT_EXIST', { stream_id: MISSING_ID });
      ctx.check('R7-2', res.body.stream_id === MISSING_ID, `stream_id extra field: ${JSON.stringify(res.body.stream_id)}`, res);
    },
  }),
  scenario({
    id: 'errors/scheduled-message-edit-unknown-channel',
    title: 'editing a scheduled message to a channel ID that does not exist is STREAM_DOES_NOT_EXIST with stream_id',
    rules: ['R4.2-8', 'R7-2', 'R9-4'],
    given: (ctx) => scheduleMessage(ctx, 'member'),
    when: (ctx, id) => ctx.as('member').patch(`/api/v1/scheduled_messages/${id}`, { type: 'stream', to: MISSING_ID, topic: 'nowhere' }),
    then: (ctx, res) => {
      if (beforeEditOperation(ctx, res)) return;
      expectCode(ctx, 'R4.2-8', res, 'STREAM_DOES_NOT_EXIST', { stream_id: MISSING_ID });
      ctx.check('R7-2', res.body.stream_id === MISSING_ID, `stream_id extra field: ${JSON.stringify(res.body.stream_id)}`, res);
    },
  }),
  scenario({
    id: 'errors/unsubscribe-unknown-channel',
    title: 'unsubscribing from a channel name that does not exist is STREAM_DOES_NOT_EXIST with stream (the name)',
    rules: ['R4.8-7', 'R7-2', 'R1-1'],
    given: (ctx) => ctx.unique('no such channel'),
    when: (ctx, name) => ctx.as('member').delete('/api/v1/users/me/subscriptions', { subscriptions: [name] }),
    then: (ctx, res, name) => {
      expectCode(ctx, 'R4.8-7', res, 'STREAM_DOES_NOT_EXIST', { stream: name });
      ctx.check('R7-2', res.body.stream === name, `stream extra field: ${JSON.stringify(res.body.stream)}`, res);
      // The list went on the wire as a JSON-encoded string (§1); the name comes back decoded.
      parsedCheck(
        ctx,
        typeof res.body.stream === 'string',
        res.body.stream === name,
        'the JSON-encoded subscriptions list was read as a list of names',
        res,
      );
    },
  }),
];

const notFound = scenarios(
  [
    { key: 'plain', title: 'a fragment', slashes: false },
    { key: 'slashes', title: 'a fragment with slashes', slashes: true },
  ],
  (row) =>
    scenario({
      id: `errors/navigation-view-not-found-${row.key}`,
      title: `updating a navigation view with ${row.title} that no view has is NOT_FOUND`,
      rules: ['R4.12-3', 'R7-4'],
      given: (ctx) => unknownFragment(ctx, row.slashes),
      when: (ctx, fragment) => ctx.as('member').patch(`/api/v1/navigation_views/${fragment}`, { is_pinned: true }),
      async then(ctx, res, fragment) {
        expectCode(ctx, 'R4.12-3', res, 'NOT_FOUND');
        ctx.check('R7-4', res.body.code === 'NOT_FOUND', `code ${JSON.stringify(res.body.code)}`, res);
        const views = asArray(ctx.must(await ctx.as('member').get('/api/v1/navigation_views'), 'list views').body.navigation_views);
        ctx.check('R4.12-3', !views.some((v) => v.fragment === fragment), 'no view was created by the refused update');
      },
    }),
);

const builtInNamed = scenario({
  id: 'errors/navigation-view-built-in-named',
  title: 'giving a built-in view (inbox) a custom name is BAD_REQUEST',
  rules: ['R4.12-2', 'R7-3', 'R7-7'],
  requires: { roles: ['member_2'] },
  async given(ctx) {
    // The view must exist for the caller, or the answer could rightly be NOT_FOUND.
    const member2 = ctx.as('member_2');
    const list = ctx.must(await member2.get('/api/v1/navigation_views'), 'list views');
    if (!asArray(list.body.navigation_views).some((v) => v.fragment === 'inbox')) {
      ctx.must(await member2.post('/api/v1/navigation_views', { fragment: 'inbox', is_pinned: true }), 'add the inbox view');
      ctx.defer(() => member2.delete('/api/v1/navigation_views/inbox'));
    }
  },
  when: (ctx) => ctx.as('member_2').patch('/api/v1/navigation_views/inbox', { name: ctx.unique('my inbox') }),
  then: (ctx, res) => {
    ctx.expectError('R4.12-2', res, { status: 400, code: 'BAD_REQUEST' });
    ctx.check('R7-3', res.body.code === 'BAD_REQUEST', 'built-in view named is a BAD_REQUEST case', res);
    ctx.check('R7-7', res.status === 400, `BAD_REQUEST with HTTP ${res.status}`, res);
  },
});

const badQueue = [
  scenario({
    id: 'errors/events-unknown-queue',
    title: 'fetching events from a queue ID the server never issued is BAD_EVENT_QUEUE_ID',
    rules: ['R7-5', 'R6-3'],
    when: (ctx) =>
      ctx.as('member').get('/api/v1/events', { queue_id: ctx.unique('queue').replace(/\s+/g, '-'), last_event_id: -1, dont_block: true }),
    then: (ctx, res) => {
      expectCode(ctx, 'R7-5', res, 'BAD_EVENT_QUEUE_ID');
      ctx.check('R6-3', res.body.code === 'BAD_EVENT_QUEUE_ID', 'a queue that is not there fails with BAD_EVENT_QUEUE_ID', res);
    },
  }),
  scenario({
    id: 'errors/events-deleted-queue',
    title: 'fetching events from a queue after deleting it is BAD_EVENT_QUEUE_ID',
    rules: ['R7-5'],
    async given(ctx) {
      const reg = ctx.must(await ctx.as('member').post('/api/v1/register', { event_types: ['drafts'] }), 'register');
      if (typeof reg.body.queue_id !== 'string') throw new SetupError('register returned no queue_id');
      ctx.must(await ctx.as('member').delete('/api/v1/events', { queue_id: reg.body.queue_id }), 'delete the queue');
      return { queueId: reg.body.queue_id, last: reg.body.last_event_id };
    },
    when: (ctx, q) =>
      ctx
        .as('member')
        .get('/api/v1/events', { queue_id: q.queueId, last_event_id: typeof q.last === 'number' ? q.last : -1, dont_block: true }),
    then: (ctx, res) => {
      expectCode(ctx, 'R7-5', res, 'BAD_EVENT_QUEUE_ID');
    },
  }),
];

export default [...streamDoesNotExist, ...notFound, builtInNamed, ...badQueue];
