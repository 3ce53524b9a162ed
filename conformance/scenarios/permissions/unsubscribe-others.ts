import { SetupError, type ScenarioContext } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import { assume, expectSameRefusal, inRemovers, subscribedNames, subscribedTo } from './support.js';

/**
 * Spec §4.8 "Who may unsubscribe another user: an organization administrator (any user, any channel);
 * a user for a bot they own (any channel they can access); a user with access to the channel who
 * belongs to its can_remove_subscribers_group" (§2.2: "Organization administrators always may"; §5
 * "a user can remove an owned bot from channels"). Everyone else is refused (§7: BAD_REQUEST for
 * insufficient permission) and the subscription stays. The world file says who is subscribed and who
 * is in each channel's can_remove_subscribers_group (absent: organization administrators only).
 */

type Kind = 'public' | 'private_protected' | 'private_shared';

interface Row {
  actor: WorldRole;
  target: WorldRole;
  kind: Kind;
  rules: string[];
  why: string;
  /** What the world must hold for the row to mean what it says. */
  holds(ctx: ScenarioContext): boolean;
}

/**
 * The row's precondition, in the world file and on the target itself: the target user is subscribed
 * right now. Otherwise the row cannot say what it claims, and the reason names the precondition, not
 * the rule (no "still subscribed" about someone who never was).
 */
async function precondition(ctx: ScenarioContext, row: Row): Promise<void> {
  assume(row.holds(ctx), `${row.why}: not as described by the world file`);
  const name = ctx.channel(row.kind).name;
  if (!(await subscribedNames(ctx, row.target)).includes(name))
    throw new SetupError(`precondition: ${row.target} is not subscribed to ${name} on the target, though the world file says so`);
}

const unsubscribe = (ctx: ScenarioContext, row: Row) =>
  ctx
    .as(row.actor)
    .delete('/api/v1/users/me/subscriptions', { subscriptions: [ctx.channel(row.kind).name], principals: [ctx.user(row.target).user_id] });

// One row per clause of the rule: each needs a realm of its own on the mock.
const ALLOWED: Row[] = [
  {
    actor: 'administrator',
    target: 'member',
    kind: 'private_shared',
    rules: ['R4.8-4', 'R2.2-9'],
    why: 'an administrator, from a private channel they are not in',
    holds: (ctx) => !subscribedTo(ctx, 'private_shared', 'administrator') && subscribedTo(ctx, 'private_shared', 'member'),
  },
  {
    actor: 'member',
    target: 'member_3',
    kind: 'public',
    rules: ['R4.8-6'],
    why: "a member in the channel's can_remove_subscribers_group",
    holds: (ctx) => inRemovers(ctx, 'public', 'member') && subscribedTo(ctx, 'public', 'member_3'),
  },
  {
    actor: 'bot_owner',
    target: 'bot',
    kind: 'public',
    rules: ['R4.8-5', 'R5-5'],
    why: "a bot's owner outside can_remove_subscribers_group, removing their bot",
    holds: (ctx) => !inRemovers(ctx, 'public', 'bot_owner') && !inRemovers(ctx, 'public', 'member_3') && subscribedTo(ctx, 'public', 'bot'),
  },
];

const allowed = scenarios(ALLOWED, (row) =>
  scenario({
    id: `permissions/unsubscribe-${row.target}-by-${row.actor}`,
    title: `${row.why} unsubscribes ${row.target}`,
    rules: [...row.rules, 'R4.8-3'],
    requires: { roles: [row.actor, row.target], channels: [row.kind] },
    // Changes who is subscribed: a realm of its own on the mock.
    isolated: true,
    given: (ctx) => precondition(ctx, row),
    when: (ctx) => unsubscribe(ctx, row),
    async then(ctx, res) {
      const name = ctx.channel(row.kind).name;
      ctx.expectSuccess('R4.8-3', res, { removed: [name], not_removed: [] });
      const gone = !(await subscribedNames(ctx, row.target)).includes(name);
      for (const rule of row.rules)
        ctx.check(
          rule,
          gone,
          gone ? `${row.target} is no longer subscribed to ${name}` : `${row.target} is still subscribed to ${name} after the success`,
        );
    },
  }),
);

