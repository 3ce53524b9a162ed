import type { Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import type { WorldChannelKind, WorldRole } from '../../src/world.js';
import { ownChannel } from '../shared.js';
import { sendTo } from '../blind-spots/support.js';
import { assume, expectSameRefusal, streamIds, subscribedTo } from './support.js';

/**
 * The negative side of the permission rules: nothing private reaches a user without access.
 * §4.3 "BAD_REQUEST when the message does not exist or is not visible to the caller"; §4.11
 * "BAD_REQUEST when the channel does not exist or is not accessible"; §4.15 "Returns channels the user
 * can access" (include_all: "All channels with metadata access (for administrators, all channels)";
 * include_all_active: "administrators only"). A hidden thing must be refused exactly like a missing
 * one, so the answer cannot tell that it exists.
 */

/** IDs no realm plausibly uses. */
const MISSING_MESSAGE = 999_999_937;
const MISSING_CHANNEL = 999_999_937;

interface HiddenMessage {
  role: WorldRole;
  key: string;
  what: string;
  id(ctx: ScenarioContext): number;
  holds(ctx: ScenarioContext): boolean;
}

const protectedVisible = (ctx: ScenarioContext) => {
  const p = ctx.world.messages.protected_history;
  assume(p !== undefined, 'no messages.protected_history');
  return p!.visible_id;
};

const HIDDEN_MESSAGES: HiddenMessage[] = [
  {
    role: 'guest',
    key: 'guest-private',
    what: 'a message of a private channel',
    id: protectedVisible,
    holds: (ctx) => !subscribedTo(ctx, 'private_protected', 'guest'),
  },
  {
    role: 'member_3',
    key: 'member-private',
    what: 'a message of a private channel',
    id: protectedVisible,
    holds: (ctx) => !subscribedTo(ctx, 'private_protected', 'member_3'),
  },
  {
    role: 'member_3',
    key: 'member-direct',
    what: 'a direct message between two other users',
    id: (ctx) => ctx.world.messages.direct.id,
    holds: (ctx) => !ctx.world.messages.direct.user_ids.includes(ctx.user('member_3').user_id),
  },
];

/** A message fetched by ID without access is refused exactly like one that does not exist, with no content. */
function expectRefusedAsMissing(ctx: ScenarioContext, { hidden, missing }: { hidden: Reply; missing: Reply }, what: string): void {
  ctx.expectError('R4.3-5', hidden, { status: 400, code: 'BAD_REQUEST' });
  ctx.check(
    'R4.3-5',
    hidden.body.message === undefined && hidden.body.raw_content === undefined,
    'no message content in the answer',
    hidden,
  );
  expectSameRefusal(ctx, 'R4.3-5', hidden, missing, what);
}

const messages = scenarios(HIDDEN_MESSAGES, (row) =>
  scenario({
    id: `permissions/no-leak-message-${row.key}`,
    title: `a ${row.role} outside it cannot fetch ${row.what}: the answer is that of a missing message`,
    rules: ['R4.3-5'],
    requires: { roles: [row.role], channels: ['private_protected'] },
    given: (ctx) => assume(row.holds(ctx), `${row.role} must have no access to ${row.what}`),
    async when(ctx) {
      const hidden = await ctx.as(row.role).get(`/api/v1/messages/${row.id(ctx)}`);
      const missing = await ctx.as(row.role).get(`/api/v1/messages/${MISSING_MESSAGE}`);
      return { hidden, missing };
    },
    then: (ctx, answers) => expectRefusedAsMissing(ctx, answers, row.what),
  }),
);

/**
 * Visibility is judged now, not when the message arrived (reference has_message_access: a private
 * channel's message needs a subscription or a granting group at the time of the request, even for a
 * message the user received). The scenario's own private channel (nobody may add subscribers, so leaving
 * ends all access): member_2 posts, member reads it by ID, leaves, and then is refused like for a
 * message that does not exist.
 */
const afterLeaving = scenario({
  id: 'permissions/no-leak-message-after-leaving-private-channel',
  title: 'a member who left a private channel cannot fetch a message they received there: the answer is that of a missing message',
  rules: ['R4.3-5'],
  requires: { roles: ['member', 'member_2'] },
  async given(ctx) {
    const ch = await ownChannel(ctx, 'member_2', 'left private', { inviteOnly: true, members: ['member'] });
    const id = await sendTo(ctx, 'member_2', ch.stream_id, 'before leaving', 'received by both subscribers');
    ctx.must(await ctx.as('member').get(`/api/v1/messages/${id}`), `member fetches ${id} while subscribed`);
    ctx.must(await ctx.as('member').delete('/api/v1/users/me/subscriptions', { subscriptions: [ch.name] }), `member leaves ${ch.name}`);
    return { id };
  },
  async when(ctx, { id }) {
    const hidden = await ctx.as('member').get(`/api/v1/messages/${id}`);
    const missing = await ctx.as('member').get(`/api/v1/messages/${MISSING_MESSAGE}`);
    return { hidden, missing };
  },
  then: (ctx, answers) => expectRefusedAsMissing(ctx, answers, 'a message of a channel the caller left'),
});

const HIDDEN_CHANNELS = [
  { role: 'guest', kind: 'private_protected' },
  { role: 'member_2', kind: 'private_shared' },
] as const satisfies readonly { role: WorldRole; kind: WorldChannelKind }[];

const topics = scenarios(HIDDEN_CHANNELS, (row) =>
  scenario({
    id: `permissions/no-leak-topics-${row.role}-${row.kind.replace('_', '-')}`,
    title: `a ${row.role} outside ${row.kind} cannot list its topics: the answer is that of a missing channel`,
    rules: ['R4.11-4'],
    requires: { roles: [row.role] },
    given: (ctx) => assume(!subscribedTo(ctx, row.kind, row.role), `${row.role} must not be subscribed to ${row.kind}`),
    async when(ctx) {
      const hidden = await ctx.as(row.role).get(`/api/v1/users/me/${ctx.channel(row.kind).stream_id}/topics`);
      const missing = await ctx.as(row.role).get(`/api/v1/users/me/${MISSING_CHANNEL}/topics`);
      return { hidden, missing };
    },
    then(ctx, { hidden, missing }) {
      ctx.expectError('R4.11-4', hidden, { status: 400, code: 'BAD_REQUEST' });
      ctx.check('R4.11-4', hidden.body.topics === undefined, 'no topics in the answer', hidden);
      expectSameRefusal(ctx, 'R4.11-4', hidden, missing, `topics of ${row.kind}`);
    },
  }),
);

const editHidden = scenario({
  id: 'permissions/no-leak-update-hidden-channel',
  title: 'a guest outside a private channel who tries to edit it gets the answer for a missing channel',
  rules: ['R7-3'],
  requires: { roles: ['guest'] },
  given: (ctx) => assume(!subscribedTo(ctx, 'private_protected', 'guest'), 'the guest must not be subscribed to private_protected'),
  async when(ctx) {
    const description = ctx.unique('described by a guest');
    const hidden = await ctx.as('guest').patch(`/api/v1/streams/${ctx.channel('private_protected').stream_id}`, { description });
    const missing = await ctx.as('guest').patch(`/api/v1/streams/${MISSING_CHANNEL}`, { description });
    return { hidden, missing };
  },
  then(ctx, { hidden, missing }) {
    ctx.expectError('R7-3', hidden, { status: 400, code: 'BAD_REQUEST' });
    expectSameRefusal(ctx, 'R7-3', hidden, missing, 'editing private_protected');
  },
});

interface Listing {
  role: WorldRole;
  key: string;
  params: Record<string, boolean>;
  /** Channel kinds that must be listed, and that must not. */
  listed: WorldChannelKind[];
  hidden: WorldChannelKind[];
  rules: string[];
  /** include_all exists from feature level 356 (§9): below it, the row is skipped on a server, or run at 356 on the mock. */
  includeAll?: true;
}

const LISTINGS: Listing[] = [
  {
    role: 'guest',
    key: 'guest',
    params: {},
    listed: ['private_shared'],
    hidden: ['private_protected', 'moderation'],
    rules: ['R4.15-1', 'R4.15-5'],
  },
  {
    role: 'member_2',
    key: 'member',
    params: {},
    listed: ['private_protected'],
    hidden: ['private_shared', 'moderation'],
    rules: ['R4.15-1', 'R4.15-5'],
  },
  {
    role: 'guest',
    key: 'guest-include-all',
    params: { include_all: true },
    listed: ['private_shared'],
    hidden: ['private_protected', 'moderation'],
    rules: ['R4.15-1', 'R4.15-7'],
    includeAll: true,
  },
  {
    role: 'administrator',
    key: 'administrator-include-all',
    params: { include_all: true },
    listed: ['private_shared', 'private_protected'],
    hidden: [],
    rules: ['R4.15-7'],
    includeAll: true,
  },
];

const listings = scenarios(LISTINGS, (row) =>
  scenario({
    id: `permissions/channel-list-${row.key}`,
    title: `GET /streams${Object.keys(row.params).length ? ` with ${Object.keys(row.params).join(', ')}` : ''} as a ${row.role} lists ${row.listed.join(', ')}${row.hidden.length ? ` and not ${row.hidden.join(', ')}` : ''}`,
    rules: row.rules,
    requires: row.includeAll ? { roles: [row.role], level: { from: 'include_all' } } : { roles: [row.role] },
    given(ctx) {
      for (const kind of row.hidden)
        if (ctx.world.channels[kind])
          assume(!ctx.world.channels[kind]!.subscribers.includes(row.role), `${row.role} must not be subscribed to ${kind}`);
      for (const kind of row.listed)
        assume(
          row.role === 'administrator' || ctx.channel(kind).subscribers.includes(row.role),
          `${row.role} must be subscribed to ${kind}`,
        );
    },
    when: (ctx) => ctx.as(row.role).get('/api/v1/streams', row.params),
    then(ctx, res) {
      ctx.expectSuccess(row.rules[0]!, res);
      const ids = streamIds(res);
      for (const kind of row.listed)
        for (const rule of row.rules) ctx.check(rule, ids.includes(ctx.channel(kind).stream_id), `${kind} is listed`, res);
      for (const kind of row.hidden) {
        const ch = ctx.world.channels[kind];
        if (ch) ctx.check('R4.15-1', !ids.includes(ch.stream_id), `${kind}, a private channel without access, is not listed`, res);
      }
    },
  }),
);

const includeAllActive = scenarios(
  [
    { role: 'member', allowed: false },
    { role: 'administrator', allowed: true },
  ] as const satisfies readonly { role: WorldRole; allowed: boolean }[],
  (row) =>
    scenario({
      id: `permissions/include-all-active-${row.role}`,
      title: row.allowed
        ? 'an administrator may use include_all_active and sees private channels they are not in'
        : 'a member may not use include_all_active (administrators only)',
      rules: ['R4.15-11'],
      requires: { roles: [row.role] },
      when: (ctx) => ctx.as(row.role).get('/api/v1/streams', { include_all_active: true }),
      then(ctx, res: Reply) {
        if (!row.allowed) {
          ctx.expectError('R4.15-11', res, { status: 400, code: 'BAD_REQUEST' });
          ctx.check('R4.15-11', !Array.isArray(res.body.streams), 'no channel list in the answer', res);
          return;
        }
        ctx.expectSuccess('R4.15-11', res);
        ctx.check('R4.15-11', streamIds(res).includes(ctx.channel('private_shared').stream_id), 'private_shared is listed', res);
      },
    }),
);

export default [...messages, afterLeaving, ...topics, editHidden, ...listings, ...includeAllActive];
