import type { Params } from '../src/client.js';
import { SetupError, type ScenarioContext } from '../src/context.js';
import type { WorldRole } from '../src/world.js';

/** Reading JSON answers in scenarios of every area: objects, lists of objects and integers, tolerant of wrong shapes (the checks report those). */
export type Obj = Record<string, unknown>;
export const asObject = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
export const asArray = (v: unknown): Obj[] => (Array.isArray(v) ? v.map(asObject) : []);
export const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** One channel as an administrator sees it (GET /api/v1/streams/{id}, a companion operation). */
export async function readChannel(ctx: ScenarioContext, streamId: number): Promise<Obj> {
  const res = ctx.must(await ctx.as('administrator').get(`/api/v1/streams/${streamId}`), `read channel ${streamId}`);
  return res.body.stream as Obj;
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
export async function ownChannel(ctx: ScenarioContext, creator: WorldRole, label: string, opts: { inviteOnly?: boolean; members?: WorldRole[]; description?: string } = {}): Promise<OwnChannel> {
  const name = ctx.unique(label);
  const principals = [creator, ...(opts.members ?? [])].map((r) => ctx.user(r).user_id);
  const params: Params = { subscriptions: [{ name, ...(opts.description !== undefined ? { description: opts.description } : {}) }], principals };
  if (opts.inviteOnly) params.invite_only = true;
  ctx.must(await ctx.as(creator).post('/api/v1/users/me/subscriptions', params), `create channel ${name}`);
  const found = ctx.must(await ctx.as(creator).get('/api/v1/get_stream_id', { stream: name }), `find channel ${name}`);
  const id = found.body.stream_id;
  if (!isInt(id)) throw new SetupError(`get_stream_id answered ${JSON.stringify(id)} for the new channel`);
  ctx.defer(() => ctx.as('administrator').delete(`/api/v1/streams/${id}`));
  return { name, stream_id: id };
}

/** §4.16 message_retention_days as a channel shows it (null: realm default, -1: forever) put back on the wire (JSON: "realm_default", "unlimited" or a number). */
export const retentionParam = (value: unknown): string => JSON.stringify(value === null || value === undefined ? 'realm_default' : value === -1 ? 'unlimited' : Number(value));

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
  const res = ctx.must(await ctx.as('administrator').post('/api/v1/users', { email, password: 'a-Long-and-unusual-passw0rd!', full_name }), `create the user ${full_name}`);
  if (!isInt(res.body.user_id)) throw new SetupError('creating a user returned no user_id');
  const id = res.body.user_id;
  ctx.defer(() => ctx.as('owner').delete(`/api/v1/users/${id}`));
  return { user_id: id, email, full_name };
}