const REFUSED: Row[] = [
  {
    actor: 'member_3',
    target: 'member_2',
    kind: 'public',
    rules: ['R4.8-6'],
    why: 'a member with access but outside can_remove_subscribers_group',
    holds: (ctx) => !inRemovers(ctx, 'public', 'member_3') && subscribedTo(ctx, 'public', 'member_2'),
  },
  {
    actor: 'guest',
    target: 'member_2',
    kind: 'public',
    rules: ['R4.8-6'],
    why: 'a subscribed guest outside can_remove_subscribers_group',
    holds: (ctx) => !inRemovers(ctx, 'public', 'guest') && subscribedTo(ctx, 'public', 'guest') && subscribedTo(ctx, 'public', 'member_2'),
  },
  {
    actor: 'bot',
    target: 'member_2',
    kind: 'public',
    rules: ['R4.8-6'],
    why: 'a subscribed bot outside can_remove_subscribers_group',
    holds: (ctx) => !inRemovers(ctx, 'public', 'bot') && subscribedTo(ctx, 'public', 'bot') && subscribedTo(ctx, 'public', 'member_2'),
  },
  {
    actor: 'guest',
    target: 'bot',
    kind: 'public',
    rules: ['R4.8-5'],
    why: 'a user who does not own the bot',
    holds: (ctx) => !inRemovers(ctx, 'public', 'guest') && subscribedTo(ctx, 'public', 'bot'),
  },
  {
    actor: 'moderator',
    target: 'member',
    kind: 'private_protected',
    rules: ['R4.8-6'],
    why: 'a subscribed moderator outside can_remove_subscribers_group of a private channel',
    holds: (ctx) =>
      !inRemovers(ctx, 'private_protected', 'moderator') &&
      subscribedTo(ctx, 'private_protected', 'moderator') &&
      subscribedTo(ctx, 'private_protected', 'member'),
  },
];

/** A wrong server removed the target: subscribe it again for the scenarios sharing the realm. */
function restoreIfRemoved(ctx: ScenarioContext, row: Row, removed: boolean): void {
  if (!removed) return;
  const who = row.kind === 'public' ? 'administrator' : 'owner';
  ctx.defer(() =>
    ctx.as(who).post('/api/v1/users/me/subscriptions', {
      subscriptions: [{ name: ctx.channel(row.kind).name }],
      principals: [ctx.user(row.target).user_id],
    }),
  );
}

const refused = scenarios(REFUSED, (row) =>
  scenario({
    id: `permissions/unsubscribe-${row.target}-refused-${row.actor}`,
    title: `${row.why} may not unsubscribe ${row.target}, who stays subscribed`,
    rules: [...row.rules, 'R7-3'],
    requires: { roles: [row.actor, row.target], channels: [row.kind] },
    given: (ctx) => precondition(ctx, row),
    when: (ctx) => unsubscribe(ctx, row),
    async then(ctx, res) {
      restoreIfRemoved(ctx, row, res.body.result === 'success');
      ctx.expectError('R7-3', res, { status: 400, code: 'BAD_REQUEST' });
      const name = ctx.channel(row.kind).name;
      const stays = (await subscribedNames(ctx, row.target)).includes(name);
      for (const rule of row.rules)
        ctx.check(
          rule,
          stays,
          stays
            ? `${row.target} is still subscribed to ${name}`
            : `${row.target} was unsubscribed from ${name} by ${row.actor}, who may not do that`,
        );
    },
  }),
);

const NO_ACCESS: Row = {
  actor: 'member_2',
  target: 'member',
  kind: 'private_shared',
  rules: ['R4.8-6'],
  why: 'a member without access to a private channel',
  holds: (ctx) => !subscribedTo(ctx, 'private_shared', 'member_2') && subscribedTo(ctx, 'private_shared', 'member'),
};

const noAccess = scenario({
  id: 'permissions/unsubscribe-refused-without-channel-access',
  title:
    'a member without access to a private channel may not unsubscribe its subscribers, and learns nothing more than for an unknown channel',
  rules: ['R4.8-6', 'R4.8-7'],
  requires: { roles: ['member_2', 'member'], channels: ['private_shared'] },
  given: (ctx) => precondition(ctx, NO_ACCESS),
  async when(ctx) {
    const hidden = await unsubscribe(ctx, NO_ACCESS);
    const unknown = await ctx.as('member_2').delete('/api/v1/users/me/subscriptions', {
      subscriptions: [ctx.unique('no such channel')],
      principals: [ctx.user('member').user_id],
    });
    return { hidden, unknown };
  },
  async then(ctx, { hidden, unknown }) {
    restoreIfRemoved(ctx, NO_ACCESS, hidden.body.result === 'success');
    ctx.check('R4.8-6', hidden.body.result === 'error', `refused: ${hidden.text.slice(0, 200)}`, hidden);
    // §7 states no HTTP status for STREAM_DOES_NOT_EXIST: the code and the stream field only.
    ctx.check(
      'R4.8-7',
      unknown.body.code === 'STREAM_DOES_NOT_EXIST' && typeof unknown.body.stream === 'string',
      `an unknown channel: ${unknown.text.slice(0, 200)}`,
      unknown,
    );
    // The name is in msg and in the stream field of STREAM_DOES_NOT_EXIST: compare status and code only.
    expectSameRefusal(ctx, 'R4.8-6', hidden, unknown, 'a private channel without access', false);
    const stays = (await subscribedNames(ctx, 'member')).includes(ctx.channel('private_shared').name);
    ctx.check(
      'R4.8-6',
      stays,
      stays ? 'member is still subscribed' : 'member was unsubscribed by member_2, who has no access to the channel',
    );
  },
});

export default [...allowed, ...refused, noAccess];
