import type { Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { asArray, asObject, isInt, ownChannel, openQueue, type Obj, type Queue } from '../shared.js';

/**
 * What the scenarios of area flags-reactions share: a channel of their own where the member writes and
 * member_2 reads (so each scenario's messages, reactions and unread state are its own), the caller's view
 * of a message, unread IDs from register, and the events a queue holds now.
 */
export const RULE = (n: number) => `C.flags-reactions-${n}`;

export interface Setup {
  streamId: number;
  ids: number[];
}

/** A channel of the scenario's own with the member and member_2, and `count` messages the member sent there (unread for member_2). */
export async function ownMessages(ctx: ScenarioContext, label: string, count = 1, topic = 'flags and reactions'): Promise<Setup> {
  const channel = await ownChannel(ctx, 'member', label, { members: ['member_2'] });
  const ids: number[] = [];
  for (let i = 1; i <= count; i++) {
    const res = ctx.must(
      await ctx
        .as('member')
        .post('/api/v1/messages', { type: 'stream', to: channel.stream_id, topic, content: `Message ${i} of ${label}.` }),
      'send a message',
    );
    ids.push(ctx.need(res, 'id', 'integer'));
  }
  return { streamId: channel.stream_id, ids };
}

/** The message as `role` sees it (GET /messages/{id}): reactions and that user's flags. */
export async function viewOf(ctx: ScenarioContext, role: 'member' | 'member_2', id: number): Promise<{ reply: Reply; message: Obj }> {
  const reply = await ctx.as(role).get(`/api/v1/messages/${id}`);
  return { reply, message: asObject(reply.body.message) };
}

export const reactionsOf = (message: Obj) => asArray(message.reactions);
export const flagsOf = (message: Obj): unknown[] => (Array.isArray(message.flags) ? message.flags : []);

/** Every unread message ID register's unread_msgs lists for `role`, and the answer. */
export async function unreadOf(ctx: ScenarioContext, role: 'member_2'): Promise<{ reply: Reply; ids: number[]; count: unknown }> {
  const reply = ctx.must(await ctx.snapshot(role, { event_types: ['message', 'update_message_flags'] }), `register as ${role}`);
  const unread = asObject(reply.body.unread_msgs);
  const ids = [...asArray(unread.streams), ...asArray(unread.pms), ...asArray(unread.huddles)].flatMap((row) =>
    Array.isArray(row.unread_message_ids) ? row.unread_message_ids.filter(isInt) : [],
  );
  return { reply, ids, count: unread.count };
}

/** A queue of `role` for these event types (deleted after the scenario). */
export const queueFor = (ctx: ScenarioContext, role: 'member' | 'member_2', types: string[]) =>
  openQueue(ctx, role, { event_types: types });

/** The events the queue holds, waiting briefly for ones a server delivers after its answer. */
export async function eventsIn(queue: Queue, enough: (events: Obj[]) => boolean): Promise<{ reply: Reply; events: Obj[] }> {
  let reply: Reply | undefined;
  let events: Obj[] = [];
  for (const wait of [0, 100, 400, 1000]) {
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    reply = await queue.actor.get('/api/v1/events', { queue_id: queue.id, last_event_id: queue.lastEventId, dont_block: true });
    events = asArray(reply.body.events).filter((e) => e.type !== 'heartbeat');
    if (enough(events) || reply.status !== 200) break;
  }
  return { reply: reply!, events };
}
