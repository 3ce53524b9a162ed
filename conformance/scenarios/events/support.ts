import type { Params, Reply } from '../../src/client.js';
import { SetupError, type Actor, type ScenarioContext } from '../../src/context.js';
import type { Queue } from '../shared.js';
import type { WorldRole } from '../../src/world.js';

/**
 * Helpers of the events area: event queues (spec §4.21, §6) seen from a client. Every queue a scenario
 * registers is deleted afterwards, so real servers are left as they were found.
 */

export type Event = Record<string, unknown> & { id: number; type: string };

export { openQueue, type Queue } from '../shared.js';

/** A register answer whose queue (if any) is deleted after the scenario: for scenarios about register itself. */
export async function registerOnce(ctx: ScenarioContext, actor: Actor, params: Params = {}): Promise<Reply> {
  const reply = await actor.post('/api/v1/register', params);
  const id = reply.body.queue_id;
  if (typeof id === 'string') ctx.defer(() => actor.delete('/api/v1/events', { queue_id: id }));
  return reply;
}

export const eventsOf = (reply: Reply): Event[] => (Array.isArray(reply.body.events) ? (reply.body.events as Event[]) : []);

/** What the queue holds now, without waiting (the reference's dont_block). */
export function fetchNow(q: Queue): Promise<Reply> {
  return q.actor.get('/api/v1/events', { queue_id: q.id, last_event_id: q.lastEventId, dont_block: true });
}

/** A long-poll: answers when the queue has an event newer than last_event_id, or a heartbeat is due (§6.3). */
export function longPoll(q: Queue): Promise<Reply> {
  return q.actor.get('/api/v1/events', { queue_id: q.id, last_event_id: q.lastEventId, dont_block: false });
}

const RETRY_MS = [0, 50, 100, 200, 400, 800, 1600];

/**
 * The queue's events once one of them matches: fetched without blocking, a few times over about three
 * seconds, since a real server may deliver events a moment after the change's answer (the mock delivers
 * them before answering, so one fetch does). Never blocks: a server that drops the event fails the
 * scenario quickly instead of holding it until a heartbeat.
 */
export async function eventsUntil(
  q: Queue,
  match: (e: Event) => boolean,
): Promise<{ reply: Reply; events: Event[]; found: Event | undefined }> {
  let reply: Reply | undefined;
  for (const wait of RETRY_MS) {
    if (wait > 0) await sleep(wait);
    reply = await fetchNow(q);
    const events = eventsOf(reply);
    const found = events.find(match);
    // An answer without an `events` list is not "nothing yet": waiting for more of it would change nothing.
    if (found || reply.status !== 200 || !Array.isArray(reply.body.events)) return { reply, events, found };
  }
  return { reply: reply!, events: eventsOf(reply!), found: undefined };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A message event for this message ID. */
export const messageEvent = (id: number) => (e: Event) => e.type === 'message' && (e.message as { id?: number } | undefined)?.id === id;

/** Sends a message now (setup): returns its ID. */
export async function send(ctx: ScenarioContext, who: WorldRole, params: Params): Promise<number> {
  const reply = ctx.must(await ctx.as(who).post('/api/v1/messages', params), `send a message as ${who}`);
  return ctx.need(reply, 'id', 'integer');
}

/** A channel message to a world channel, under a unique topic unless one is given. */
export function sendToChannel(ctx: ScenarioContext, who: WorldRole, streamId: number, content: string, topic?: string): Promise<number> {
  return send(ctx, who, { type: 'stream', to: streamId, topic: topic ?? ctx.unique('topic'), content });
}

/** Creates one draft (setup). */
export async function createDraft(ctx: ScenarioContext, who: WorldRole, content: string): Promise<number> {
  const reply = ctx.must(
    await ctx.as(who).post('/api/v1/drafts', { drafts: [{ type: '', to: [], topic: '', content }] }),
    `create a draft as ${who}`,
  );
  const [id] = ctx.need(reply, 'ids', 'array');
  if (typeof id !== 'number' || !Number.isInteger(id))
    throw new SetupError(`POST /api/v1/drafts answered ids ${JSON.stringify(reply.body.ids)}, without the new draft's ID`);
  ctx.defer(() => ctx.as(who).delete(`/api/v1/drafts/${id}`));
  return id;
}

/** User IDs of world roles (those the world file describes). */
export function userIds(ctx: ScenarioContext, roles: readonly WorldRole[]): number[] {
  return [...new Set(roles.filter((r) => r !== 'deactivated' && ctx.world.credentials[r]).map((r) => ctx.user(r).user_id))];
}

export const asArray = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? (value as Record<string, unknown>[]) : []);
export const has = (body: Record<string, unknown>, key: string) => Object.hasOwn(body, key);

/** Channel lists (GET /streams, register's streams) and the ignored-parameter list of a success. */
export const streamsOf = (res: Reply) => asArray(res.body.streams);
export const streamById = (res: Reply, id: number) => streamsOf(res).find((s) => s.stream_id === id);
export const ignoredOf = (res: Reply) =>
  Array.isArray(res.body.ignored_parameters_unsupported) ? (res.body.ignored_parameters_unsupported as string[]) : [];
/** §1 group-setting value: a group ID, or {direct_members, direct_subgroups}. */
export const isGroupSetting = (v: unknown) =>
  Number.isInteger(v) ||
  (typeof v === 'object' &&
    v !== null &&
    Array.isArray((v as Record<string, unknown>).direct_members) &&
    Array.isArray((v as Record<string, unknown>).direct_subgroups));
