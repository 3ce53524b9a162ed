import type { Reply } from '../../src/client.js';
import { SetupError, type ScenarioContext } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import { asArray, isInt, ownChannel, ownUser, snapshotOf } from '../shared.js';

/**
 * Wildcard mentions refused by the organization's policy (companion tier; reference send-message and
 * update-message, changelog feature levels 229 and 352). The reference refuses a channel wildcard only in a
 * channel of more than 15 subscribers, so these scenarios make one: a channel of their own with every world
 * user and, to pass 15, users of their own (created, then deactivated: a real server keeps them, hence
 * destructive). They set the realm's rule to administrators for their run and put the old one back.
 * Topic wildcards need more than 15 people who sent or reacted in the topic, more than a world file's keys
 * can act as, so only the mock's tests check them.
 */
const RULE = (n: number) => `C.edit-delete-${n}`;
const THRESHOLD = 15;
const WORLD_ROLES: WorldRole[] = ['owner', 'administrator', 'moderator', 'member', 'member_2', 'member_3', 'guest', 'bot', 'bot_owner'];

/** Below level 229 the refusal was a plain BAD_REQUEST with an older text (reference send-message). */
const refusal = (ctx: ScenarioContext) =>
  ctx.has('wildcard_mention_error_codes')
    ? { code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED', msg: 'You do not have permission to use channel wildcard mentions in this channel.' }
    : { code: 'BAD_REQUEST', msg: 'You do not have permission to use wildcard mentions in this stream.' };

/**
 * Administrators only, for the scenario's run: wildcard_mention_policy 5 below level 352, the group setting
 * can_mention_many_users_group from it (reference update-realm); the value found is put back afterwards.
 */
async function administratorsOnly(ctx: ScenarioContext): Promise<void> {
  const admin = ctx.as('administrator');
  const before = await snapshotOf(ctx, 'administrator', ['realm']);
  if (ctx.has('can_mention_many_users_group')) {
    const group = ctx.world.user_groups.system['role:administrators'];
    if (group === undefined) throw new SetupError('the world file has no role:administrators group');
    const was = before.body.realm_can_mention_many_users_group;
    ctx.must(
      await admin.patch('/api/v1/realm', { can_mention_many_users_group: { new: group } }),
      'limit wildcard mentions to administrators',
    );
    if (was !== undefined) ctx.defer(() => admin.patch('/api/v1/realm', { can_mention_many_users_group: { new: was } }));
  } else {
    const was = before.body.realm_wildcard_mention_policy;
    ctx.must(await admin.patch('/api/v1/realm', { wildcard_mention_policy: 5 }), 'limit wildcard mentions to administrators');
    if (isInt(was)) ctx.defer(() => admin.patch('/api/v1/realm', { wildcard_mention_policy: was }));
  }
}

/** A channel of the scenario's own with more than 15 subscribers, the member among them. */
async function largeChannel(ctx: ScenarioContext, label: string): Promise<{ stream_id: number; name: string }> {
  const members = WORLD_ROLES.filter((r) => r !== 'administrator' && ctx.world.credentials[r] !== undefined);
  const channel = await ownChannel(ctx, 'administrator', label, { members });
  // As many as the server subscribed (it may leave some world users out, bots for one), counted from the
  // subscribers list: subscriber_count exists only from level 394, and these realms sit at 228 and 229.
  const read = ctx.must(
    await ctx.as('administrator').get('/api/v1/users/me/subscriptions', { include_subscribers: true }),
    'list the subscriptions with their subscribers',
  );
  const own = asArray(read.body.subscriptions).find((s) => s.stream_id === channel.stream_id);
  if (!Array.isArray(own?.subscribers)) throw new SetupError('the new channel shows no subscribers list');
  const count = own.subscribers.length;
  const extra: number[] = [];
  for (let i = count + 1; i <= THRESHOLD + 1; i++) extra.push((await ownUser(ctx, `${label} ${i}`)).user_id);
  ctx.must(
    await ctx.as('administrator').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name: channel.name }], principals: extra }),
    `subscribe ${extra.length} users of the scenario's own`,
  );
  return channel;
}

