import type { Params, Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import type { WorldRole } from '../../src/world.js';
import { asArray, ownChannel, type Obj, type OwnChannel } from '../shared.js';

/** Helpers of the history scenarios (companion tier, GET /messages) only. */

/** A channel message sent now (companion send operation); its ID. */
export async function sendTo(ctx: ScenarioContext, role: WorldRole, streamId: number, topic: string, content: string): Promise<number> {
  const res = ctx.must(
    await ctx.as(role).post('/api/v1/messages', { type: 'stream', to: streamId, topic, content }),
    `send to channel ${streamId}`,
  );
  return ctx.need(res, 'id', 'integer');
}

/** A public channel of the scenario's own with `count` messages of `sender` under one topic; their IDs, ascending. */
export async function channelWithMessages(
  ctx: ScenarioContext,
  label: string,
  count: number,
  opts: { sender?: WorldRole; members?: WorldRole[]; inviteOnly?: boolean } = {},
): Promise<{ channel: OwnChannel; topic: string; ids: number[] }> {
  const sender = opts.sender ?? 'member';
  const channel = await ownChannel(ctx, sender, label, { members: opts.members ?? [], inviteOnly: opts.inviteOnly ?? false });
  const topic = ctx.unique(`${label} topic`);
  const ids: number[] = [];
  for (let i = 1; i <= count; i++) ids.push(await sendTo(ctx, sender, channel.stream_id, topic, `history message ${i}`));
  return { channel, topic, ids };
}

/** GET /messages as a role. */
/**
 * GET /messages as a role. Without message_ids the window's sizes default to 0 here: the reference requires
 * both below feature level 300 (get-messages), so every scenario's request stays valid at every level.
 */
export const history = (ctx: ScenarioContext, role: WorldRole, params: Params): Promise<Reply> =>
  ctx.as(role).get('/api/v1/messages', 'message_ids' in params ? params : { num_before: 0, num_after: 0, ...params });

export const idsOf = (reply: Reply): unknown[] => asArray(reply.body.messages).map((m) => m.id);
export const messageOf = (reply: Reply, id: number): Obj | undefined => asArray(reply.body.messages).find((m) => m.id === id);
export const channelNarrow = (streamId: number): Params['narrow'] => [{ operator: 'channel', operand: streamId }];
