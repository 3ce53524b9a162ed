import type { Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import { beforeEditOperation, createSnippet, draftsWithContent, expectCode, future, MISSING_ID, scheduleMessage } from './support.js';

/**
 * Spec §7, code BAD_REQUEST: the cases of its table that are about input (invalid user ID, missing
 * scheduled message, saved snippet or message, channel drafts, invalid channel ID), each through the
 * operation of §4 that names it. Missing resources: §7 states no HTTP status, so any 4xx is accepted
 * there; messages that do not exist or are hidden answer 400 (§7 "BAD_REQUEST is … 400").
 */

const invalidUser = [
  scenario({
    id: 'errors/scheduled-message-invalid-user',
    title: 'scheduling a direct message to a user ID that does not exist is BAD_REQUEST',
    rules: ['R4.1-9', 'R7-3', 'R7-7'],
    given: (ctx) => future(ctx),
    when: (ctx, at) =>
      ctx.as('member').post('/api/v1/scheduled_messages', {
        type: 'direct',
        to: [MISSING_ID],
        content: ctx.unique('to nobody'),
        scheduled_delivery_timestamp: at,
      }),
    then: (ctx, res) => {
      ctx.expectError('R4.1-9', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.check('R7-3', res.body.code === 'BAD_REQUEST', 'invalid user ID is a BAD_REQUEST case of §7', res);
      ctx.check('R7-7', res.status === 400, `BAD_REQUEST with HTTP ${res.status}`, res);
    },
  }),
  scenario({
    id: 'errors/scheduled-message-edit-invalid-user',
    title: 'editing a scheduled direct message to a user ID that does not exist is BAD_REQUEST',
    rules: ['R4.2-9', 'R7-3', 'R9-4'],
    requires: { roles: ['member', 'member_2'] },
    given: (ctx) => scheduleMessage(ctx, 'member', { type: 'direct', to: [ctx.user('member_2').user_id], topic: undefined }),
    when: (ctx, id) => ctx.as('member').patch(`/api/v1/scheduled_messages/${id}`, { type: 'direct', to: [MISSING_ID] }),
    then: (ctx, res) => {
      if (beforeEditOperation(ctx, res)) return;
      ctx.expectError('R4.2-9', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.check('R7-3', res.body.code === 'BAD_REQUEST', 'invalid user ID is a BAD_REQUEST case of §7', res);
    },
  }),
  scenario({
    id: 'errors/draft-invalid-user',
    title: 'a direct draft to a user ID that does not exist is BAD_REQUEST and creates nothing',
    rules: ['R7-3', 'R2.6-3'],
    given: (ctx) => ctx.unique('draft to nobody'),
    when: (ctx, content) =>
      ctx.as('member').post('/api/v1/drafts', { drafts: [{ type: 'private', to: [MISSING_ID], topic: '', content }] }),
    async then(ctx, res, content) {
      ctx.expectError('R7-3', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.expectEqual('R2.6-3', (await draftsWithContent(ctx, 'member', content)).length, 0, 'drafts with that content after the refusal');
    },
  }),
];

const missingScheduled = scenarios(
  [
    { key: 'unknown', title: 'an ID that does not exist', owner: null },
    { key: 'foreign', title: "another user's scheduled message", owner: 'member_2' as WorldRole },
  ],
  (row) =>
    scenario({
      id: `errors/scheduled-message-missing-${row.key}`,
      title: `editing ${row.title} is BAD_REQUEST (scheduled message does not exist)`,
      rules: ['R4.2-9', 'R7-3', 'R9-4'],
      requires: { roles: ['member', 'member_2'] },
      given: (ctx) => (row.owner ? scheduleMessage(ctx, row.owner) : MISSING_ID),
      when: (ctx, id) => ctx.as('member').patch(`/api/v1/scheduled_messages/${id}`, { content: ctx.unique('edited') }),
      then: (ctx, res) => {
        if (beforeEditOperation(ctx, res)) return;
        expectCode(ctx, 'R4.2-9', res, 'BAD_REQUEST');
        ctx.check('R7-3', res.body.result === 'error', 'missing scheduled message is refused', res);
      },
    }),
);

const missingSnippet = scenarios(
  [
    { key: 'unknown', title: 'an ID that does not exist', owner: null },
    { key: 'foreign', title: "another user's snippet", owner: 'member_2' as WorldRole },
  ],
  (row) =>
    scenario({
      id: `errors/saved-snippet-missing-${row.key}`,
      title: `editing ${row.title} is BAD_REQUEST (snippet does not exist)`,
      rules: ['R4.14-2', 'R7-3'],
      requires: { roles: ['member', 'member_2'] },
      given: async (ctx) => (row.owner ? (await createSnippet(ctx, row.owner)).id : MISSING_ID),
      when: (ctx, id) => ctx.as('member').patch(`/api/v1/saved_snippets/${id}`, { title: ctx.unique('retitled') }),
      then: (ctx, res) => {
        expectCode(ctx, 'R4.14-2', res, 'BAD_REQUEST');
        ctx.check('R7-3', res.body.result === 'error', 'missing saved snippet is refused', res);
      },
    }),
);

const missingMessage = scenarios(
  [
    { key: 'unknown', title: 'a message ID that does not exist', role: 'member' as WorldRole, id: () => MISSING_ID },
    {
      key: 'hidden',
      title: 'a direct message between two other users',
      role: 'member_3' as WorldRole,
      id: (ctx: ScenarioContext) => ctx.world.messages.direct.id,
    },
  ],
  (row) =>
    scenario({
      id: `errors/fetch-message-${row.key}`,
      title: `fetching ${row.title} is BAD_REQUEST (HTTP 400)`,
      rules: ['R4.3-5', 'R7-3', 'R7-7', 'R4-2', 'R7-1'],
      requires: { roles: [row.role] },
      when: (ctx) => ctx.as(row.role).get(`/api/v1/messages/${row.id(ctx)}`),
      then: (ctx, res) => {
        const b = res.body;
        ctx.check(
          'R7-1',
          b.result === 'error' && typeof b.code === 'string' && typeof b.msg === 'string' && b.msg !== '',
          `error body ${res.text.slice(0, 160)}`,
          res,
        );
        ctx.check(
          'R4-2',
          Object.keys(b).filter((k) => !['result', 'msg', 'code'].includes(k)).length === 0,
          'no field beyond those of §7 (this error has no extra field)',
          res,
        );
        ctx.expectError('R4.3-5', res, { status: 400, code: 'BAD_REQUEST' });
        ctx.check('R7-3', res.body.code === 'BAD_REQUEST', 'missing message is a BAD_REQUEST case', res);
        ctx.check('R7-7', res.status === 400, `BAD_REQUEST with HTTP ${res.status}`, res);
      },
    }),
);

const reportMissing = scenario({
  id: 'errors/report-missing-message',
  title: 'reporting a message that does not exist is BAD_REQUEST',
  rules: ['R7-3'],
  when: (ctx) => ctx.as('member').post(`/api/v1/messages/${MISSING_ID}/report`, { report_type: 'spam' }),
  then: (ctx, res) => {
    ctx.expectError('R7-3', res, { status: 400, code: 'BAD_REQUEST' });
  },
});

const channelDrafts = scenarios(
  [
    { key: 'none', title: 'no channel ID', to: (_ctx: ScenarioContext): number[] => [] },
    {
      key: 'two',
      title: 'two channel IDs',
      to: (ctx: ScenarioContext) => [ctx.channel('public').stream_id, ctx.channel('public_2').stream_id],
    },
  ],
  (row) =>
    scenario({
      id: `errors/channel-draft-${row.key}-channels`,
      title: `a channel draft naming ${row.title} is BAD_REQUEST and creates nothing`,
      rules: ['R4.6-4', 'R2.6-3', 'R7-3'],
      given: (ctx) => ctx.unique(`draft with ${row.key} channels`),
      when: (ctx, content) =>
        ctx.as('member').post('/api/v1/drafts', { drafts: [{ type: 'stream', to: row.to(ctx), topic: 't', content }] }),
      async then(ctx, res, content) {
        ctx.expectError('R4.6-4', res, { status: 400, code: 'BAD_REQUEST' });
        ctx.check('R7-3', res.body.code === 'BAD_REQUEST', 'channel draft without exactly one channel ID is a BAD_REQUEST case', res);
        ctx.expectEqual(
          'R2.6-3',
          (await draftsWithContent(ctx, 'member', content)).length,
          0,
          'drafts with that content after the refusal',
        );
      },
    }),
);

interface ChannelRow {
  key: string;
  title: string;
  rules: string[];
  role: WorldRole;
  call: (ctx: ScenarioContext) => Promise<Reply>;
}

const invalidChannel = scenarios<ChannelRow>(
  [
    {
      key: 'draft',
      title: 'a channel draft to a channel ID that does not exist',
      rules: ['R7-3'],
      role: 'member',
      call: (ctx) =>
        ctx.as('member').post('/api/v1/drafts', {
          drafts: [{ type: 'stream', to: [MISSING_ID], topic: 't', content: ctx.unique('draft to no channel') }],
        }),
    },
    {
      key: 'topics-unknown',
      title: 'the topics of a channel that does not exist',
      rules: ['R4.11-4', 'R7-3'],
      role: 'member',
      call: (ctx) => ctx.as('member').get(`/api/v1/users/me/${MISSING_ID}/topics`),
    },
    {
      key: 'topics-private',
      title: 'the topics of a private channel the caller cannot access',
      rules: ['R4.11-4', 'R7-3'],
      role: 'member',
      call: (ctx) => ctx.as('member').get(`/api/v1/users/me/${ctx.channel('moderation').stream_id}/topics`),
    },
    {
      key: 'mark-read',
      title: 'marking a topic as read in a channel that does not exist',
      rules: ['R4.9-1', 'R7-3'],
      role: 'member',
      call: (ctx) => ctx.as('member').post('/api/v1/mark_topic_as_read', { stream_id: MISSING_ID, topic_name: 'anything' }),
    },
    {
      key: 'update-channel',
      title: 'updating a channel that does not exist',
      rules: ['R7-3'],
      role: 'administrator',
      call: (ctx) => ctx.as('administrator').patch(`/api/v1/streams/${MISSING_ID}`, { description: ctx.unique('description') }),
    },
  ],
  (row) =>
    scenario({
      id: `errors/invalid-channel-${row.key}`,
      title: `${row.title} is BAD_REQUEST (invalid channel ID)`,
      rules: row.rules,
      requires: { roles: [row.role], channels: row.key === 'topics-private' ? ['moderation'] : [] },
      when: (ctx) => row.call(ctx),
      then: (ctx, res) => {
        for (const rule of row.rules) ctx.expectError(rule, res, { status: 400, code: 'BAD_REQUEST' });
      },
    }),
);

/** §4.8: principals that are not active users; before level 208 the answer was 403 UNAUTHORIZED_PRINCIPAL. */
const badPrincipal = scenarios(
  [
    {
      key: 'unknown',
      title: 'a user ID that does not exist',
      principal: (_ctx: ScenarioContext): number | string => MISSING_ID,
      roles: ['administrator'] as WorldRole[],
    },
    {
      key: 'deactivated',
      title: 'a deactivated user (by API email)',
      principal: (ctx: ScenarioContext): number | string => ctx.user('deactivated').email,
      roles: ['administrator', 'deactivated'] as WorldRole[],
    },
  ],
  (row) =>
    scenario({
      id: `errors/unsubscribe-principal-${row.key}`,
      title: `unsubscribing ${row.title} is BAD_REQUEST (403 UNAUTHORIZED_PRINCIPAL below level 208)`,
      rules: ['R4.8-8', 'R7-3'],
      requires: { roles: row.roles },
      when: (ctx) =>
        ctx
          .as('administrator')
          .delete('/api/v1/users/me/subscriptions', { subscriptions: [ctx.channel('public').name], principals: [row.principal(ctx)] }),
      then: (ctx, res) => {
        if (ctx.has('unsubscribe_principal_bad_request')) {
          ctx.expectError('R4.8-8', res, { status: 400, code: 'BAD_REQUEST' });
          ctx.check('R7-3', res.body.code === 'BAD_REQUEST', 'a bad principal is refused with BAD_REQUEST', res);
        } else {
          ctx.expectError('R4.8-8', res, { status: 403, code: 'UNAUTHORIZED_PRINCIPAL' });
          ctx.check('R7-3', res.body.result === 'error', 'a bad principal is refused', res);
        }
      },
    }),
);

export default [
  ...invalidUser,
  ...missingScheduled,
  ...missingSnippet,
  ...missingMessage,
  reportMissing,
  ...channelDrafts,
  ...invalidChannel,
  ...badPrincipal,
];