const send = (ctx: ScenarioContext, role: WorldRole, streamId: number, content: string): Promise<Reply> =>
  ctx.as(role).post('/api/v1/messages', { type: 'stream', to: streamId, topic: 'wildcards', content });

const REQUIRES = { roles: ['administrator' as const, 'owner' as const, 'member' as const] };

const bySending = (['below', 'from'] as const).map((side) =>
  scenario({
    id: `companion/edit-delete/level-229-${side}-channel-wildcard-refused`,
    title:
      side === 'below'
        ? "below level 229 a member's @**all** in a channel of more than 15 subscribers is refused with BAD_REQUEST; an administrator's goes"
        : "from level 229 a member's @**all** in a channel of more than 15 subscribers is STREAM_WILDCARD_MENTION_NOT_ALLOWED; an administrator's goes",
    rules: [RULE(16), RULE(18)],
    requires: {
      ...REQUIRES,
      level: side === 'below' ? { below: 'wildcard_mention_error_codes' as const } : { from: 'wildcard_mention_error_codes' as const },
    },
    // Creates users (a real server keeps them, deactivated) and changes a realm setting for its run: alone,
    // so that no other scenario reads the setting while it is changed and puts back a value it did not find.
    destructive: true,
    isolated: true,
    async given(ctx) {
      await administratorsOnly(ctx);
      return largeChannel(ctx, `wildcards ${side} 229`);
    },
    async when(ctx, channel) {
      return {
        member: await send(ctx, 'member', channel.stream_id, '@**all** the meeting moved'),
        admin: await send(ctx, 'administrator', channel.stream_id, '@**all** the meeting moved'),
      };
    },
    then(ctx, { member, admin }) {
      // The codes and texts are the reference's (send-message): the spec is silent on wildcard mentions.
      ctx.expectError(RULE(16), member, { status: 400, ...refusal(ctx) });
      ctx.expectSuccess(RULE(18), admin);
    },
  }),
);

export const EDIT_DELETE_WILDCARDS = [
  ...bySending,
  scenario({
    id: 'companion/edit-delete/wildcard-edit-refused',
    title: "an edit adding @**all** to a member's message in a channel of more than 15 subscribers is refused, and the content stays",
    rules: [RULE(17)],
    requires: REQUIRES,
    destructive: true,
    isolated: true,
    async given(ctx) {
      await administratorsOnly(ctx);
      const channel = await largeChannel(ctx, 'wildcard edit');
      const sent = ctx.must(await send(ctx, 'member', channel.stream_id, 'the meeting moved'), 'send a message');
      if (!isInt(sent.body.id)) throw new SetupError('sending a message returned no id');
      return sent.body.id;
    },
    when: (ctx, id) => ctx.as('member').patch(`/api/v1/messages/${id}`, { content: '@**all** the meeting moved' }),
    async then(ctx, res, id) {
      ctx.expectError(RULE(17), res, { status: 400, ...refusal(ctx) });
      const after = await ctx.as('member').get(`/api/v1/messages/${id}`, { apply_markdown: false });
      const content = (after.body.message as { content?: unknown } | undefined)?.content;
      ctx.expectEqual(RULE(17), content, 'the meeting moved', 'the message content after the refusal', after);
    },
  }),
  scenario({
    id: 'companion/edit-delete/wildcard-small-channel-allowed',
    title: "a member's @**all** in a channel of 15 subscribers or fewer is sent",
    rules: [RULE(18)],
    requires: { roles: ['member', 'member_2'] },
    given: (ctx) => ownChannel(ctx, 'member', 'small wildcard', { members: ['member_2'] }),
    when: (ctx, channel) => send(ctx, 'member', channel.stream_id, '@**all** lunch?'),
    then: (ctx, res) => void ctx.expectSuccess(RULE(18), res),
  }),
];
