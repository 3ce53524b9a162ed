import type { ScenarioContext } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import { MISSING_ID, type Obj } from '../shared.js';
import { eventsIn, ownMessages, queueFor, reactionsOf, RULE, viewOf } from './flags-reactions-support.js';
import { FLAG_SCENARIOS } from './flags-reactions-flags.js';

/**
 * Companion tier, area flags-reactions: emoji reactions (reference add-reaction, remove-reaction and the
 * `reaction` event; spec §2.5 reaction objects and their namespaces, R2.5-16). Flags are in
 * flags-reactions-flags.ts. Every scenario works on messages in a channel of its own.
 */
const REQUIRES = { roles: ['member' as const, 'member_2' as const] };
const UNICODE_CODE = /^[0-9a-f]{4,6}(-[0-9a-f]{4,6})*$/;

/** The codes of a duplicate and of a missing reaction: their own from feature level 193 (reference add-reaction, remove-reaction). */
const duplicateCode = (ctx: ScenarioContext) => (ctx.has('reaction_error_codes') ? 'REACTION_ALREADY_EXISTS' : 'BAD_REQUEST');
const missingCode = (ctx: ScenarioContext) => (ctx.has('reaction_error_codes') ? 'REACTION_DOES_NOT_EXIST' : 'BAD_REQUEST');

/** member_2 reacts with a tada twice and removes a heart never added, on a message of the scenario's own. */
async function duplicateAndMissing(ctx: ScenarioContext, ids: number[]) {
  const reader = ctx.as('member_2');
  ctx.must(await reader.post(`/api/v1/messages/${ids[0]}/reactions`, { emoji_name: 'tada' }), 'first reaction');
  return {
    twice: await reader.post(`/api/v1/messages/${ids[0]}/reactions`, { emoji_name: 'tada' }),
    missing: await reader.delete(`/api/v1/messages/${ids[0]}/reactions`, { emoji_name: 'heart' }),
  };
}

const LEVEL_193 = (['below', 'from'] as const).map((side) =>
  scenario({
    id: `companion/flags-reactions/level-193-${side}-reaction-codes`,
    title:
      side === 'below'
        ? 'below level 193 a duplicate reaction and a missing one are refused with BAD_REQUEST'
        : 'from level 193 a duplicate reaction is REACTION_ALREADY_EXISTS and a missing one REACTION_DOES_NOT_EXIST',
    rules: [RULE(13)],
    requires: {
      ...REQUIRES,
      level: side === 'below' ? { below: 'reaction_error_codes' as const } : { from: 'reaction_error_codes' as const },
    },
    given: (ctx) => ownMessages(ctx, `reaction codes ${side} 193`),
    when: (ctx, { ids }) => duplicateAndMissing(ctx, ids),
    then(ctx, { twice, missing }) {
      // Texts of the reference server (add-reaction, remove-reaction): the same on both sides of the level.
      ctx.expectError(RULE(13), twice, { status: 400, code: duplicateCode(ctx), msg: 'Reaction already exists.' });
      ctx.expectError(RULE(13), missing, { status: 400, code: missingCode(ctx), msg: "Reaction doesn't exist." });
    },
  }),
);

