import type { Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import type { WorldRole } from '../../src/world.js';
import { send } from '../events/support.js';
import { asObject, ownChannel } from '../shared.js';

/** Helpers of the companion edit-delete scenarios (edit-delete.ts) alone. */

export const message = (res: Reply) => asObject(res.body.message);
export const fetchRaw = (ctx: ScenarioContext, who: WorldRole, id: number) =>
  ctx.as(who).get(`/api/v1/messages/${id}`, { apply_markdown: false, allow_empty_topic_name: true });

/** A channel of the scenario's own (member and member_2 subscribed) with one message of the member in it. */
export async function ownMessage(ctx: ScenarioContext, label: string, content = 'original text') {
  const channel = await ownChannel(ctx, 'member', label, { members: ['member_2'] });
  const topic = ctx.unique(`${label} topic`);
  const id = await send(ctx, 'member', { type: 'stream', to: channel.stream_id, topic, content });
  return { channel, topic, id };
}

/**
 * Below level 365 messages carry no last_moved_timestamp (reference get-messages), so a moved message
 * must not show one; what last_edit_timestamp said about moves then is not checked.
 */
export function movedBelowLevel(ctx: ScenarioContext, after: Reply): void {
  const m = message(after);
  ctx.check(
    'R2.5-9',
    !Object.hasOwn(m, 'last_moved_timestamp'),
    `a moved message below level 365 has no last_moved_timestamp: ${JSON.stringify(m.last_moved_timestamp)}`,
    after,
  );
}
