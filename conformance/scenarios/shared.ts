import type { Params, Reply } from '../src/client.js';
import type { Actor, ScenarioContext } from '../src/context.js';
import type { WorldRole } from '../src/world.js';

/** Reading JSON answers in scenarios of every area: objects, lists of objects and integers, tolerant of wrong shapes (the checks report those). */
export type Obj = Record<string, unknown>;
export const asObject = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const asArray = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(asObject) : []);
export const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/**
 * A check that the server read a request parameter as spec §1 encodes it (R1-1: a JSON-encoded list or
 * object, a query parameter), concluded from fields of the answer. It is made only when the answer has the
 * fields it reads (`answered`): an answer without them breaks its schema, and that finding is the cause,
 * not the parsing of the request.
 */
export function parsedCheck(ctx: ScenarioContext, answered: boolean, ok: boolean, message: string, reply?: Reply): void {
  if (answered) ctx.check('R1-1', ok, message, reply);
}

/** One channel as an administrator sees it (GET /api/v1/streams/{id}, a companion operation). */
export async function readChannel(ctx: ScenarioContext, streamId: number): Promise<Obj> {
  const res = ctx.must(await ctx.as('administrator').get(`/api/v1/streams/${streamId}`), `read channel ${streamId}`);
  return ctx.need(res, 'stream', 'object');
}

export interface OwnChannel {
  name: string;
  stream_id: number;
}

/**
 * A channel of the scenario's own, under a `ctx.unique()` name: created by subscribing `creator` and the
 * `members` to it (POST /users/me/subscriptions creates a channel that does not exist yet, a companion
 * operation), private when `inviteOnly`. A scenario that changes a channel changes one of these, never a
 * world channel other scenarios read; the administrator archives it afterwards (DELETE /streams/{id}, a
 * companion operation), so real servers' lists stay short.
 */
export async function ownChannel(
  ctx: ScenarioContext,
  creator: WorldRole,
  label: string,
  opts: { inviteOnly?: boolean; members?: WorldRole[]; description?: string } = {},
): Promise<OwnChannel> {
  const name = ctx.unique(label);
  const principals = [creator, ...(opts.members ?? [])].map((r) => ctx.user(r).user_id);
  const params: Params = {
    subscriptions: [{ name, ...(opts.description !== undefined ? { description: opts.description } : {}) }],
    principals,
  };
  if (opts.inviteOnly) params.invite_only = true;
  ctx.must(await ctx.as(creator).post('/api/v1/users/me/subscriptions', params), `create channel ${name}`);
  const found = ctx.must(await ctx.as(creator).get('/api/v1/get_stream_id', { stream: name }), `find channel ${name}`);
  const id = ctx.need(found, 'stream_id', 'integer');
  ctx.defer(() => ctx.as('administrator').delete(`/api/v1/streams/${id}`));
  return { name, stream_id: id };
}

/** §4.16 message_retention_days as a channel shows it (null: realm default, -1: forever) put back on the wire (JSON: "realm_default", "unlimited" or a number). */
export const retentionParam = (value: unknown): string =>
  JSON.stringify(value === null || value === undefined ? 'realm_default' : value === -1 ? 'unlimited' : Number(value));

/**
 * A member of the scenario's own (POST /api/v1/users as the world's administrator, who must hold
 * can_create_users), for scenarios that re-role, rename, re-address or deactivate someone: never one of the
 * world's users, whom every other scenario acts as. Deactivated afterwards by the owner (owners may
 * deactivate owners too, §4.17), since no operation deletes a user.
 */
export async function ownUser(ctx: ScenarioContext, label: string): Promise<{ user_id: number; email: string; full_name: string }> {
  const domain = ctx.user('owner').email.split('@')[1] ?? 'example.com';
  const full_name = ctx.unique(label);
  const email = `${full_name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}@${domain}`;
  const res = ctx.must(
    await ctx.as('administrator').post('/api/v1/users', { email, password: 'a-Long-and-unusual-passw0rd!', full_name }),
    `create the user ${full_name}`,
  );
  const id = ctx.need(res, 'user_id', 'integer');
  ctx.defer(() => ctx.as('owner').delete(`/api/v1/users/${id}`));
  return { user_id: id, email, full_name };
}

/** An ID no target plausibly uses: unknown messages, channels, users, scheduled messages, snippets. */
export const MISSING_ID = 999_999_937;

/** Far enough ahead that nothing scheduled is delivered while the suite runs (clock-moving scenarios included). */
const AHEAD = 7 * 86_400;

/** A time in the future of the target's clock (scheduled messages, reminders). */
export async function future(ctx: ScenarioContext, seconds = AHEAD): Promise<number> {
  return (await ctx.serverTime()) + seconds;
}

/**
 * register, then delete the queue at once: a snapshot of state (§4.21), as a setup step that must
 * succeed. A scenario whose call under test is register itself uses `ctx.snapshot`, which answers any reply.
 */
export async function snapshot(ctx: ScenarioContext, role: WorldRole, params: Params): Promise<Reply> {
  return ctx.must(await ctx.snapshot(role, params), `register as ${role}`);
}

/** A snapshot (as `snapshot`) of the initial state of some event types: registered for and fetched alike. */
export function snapshotOf(ctx: ScenarioContext, role: WorldRole, types: string[], params: Params = {}): Promise<Reply> {
  return snapshot(ctx, role, { event_types: types, fetch_event_types: types, ...params });
}

export interface Queue {
  actor: Actor;
  id: string;
  /** register's last_event_id: where fetching starts (§6.1). */
  lastEventId: number;
  reply: Reply;
}

/** Registers an event queue as `who` (a setup step: it must succeed); the queue is deleted after the scenario. */
export async function openQueue(ctx: ScenarioContext, who: WorldRole, params: Params = {}): Promise<Queue> {
  const actor = ctx.as(who);
  const reply = ctx.must(await actor.post('/api/v1/register', params), `register as ${who}`);
  const id = ctx.need(reply, 'queue_id', 'string');
  ctx.defer(() => actor.delete('/api/v1/events', { queue_id: id }));
  return { actor, id, lastEventId: typeof reply.body.last_event_id === 'number' ? reply.body.last_event_id : -1, reply };
}
