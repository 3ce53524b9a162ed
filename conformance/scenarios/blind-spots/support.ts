import type { Params, Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { SetupError } from '../../src/context.js';
import type { WorldRole } from '../../src/world.js';
import { asArray, asObject, isInt, openQueue, snapshotOf, type Obj } from '../shared.js';

export { asArray, asObject, isInt, type Obj };
export { ownChannel, ownUser, snapshotOf, type OwnChannel } from '../shared.js';

/**
 * Helpers of the blind-spots area. Every scenario here owns its state: the channels it uses are created
 * under names from ctx.unique (subscribing with creation, a companion operation) and archived
 * afterwards, users are created by the world's administrator, and queues are deleted. Nothing of the
 * world file's shared fixtures changes, so these scenarios run in any order, in parallel, against a
 * server without the control API.
 */

/** A channel message sent now (companion send operation); returns its ID. */
export async function sendTo(ctx: ScenarioContext, role: WorldRole, streamId: number, topic: string, content: string): Promise<number> {
  const res = ctx.must(
    await ctx.as(role).post('/api/v1/messages', { type: 'stream', to: streamId, topic, content }),
    `send to channel ${streamId}`,
  );
  if (!isInt(res.body.id)) throw new SetupError(`the send answer has id ${JSON.stringify(res.body.id)}`);
  return res.body.id;
}

/**
 * A channel's object in a GET /api/v1/streams answer of `role` listing every channel it may see:
 * include_all from level 356; below it include_all_active for an administrator (§9), else the default list.
 */
export async function listedFor(
  ctx: ScenarioContext,
  role: WorldRole,
  streamId: number,
): Promise<{ reply: Reply; channel: Obj | undefined }> {
  const all = ctx.has('include_all') ? { include_all: true } : role === 'administrator' ? { include_all_active: true } : {};
  const reply = ctx.must(await ctx.as(role).get('/api/v1/streams', { ...all, exclude_archived: false }), `list channels as ${role}`);
  return { reply, channel: asArray(reply.body.streams).find((s) => s.stream_id === streamId) };
}

/** An event queue of `role` for the scenario (deleted afterwards): its ID. */
export async function queueOf(ctx: ScenarioContext, role: WorldRole, params: Params = {}): Promise<string> {
  return (await openQueue(ctx, role, params)).id;
}

/** Everything a queue holds now, without waiting and without acknowledging. */
export async function eventsNow(ctx: ScenarioContext, role: WorldRole, queueId: string): Promise<{ reply: Reply; events: Obj[] }> {
  const reply = ctx.must(
    await ctx.as(role).get('/api/v1/events', { queue_id: queueId, last_event_id: -1, dont_block: true }),
    `fetch ${role}'s events`,
  );
  return { reply, events: asArray(reply.body.events) };
}

/** A queue's events once `until` holds, polled for about three seconds (servers may deliver late). */
export async function eventsUntil(
  ctx: ScenarioContext,
  role: WorldRole,
  queueId: string,
  until: (events: Obj[]) => boolean,
): Promise<{ reply: Reply; events: Obj[] }> {
  for (let i = 0; ; i++) {
    const got = await eventsNow(ctx, role, queueId);
    // An answer without an `events` list is not "nothing yet": polling again would change nothing.
    if (until(got.events) || i >= 15 || !Array.isArray(got.reply.body.events)) return got;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export const hasMessage = (events: Obj[], id: number) => events.some((e) => e.type === 'message' && asObject(e.message).id === id);

/** An e-mail address in the realm's domain (the owner's) that no other run uses. */
export function uniqueEmail(ctx: ScenarioContext, label: string): string {
  const domain = ctx.user('owner').email.split('@')[1] ?? 'example.com';
  return `${ctx
    .unique(label)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')}@${domain}`;
}

/** The limits register advertises (§1 "Size limits advertised"). */
export async function limits(
  ctx: ScenarioContext,
): Promise<Record<'max_message_length' | 'max_topic_length' | 'max_stream_name_length' | 'max_stream_description_length', number>> {
  const res = await snapshotOf(ctx, 'member', ['realm']);
  const out: Record<string, number> = {};
  for (const k of ['max_message_length', 'max_topic_length', 'max_stream_name_length', 'max_stream_description_length']) {
    const v = res.body[k];
    if (!isInt(v) || v < 8) throw new SetupError(`register advertised ${k} ${JSON.stringify(v)}`);
    out[k] = v;
  }
  return out as Awaited<ReturnType<typeof limits>>;
}

/**
 * A text of exactly `length` characters that starts with a unique label (so what is read back is this
 * run's). No spaces: a server that strips surrounding whitespace must not shorten it wherever it is cut.
 */
export function textOf(ctx: ScenarioContext, label: string, length: number): string {
  const head = ctx.unique(label).replace(/[^A-Za-z0-9]+/g, '-');
  return `${head}-${'x'.repeat(length)}`.slice(0, length);
}
