import type { ScenarioContext } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import { readUser, uniqueEmail } from './support.js';

/**
 * Spec §4.10 "Create a user": "Organization administrators only, and the caller needs the
 * can_create_users permission" (§5: an administrator-only operation, BAD_REQUEST for a caller without
 * the role; "Creating users needs can_create_users"). The world file's owner and administrator hold
 * can_create_users (fixtures/README.md).
 */

const newUser = (ctx: ScenarioContext, label: string) => ({
  email: uniqueEmail(ctx, label),
  password: 'Plausible-Horse-Battery-47',
  full_name: ctx.unique('New User'),
});

/** Whether an active user with that address exists, from the user list as an administrator sees it. */
async function listed(ctx: ScenarioContext, email: string): Promise<boolean> {
  const res = ctx.must(await ctx.as('administrator').get('/api/v1/users'), 'list users');
  const members = (res.body.members ?? []) as { email?: string; delivery_email?: string }[];
  return members.some((u) => u.email === email || u.delivery_email === email);
}

const refused = scenarios(['moderator', 'member', 'guest', 'bot'] as const satisfies readonly WorldRole[], (role) =>
  scenario({
    id: `permissions/create-user-refused-${role}`,
    title: `a ${role} may not create a user, and none is created`,
    rules: ['R4.10-1', 'R5-2'],
    requires: { roles: [role, 'administrator'] },
    given: (ctx) => newUser(ctx, `by ${role}`),
    when: (ctx, user) => ctx.as(role).post('/api/v1/users', user),
    async then(ctx, res, user) {
      // A wrong server created the user: deactivate it again.
      if (typeof res.body.user_id === 'number')
        ctx.defer(() => ctx.as('administrator').delete(`/api/v1/users/${String(res.body.user_id)}`));
      ctx.expectError('R5-2', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.check('R4.10-1', !(await listed(ctx, user.email)), `no user ${user.email} after the refusal`);
    },
  }),
);

// Owners are administrators too (§2.8); one row keeps the suite fast (each needs a realm of its own).
const allowed = scenarios(['administrator'] as const satisfies readonly WorldRole[], (role) =>
  scenario({
    id: `permissions/create-user-by-${role}`,
    title: `an organization ${role} holding can_create_users creates a user`,
    rules: ['R4.10-1', 'R4.10-3', 'R5-3'],
    requires: { roles: [role, 'administrator'] },
    destructive: true,
    given: (ctx) => newUser(ctx, `by ${role}`),
    when: (ctx, user) => ctx.as(role).post('/api/v1/users', user),
    async then(ctx, res, user) {
      const id = res.body.user_id;
      // No operation deletes a user: the new one is deactivated afterwards, as the world had no such user.
      if (typeof id === 'number') ctx.defer(() => ctx.as('administrator').delete(`/api/v1/users/${id}`));
      ctx.expectSuccess('R4.10-1', res);
      if (!ctx.check('R4.10-3', typeof id === 'number' && Number.isInteger(id), `user_id ${JSON.stringify(id)} is an integer`, res)) return;
      const created = await readUser(ctx, id as number);
      ctx.expectEqual('R5-3', created.full_name, user.full_name, 'the created user, read back by its user_id');
    },
  }),
);

export default [...refused, ...allowed];
