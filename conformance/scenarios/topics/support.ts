import type { Params, Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { SetupError } from '../../src/context.js';
import type { World, WorldRole } from '../../src/world.js';
import { asArray, asObject, isInt, snapshot, type Obj, type Queue } from '../shared.js';

export { asArray, asObject, isInt, type Obj };
export { MISSING_ID, future, openQueue, snapshot } from '../shared.js';

/**
 * Helpers of the topics area: scheduled messages, sent messages, snapshots and event queues, all through
 * the API (conformance/README.md). Everything a helper creates is removed by ctx.defer.
 */

/** A world-file entry a scenario cannot do without (messages are optional in the schema). */
export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new SetupError(`the world file has no ${what}`);
  return value;
}
export const protectedHistory = (world: World) => need(world.messages.protected_history, 'messages.protected_history');

/** realm_empty_topic_display_name as register returns it (§1); never hard-coded. */
export async function displayName(ctx: ScenarioContext): Promise<string> {
  const res = await snapshot(ctx, 'member', { event_types: ['realm'], fetch_event_types: ['realm'] });
  const name = ctx.need(res, 'realm_empty_topic_display_name', 'string');
  if (name === '') throw new SetupError('POST /api/v1/register answered an empty realm_empty_topic_display_name');
  return name;
}

/**
 * The display name where the server has one; below level 334 (empty_topic_name) there is no empty topic
 * and register sends no realm_empty_topic_display_name, so checks of the name itself do not apply.
 */
export const displayNameIfAny = async (ctx: ScenarioContext): Promise<string | undefined> =>
  ctx.has('empty_topic_name') ? displayName(ctx) : undefined;

/** Deletes a scheduled message after the scenario when a creation answered its ID. */
export function removeLater(ctx: ScenarioContext, role: WorldRole, reply: Reply): void {
  const id = reply.body.scheduled_message_id;
  if (isInt(id)) ctx.defer(() => ctx.as(role).delete(`/api/v1/scheduled_messages/${id}`));
}

/** A scheduled message made as a precondition (deleted afterwards). */
export async function schedule(ctx: ScenarioContext, role: WorldRole, params: Params): Promise<number> {
  const res = ctx.must(await ctx.as(role).post('/api/v1/scheduled_messages', params), 'create a scheduled message');
  removeLater(ctx, role, res);
  return ctx.need(res, 'scheduled_message_id', 'integer');
}

/**
 * One scheduled message of the caller as a register snapshot shows it, with or without the
 * empty_topic_name client capability (§1, §4.21): the way to read the topic that was stored.
 */
export async function storedScheduled(
  ctx: ScenarioContext,
  role: WorldRole,
  id: number,
  emptyTopicName = true,
): Promise<{ reply: Reply; item: Obj | undefined }> {
  const reply = await snapshot(ctx, role, {
    event_types: ['scheduled_messages'],
    fetch_event_types: ['scheduled_messages'],
    client_capabilities: { empty_topic_name: emptyTopicName },
  });
  return { reply, item: asArray(reply.body.scheduled_messages).find((m) => m.scheduled_message_id === id) };
}

/** The caller's scheduled messages (companion list operation). */
export async function listScheduled(ctx: ScenarioContext, role: WorldRole): Promise<Obj[]> {
  const res = ctx.must(await ctx.as(role).get('/api/v1/scheduled_messages'), 'list scheduled messages');
  return asArray(res.body.scheduled_messages);
}

/** A channel message sent now (companion send operation); returns its ID. */
export async function send(
  ctx: ScenarioContext,
  role: WorldRole,
  streamId: number,
  topic: string,
  content = 'conformance',
): Promise<number> {
  const res = ctx.must(
    await ctx.as(role).post('/api/v1/messages', { type: 'stream', to: streamId, topic, content }),
    `send to channel ${streamId}`,
  );
  return ctx.need(res, 'id', 'integer');
}

/** The caller's flags on a message (§4.3). */
export async function flagsOf(ctx: ScenarioContext, role: WorldRole, messageId: number): Promise<{ reply: Reply; flags: unknown }> {
  const reply = ctx.must(await ctx.as(role).get(`/api/v1/messages/${messageId}`), `fetch message ${messageId}`);
  return { reply, flags: asObject(reply.body.message).flags };
}

/**
 * The events of a queue, polled without blocking until `until` holds (servers may deliver events a
 * moment after the request that caused them) or the tries run out; nothing is acknowledged, so each
 * answer holds every event so far.
 */
export async function pollEvents(
  ctx: ScenarioContext,
  role: WorldRole,
  queue: Queue,
  until: (events: Obj[]) => boolean,
  tries = 25,
): Promise<{ reply: Reply; events: Obj[] }> {
  for (let i = 0; ; i++) {
    const reply = ctx.must(
      await ctx.as(role).get('/api/v1/events', { queue_id: queue.id, last_event_id: -1, dont_block: true }),
      'fetch events',
    );
    const events = asArray(reply.body.events);
    if (until(events) || i + 1 >= tries) return { reply, events };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Message events of a queue, as their message objects. */
export const messagesOf = (events: Obj[]): Obj[] => events.filter((e) => e.type === 'message').map((e) => asObject(e.message));

/** A channel's object from GET /streams (every channel the caller may see, archived too). */
export async function channelInfo(ctx: ScenarioContext, role: WorldRole, streamId: number): Promise<Obj | undefined> {
  const res = ctx.must(await ctx.as(role).get('/api/v1/streams', { include_all: true, exclude_archived: false }), 'list channels');
  return asArray(res.body.streams).find((s) => s.stream_id === streamId);
}

/** Sets a channel's topics_policy as the administrator and restores the old value afterwards. */
export async function setPolicy(ctx: ScenarioContext, streamId: number, policy: string): Promise<void> {
  const before = await channelInfo(ctx, 'administrator', streamId);
  if (typeof before?.topics_policy !== 'string') throw new SetupError(`channel ${streamId} has no topics_policy`);
  const old = before.topics_policy;
  ctx.must(await ctx.as('administrator').patch(`/api/v1/streams/${streamId}`, { topics_policy: policy }), `set topics_policy ${policy}`);
  ctx.defer(() => ctx.as('administrator').patch(`/api/v1/streams/${streamId}`, { topics_policy: old }));
}
