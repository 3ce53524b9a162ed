import type { Params, Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { SetupError } from '../../src/context.js';
import type { WorldRole } from '../../src/world.js';
import { asArray, asObject, future, isInt } from '../shared.js';

export { asArray, asObject, isInt };
export { MISSING_ID, future } from '../shared.js';

/**
 * Helpers shared by the scenarios of this area (errors, limits, success shapes). They speak HTTP only,
 * through the scenario context.
 */

export const isIntArray = (v: unknown): v is number[] => Array.isArray(v) && v.every(isInt);
export const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/**
 * An error with the given code whose HTTP status the spec does not state (§7: "HTTP statuses of the
 * other codes … not shown", and the missing-resource cases of BAD_REQUEST): any 4xx is accepted.
 */
export function expectCode(ctx: ScenarioContext, rule: string, reply: Reply, code: string, extra: Record<string, unknown> = {}): boolean {
  const b = reply.body;
  const problems: string[] = [];
  if (reply.status < 400 || reply.status > 499) problems.push(`HTTP ${reply.status}, expected a 4xx status`);
  if (b.result !== 'error') problems.push(`result ${JSON.stringify(b.result)}`);
  if (b.code !== code) problems.push(`code ${JSON.stringify(b.code)}`);
  for (const [k, v] of Object.entries(extra))
    if (JSON.stringify(b[k]) !== JSON.stringify(v)) problems.push(`${k} ${JSON.stringify(b[k])}, expected ${JSON.stringify(v)}`);
  return ctx.check(
    rule,
    problems.length === 0,
    problems.length === 0 ? `answered ${code} (HTTP ${reply.status})` : `expected an error ${code}: ${problems.join('; ')}`,
    reply,
  );
}

/** §1 "Group-setting value": a group ID, or {direct_members, direct_subgroups} of integer arrays. */
export function isGroupValue(v: unknown): boolean {
  const o = asObject(v);
  return isInt(v) || (isIntArray(o.direct_members) && isIntArray(o.direct_subgroups));
}

export type FieldType =
  'integer' | 'string' | 'boolean' | 'integer[]' | 'string[]' | 'array' | 'object' | 'integer|null' | 'integer|integer[]' | 'group';

function hasType(v: unknown, t: FieldType): boolean {
  switch (t) {
    case 'integer':
      return isInt(v);
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'integer[]':
      return isIntArray(v);
    case 'string[]':
      return isStringArray(v);
    case 'array':
      return Array.isArray(v);
    case 'object':
      return v !== null && typeof v === 'object' && !Array.isArray(v);
    case 'integer|null':
      return v === null || isInt(v);
    case 'integer|integer[]':
      return isInt(v) || isIntArray(v);
    case 'group':
      return isGroupValue(v);
  }
}

/** Every listed field present with the stated type (one check naming all the problems). */
export function expectFields(
  ctx: ScenarioContext,
  rule: string,
  obj: unknown,
  fields: Record<string, FieldType>,
  what: string,
  reply?: Reply,
): boolean {
  const o = asObject(obj);
  const problems = Object.entries(fields)
    .filter(([k, t]) => !(k in o) || !hasType(o[k], t))
    .map(([k, t]) => `${k} ${k in o ? JSON.stringify(o[k])?.slice(0, 60) : 'missing'} (want ${t})`);
  return ctx.check(
    rule,
    problems.length === 0,
    problems.length === 0 ? `${what}: fields as specified` : `${what}: ${problems.join('; ')}`,
    reply,
  );
}

/**
 * Spec §9: PATCH /scheduled_messages/{id} exists from level 184. Below it the scenarios of §4.2 check
 * only that the operation is not offered (R9-4) and stop; returns true then.
 */
export function beforeEditOperation(ctx: ScenarioContext, reply: Reply): boolean {
  if (ctx.has('scheduled_message_edit_endpoint')) return false;
  ctx.check(
    'R9-4',
    reply.body.result === 'error' && reply.status >= 400,
    `below level 184 editing has no operation of its own: HTTP ${reply.status}`,
    reply,
  );
  return true;
}

/** Creates a scheduled channel message for the role (deleted afterwards); its ID. */
export async function scheduleMessage(ctx: ScenarioContext, role: WorldRole, extra: Params = {}): Promise<number> {
  const actor = ctx.as(role);
  const res = ctx.must(
    await actor.post('/api/v1/scheduled_messages', {
      type: 'stream',
      to: ctx.channel('public').stream_id,
      topic: ctx.unique('scheduled'),
      content: ctx.unique('scheduled content'),
      scheduled_delivery_timestamp: await future(ctx),
      ...extra,
    }),
    'schedule a message',
  );
  const id = res.body.scheduled_message_id;
  if (!isInt(id)) throw new SetupError('creating a scheduled message returned no scheduled_message_id');
  ctx.defer(() => actor.delete(`/api/v1/scheduled_messages/${id}`));
  return id;
}

/** Creates a saved snippet for the role (deleted afterwards); its ID. */
export async function createSnippet(ctx: ScenarioContext, role: WorldRole): Promise<{ id: number; title: string; content: string }> {
  const actor = ctx.as(role);
  const title = ctx.unique('snippet');
  const content = ctx.unique('snippet content');
  const res = ctx.must(await actor.post('/api/v1/saved_snippets', { title, content }), 'create a saved snippet');
  const id = res.body.saved_snippet_id ?? res.body.id;
  if (!isInt(id)) throw new SetupError('creating a saved snippet returned no ID');
  ctx.defer(() => actor.delete(`/api/v1/saved_snippets/${id}`));
  return { id, title, content };
}

/** The role's drafts whose content is the given text (GET /drafts). */
export async function draftsWithContent(ctx: ScenarioContext, role: WorldRole, content: string): Promise<Record<string, unknown>[]> {
  const res = ctx.must(await ctx.as(role).get('/api/v1/drafts'), 'list drafts');
  return asArray(res.body.drafts).filter((d) => d.content === content);
}

/** The status of a user (GET /users/{id}/status), as an object. */
export async function statusOf(ctx: ScenarioContext, role: WorldRole): Promise<Record<string, unknown>> {
  const res = ctx.must(await ctx.as('member').get(`/api/v1/users/${ctx.user(role).user_id}/status`), 'read a status');
  // An answer without its status object is a server the scenario cannot judge (an error naming the answer).
  return asObject(ctx.need(res, 'status', 'object'));
}

/** Puts a user's own status text and emoji back afterwards (real servers keep what scenarios change). */
export async function restoreStatusLater(ctx: ScenarioContext, role: WorldRole): Promise<Record<string, unknown>> {
  const before = await statusOf(ctx, role);
  ctx.defer(() =>
    ctx.as(role).post('/api/v1/users/me/status', {
      status_text: typeof before.status_text === 'string' ? before.status_text : '',
      emoji_name: typeof before.emoji_name === 'string' ? before.emoji_name : '',
      ...(typeof before.emoji_name === 'string' && before.emoji_name !== ''
        ? { emoji_code: before.emoji_code as string, reaction_type: before.reaction_type as string }
        : {}),
    }),
  );
  return before;
}

/** A fragment of a navigation view that nobody has: URL-safe, unique per run. */
export function unknownFragment(ctx: ScenarioContext, slashes: boolean): string {
  const word = ctx.unique('view').replace(/[^A-Za-z0-9]+/g, '-');
  return slashes ? `narrow/is/${word}` : word;
}
