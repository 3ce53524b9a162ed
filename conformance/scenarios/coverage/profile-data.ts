import { SetupError, type ScenarioContext } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import { snapshotOf } from './support.js';

/**
 * Spec §4.7 profile_data: "Custom profile field updates, each an object with id (integer) and value
 * (string)", by an organization administrator. The field comes from register's custom_profile_fields
 * (a short-text field, type 1, takes any short string); a server without that key in the snapshot is
 * read through the users' profile_data instead, and the value is then one another user already holds
 * in that field (valid for the field, whatever its type). No field at all: a setup error. The member's
 * value is put back afterwards.
 */

interface Plan {
  field: number;
  value: string;
}

type ProfileData = Record<string, { value?: unknown } | undefined>;

async function profileOf(ctx: ScenarioContext, userId: number): Promise<ProfileData> {
  const res = ctx.must(await ctx.as('administrator').get(`/api/v1/users/${userId}`, { include_custom_profile_fields: true }), `read user ${userId}`);
  return ((res.body.user as Record<string, unknown> | undefined)?.profile_data ?? {}) as ProfileData;
}

async function planChange(ctx: ScenarioContext): Promise<Plan> {
  const me = ctx.user('member').user_id;
  const fields = (await snapshotOf(ctx, 'administrator', ['custom_profile_fields'])).body.custom_profile_fields;
  if (Array.isArray(fields)) {
    const text = (fields as { id: number; type: number }[]).find((f) => f.type === 1);
    if (text) return { field: text.id, value: ctx.unique('team').slice(-40) };
  }
  const mine = await profileOf(ctx, me);
  const res = ctx.must(await ctx.as('administrator').get('/api/v1/users', { include_custom_profile_fields: true }), 'list users');
  for (const u of (res.body.members ?? []) as { user_id: number; profile_data?: ProfileData }[]) {
    if (u.user_id === me) continue;
    for (const [id, v] of Object.entries(u.profile_data ?? {})) {
      if (typeof v?.value === 'string' && v.value !== '' && mine[id]?.value !== v.value) return { field: Number(id), value: v.value };
    }
  }
  throw new SetupError('the realm has no custom profile field to update');
}

/**
 * Plans the change and puts the member's value back afterwards, whatever happens: the world's member keeps the
 * profile the world file found (an absent value is removed again with "", which the reference reads as "none").
 */
async function planAndRestore(ctx: ScenarioContext): Promise<Plan> {
  const plan = await planChange(ctx);
  const me = ctx.user('member').user_id;
  const was = (await profileOf(ctx, me))[String(plan.field)]?.value;
  const value = typeof was === 'string' ? was : '';
  ctx.defer(async () =>
    ctx.must(
      await ctx.as('administrator').patch(`/api/v1/users/${me}`, { profile_data: [{ id: plan.field, value }] }),
      `put back the member's value of field ${plan.field}`,
    ),
  );
  return plan;
}

export default scenario<Plan>({
  id: 'coverage/update-user-profile-data',
  title: "an administrator updates a member's custom profile field through profile_data",
  rules: ['R4.7-9'],
  requires: { roles: ['administrator', 'member'] },
  // Runs only with --allow-destructive on real servers: a run cut short before its clean-up leaves the value changed.
  destructive: true,
  given: planAndRestore,
  when: (ctx, p) => ctx.as('administrator').patch(`/api/v1/users/${ctx.user('member').user_id}`, { profile_data: [{ id: p.field, value: p.value }] }),
  async then(ctx, res, p) {
    ctx.expectSuccess('R4.7-9', res);
    const after = (await profileOf(ctx, ctx.user('member').user_id))[String(p.field)];
    ctx.expectEqual('R4.7-9', after?.value, p.value, `the member's value of field ${p.field}`);
  },
});
