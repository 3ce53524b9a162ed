import type { Reply } from '../../src/client.js';
import { SetupError, type ScenarioContext } from '../../src/context.js';
import type { WorldRole } from '../../src/world.js';

/**
 * Helpers of the permission scenarios: reading state back after a refusal (through the API only), and
 * stating what the world file must hold for a row of a matrix to mean what it says.
 */

/** One user as an administrator sees it (GET /api/v1/users/{id}, a companion operation). */
export async function readUser(ctx: ScenarioContext, userId: number): Promise<Record<string, unknown>> {
  const res = ctx.must(await ctx.as('administrator').get(`/api/v1/users/${userId}`), `read user ${userId}`);
  return ctx.need(res, 'user', 'object');
}

export { readChannel } from '../shared.js';

/** The active human organization owners (role 100, §2.8), from the user list. */
export async function activeOwners(ctx: ScenarioContext): Promise<number[]> {
  const res = ctx.must(await ctx.as('administrator').get('/api/v1/users'), 'list users');
  const members = (res.body.members ?? []) as { user_id: number; role: number; is_active?: boolean; is_bot?: boolean }[];
  return members.filter((u) => u.role === 100 && u.is_active !== false && !u.is_bot).map((u) => u.user_id);
}

/** The world's owner must be the only one: the §4.7 / §4.17 "only owner" rules need exactly that. */
export async function assumeOnlyOwner(ctx: ScenarioContext): Promise<void> {
  const owners = await activeOwners(ctx);
  assume(
    owners.length === 1 && owners[0] === ctx.user('owner').user_id,
    `the world's owner must be the realm's only owner (owners: ${owners.join(', ')})`,
  );
}

/** The status texts of all users as a caller sees them (register with user_status, §4.21); the queue is deleted. */
export async function statusTexts(ctx: ScenarioContext): Promise<Record<string, string | undefined>> {
  const admin = ctx.as('administrator');
  const res = ctx.must(
    await admin.post('/api/v1/register', { event_types: ['user_status'], fetch_event_types: ['user_status'] }),
    'register for user_status',
  );
  if (typeof res.body.queue_id === 'string') await admin.delete('/api/v1/events', { queue_id: res.body.queue_id });
  const all = (res.body.user_status ?? {}) as Record<string, { status_text?: string }>;
  return Object.fromEntries(Object.entries(all).map(([id, s]) => [id, s.status_text]));
}

/** Names of the channels a user is subscribed to (GET /api/v1/users/me/subscriptions as that user). */
export async function subscribedNames(ctx: ScenarioContext, role: WorldRole): Promise<string[]> {
  const res = ctx.must(await ctx.as(role).get('/api/v1/users/me/subscriptions'), `list ${role}'s subscriptions`);
  return ((res.body.subscriptions ?? []) as { name: string }[]).map((s) => s.name);
}

/** The stream IDs of a GET /api/v1/streams answer. */
export const streamIds = (res: Reply): number[] => ((res.body.streams ?? []) as { stream_id: number }[]).map((s) => s.stream_id);

/** A precondition on the world file: when it does not hold, the row cannot say what it claims (a setup error). */
export function assume(ok: boolean, what: string): void {
  if (!ok) throw new SetupError(`world file: ${what}`);
}

/** Roles subscribed to a channel kind, or in its can_remove_subscribers_group (absent: administrators only). */
export function inRemovers(ctx: ScenarioContext, kind: 'public' | 'private_protected' | 'private_shared', role: WorldRole): boolean {
  return (ctx.channel(kind).can_remove_subscribers ?? []).includes(role);
}
export function subscribedTo(
  ctx: ScenarioContext,
  kind: 'public' | 'private_protected' | 'private_shared' | 'archived',
  role: WorldRole,
): boolean {
  return (ctx.channel(kind).subscribers ?? []).includes(role);
}

/**
 * Two refusals that must look the same (nothing private leaks): status, code and msg equal (msg left
 * out when it names what was asked for). The msg is compared with the target's own other answer,
 * never with a text of the reference server.
 */
export function expectSameRefusal(
  ctx: ScenarioContext,
  rule: string,
  hidden: Reply,
  missing: Reply,
  what: string,
  compareMsg = true,
): void {
  const shape = (r: Reply) => ({ status: r.status, result: r.body.result, code: r.body.code, ...(compareMsg ? { msg: r.body.msg } : {}) });
  ctx.expectEqual(rule, shape(hidden), shape(missing), `${what}: the same answer as for something that does not exist`, hidden);
}

/** An e-mail address in the realm's domain (the owner's) that no other run uses. */
export function uniqueEmail(ctx: ScenarioContext, label: string): string {
  const domain = ctx.user('owner').email.split('@')[1] ?? 'example.com';
  return `${ctx
    .unique(label)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')}@${domain}`;
}

/** A success whose body has only the envelope (§1), as "Success has no extra fields" says. */
export function expectBareSuccess(ctx: ScenarioContext, rule: string, res: Reply): boolean {
  const extra = Object.keys(res.body).filter((k) => !['result', 'msg', 'ignored_parameters_unsupported'].includes(k));
  const ok = res.status === 200 && res.body.result === 'success' && extra.length === 0;
  return ctx.check(
    rule,
    ok,
    ok ? 'answered success with no extra fields' : `expected a bare success: HTTP ${res.status}, ${res.text.slice(0, 200)}`,
    res,
  );
}