const REACTIONS = [
  scenario({
    id: 'companion/flags-reactions/add-by-name',
    title: 'a reaction added by emoji name shows in the message object with its Unicode code and type',
    rules: [RULE(1), 'R2.5-16'],
    requires: REQUIRES,
    given: (ctx) => ownMessages(ctx, 'reaction by name'),
    when: (ctx, { ids }) => ctx.as('member_2').post(`/api/v1/messages/${ids[0]}/reactions`, { emoji_name: 'octopus' }),
    async then(ctx, res, { ids }) {
      ctx.expectSuccess(RULE(1), res);
      const { reply, message } = await viewOf(ctx, 'member', ids[0]!);
      const mine = reactionsOf(message).filter((r) => r.user_id === ctx.user('member_2').user_id);
      ctx.expectEqual(RULE(1), mine.length, 1, 'reactions of member_2 on the message', reply);
      const reaction = mine[0] ?? {};
      ctx.expectEqual(RULE(1), [reaction.emoji_name, reaction.reaction_type], ['octopus', 'unicode_emoji'], 'name and type', reply);
      const code = String(reaction.emoji_code);
      ctx.check(
        'R2.5-16',
        UNICODE_CODE.test(code),
        `unicode_emoji code ${JSON.stringify(code)} ${UNICODE_CODE.test(code) ? 'is' : 'is not'} dash-separated hex code points`,
        reply,
      );
      ctx.check('R2.5-16', code === '1f419', `the octopus's code point is ${code}`, reply);
    },
  }),
  scenario({
    id: 'companion/flags-reactions/add-twice',
    title: 'the same reaction twice is refused and the message keeps one',
    rules: [RULE(2)],
    requires: REQUIRES,
    async given(ctx) {
      const setup = await ownMessages(ctx, 'reaction twice');
      ctx.must(await ctx.as('member_2').post(`/api/v1/messages/${setup.ids[0]}/reactions`, { emoji_name: 'tada' }), 'first reaction');
      return setup;
    },
    when: (ctx, { ids }) => ctx.as('member_2').post(`/api/v1/messages/${ids[0]}/reactions`, { emoji_name: 'tada' }),
    async then(ctx, res, { ids }) {
      ctx.expectError(RULE(2), res, { status: 400, code: duplicateCode(ctx) });
      const { reply, message } = await viewOf(ctx, 'member', ids[0]!);
      ctx.expectEqual(RULE(2), reactionsOf(message).length, 1, 'reactions on the message', reply);
    },
  }),
  ...scenarios(
    [
      { key: 'unknown-emoji', title: 'an unknown emoji name', name: 'not_an_emoji_at_all', missing: false },
      { key: 'missing-message', title: 'a message that does not exist', name: 'octopus', missing: true },
    ],
    (row) =>
      scenario({
        id: `companion/flags-reactions/refused-${row.key}`,
        title: `a reaction to ${row.title} is refused and adds nothing`,
        rules: [RULE(3)],
        requires: REQUIRES,
        given: (ctx) => ownMessages(ctx, `refused ${row.key}`),
        when: (ctx, { ids }) =>
          ctx.as('member_2').post(`/api/v1/messages/${row.missing ? MISSING_ID : ids[0]}/reactions`, { emoji_name: row.name }),
        async then(ctx, res, { ids }) {
          ctx.expectError(RULE(3), res, { status: 400, code: 'BAD_REQUEST' });
          const { reply, message } = await viewOf(ctx, 'member', ids[0]!);
          ctx.expectEqual(RULE(3), reactionsOf(message).length, 0, 'reactions on the scenario’s message', reply);
        },
      }),
  ),
  scenario({
    id: 'companion/flags-reactions/refused-unknown-code',
    title: 'a reaction whose code names no emoji is refused as an invalid code, though its name is known',
    rules: [RULE(14)],
    requires: REQUIRES,
    given: (ctx) => ownMessages(ctx, 'refused unknown code'),
    when: (ctx, { ids }) =>
      ctx
        .as('member_2')
        .post(`/api/v1/messages/${ids[0]}/reactions`, { emoji_name: 'octopus', emoji_code: 'fffff', reaction_type: 'unicode_emoji' }),
    async then(ctx, res, { ids }) {
      ctx.expectError(RULE(14), res, { status: 400, code: 'BAD_REQUEST' });
      // The reference's page writes the text without the period its server sends: either is its answer.
      const msg = String(res.body.msg);
      ctx.check(
        RULE(14),
        /^Invalid emoji code\.?$/.test(msg),
        `msg ${JSON.stringify(msg)} (reference add-reaction: "Invalid emoji code")`,
        res,
      );
      const { reply, message } = await viewOf(ctx, 'member', ids[0]!);
      ctx.expectEqual(RULE(14), reactionsOf(message).length, 0, 'reactions on the scenario’s message', reply);
    },
  }),
  scenario({
    id: 'companion/flags-reactions/remove-own-only',
    title: 'removing takes away only the caller’s reaction; removing one never made is refused',
    rules: [RULE(4)],
    requires: REQUIRES,
    async given(ctx) {
      const setup = await ownMessages(ctx, 'reaction removal');
      for (const role of ['member', 'member_2'] as const)
        ctx.must(await ctx.as(role).post(`/api/v1/messages/${setup.ids[0]}/reactions`, { emoji_name: 'octopus' }), `${role} reacts`);
      return setup;
    },
    async when(ctx, { ids }) {
      const removed = await ctx.as('member_2').delete(`/api/v1/messages/${ids[0]}/reactions`, { emoji_name: 'octopus' });
      const again = await ctx.as('member_2').delete(`/api/v1/messages/${ids[0]}/reactions`, { emoji_name: 'octopus' });
      return { removed, again };
    },
    async then(ctx, { removed, again }, { ids }) {
      ctx.expectSuccess(RULE(4), removed);
      ctx.expectError(RULE(4), again, { status: 400, code: missingCode(ctx) });
      const { reply, message } = await viewOf(ctx, 'member', ids[0]!);
      const left = reactionsOf(message).map((r) => r.user_id);
      ctx.expectEqual(RULE(4), left, [ctx.user('member').user_id], 'who still reacts', reply);
    },
  }),
  scenario({
    id: 'companion/flags-reactions/events',
    title: 'adding and removing a reaction send reaction events to the message’s recipients',
    rules: [RULE(5)],
    requires: REQUIRES,
    async given(ctx) {
      const setup = await ownMessages(ctx, 'reaction events');
      return { ...setup, queue: await queueFor(ctx, 'member', ['reaction']) };
    },
    async when(ctx, { ids }) {
      ctx.must(await ctx.as('member_2').post(`/api/v1/messages/${ids[0]}/reactions`, { emoji_name: 'octopus' }), 'react');
      return ctx.as('member_2').delete(`/api/v1/messages/${ids[0]}/reactions`, { emoji_name: 'octopus' });
    },
    async then(ctx, res, { ids, queue }) {
      ctx.expectSuccess(RULE(5), res);
      // Only this scenario's message: other scenarios' members react in their own channels meanwhile.
      const mine = (e: Obj) => e.message_id === ids[0];
      const { reply, events } = await eventsIn(queue, (e) => e.filter(mine).length >= 2);
      const seen = events.filter(mine).map((e) => [e.type, e.op, e.message_id, e.user_id, e.emoji_name, e.emoji_code, e.reaction_type]);
      const expected = (op: string) => ['reaction', op, ids[0], ctx.user('member_2').user_id, 'octopus', '1f419', 'unicode_emoji'];
      ctx.expectEqual(RULE(5), seen, [expected('add'), expected('remove')], 'reaction events of the member (a recipient)', reply);
    },
  }),
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const FLAGS_REACTIONS: any[] = [...REACTIONS, ...LEVEL_193, ...FLAG_SCENARIOS];
