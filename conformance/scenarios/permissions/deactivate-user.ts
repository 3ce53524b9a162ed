import { scenario, scenarios } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import { ownUser } from '../shared.js';
import { assumeOnlyOwner, readUser } from './support.js';

/**
 * Spec §4.17 "Deactivate a user": "Organization administrators only" (§5: BAD_REQUEST for a caller
 * without the role), "Error: BAD_REQUEST when the target is the only organization owner" (§7 "only
 * owner cannot be deactivated"). A deactivation cannot be undone through the spec's operations, so
 * even the refusals run in a realm of their own on the mock: a wrong server would otherwise break
 * every scenario sharing the realm.
 */

const refused = scenarios(['moderator', 'member', 'guest', 'bot'] as const satisfies readonly WorldRole[], (role) =>
  scenario({
    id: `permissions/deactivate-user-refused-${role}`,
    title: `a ${role} may not deactivate a user, who stays active`,
    rules: ['R4.17-1', 'R5-2'],
    requires: { roles: [role, 'member_2', 'administrator'] },
    isolated: true,
    when: (ctx) => ctx.as(role).delete(`/api/v1/users/${ctx.user('member_2').user_id}`),
    async then(ctx, res) {
      ctx.expectError('R5-2', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.expectEqual(
        'R4.17-1',
        (await readUser(ctx, ctx.user('member_2').user_id)).is_active,
        true,
        "member_2's is_active after the refusal",
      );
    },
  }),
);

const byAdministrator = scenario({
  id: 'permissions/deactivate-user-by-administrator',
  title: 'an organization administrator deactivates a member',
  rules: ['R4.17-1'],
  requires: { roles: ['administrator', 'owner'] },
  // Creates and deactivates a user of its own: a real server keeps the account.
  destructive: true,
  given: (ctx) => ownUser(ctx, 'deactivated member'),
  when: (ctx, user) => ctx.as('administrator').delete(`/api/v1/users/${user.user_id}`),
  async then(ctx, res, user) {
    ctx.expectSuccess('R4.17-1', res);
    ctx.expectEqual('R4.17-1', (await readUser(ctx, user.user_id)).is_active, false, "the member's is_active");
  },
});

const onlyOwner = scenario({
  id: 'permissions/deactivate-only-owner-refused',
  title: 'the only organization owner cannot be deactivated (here by themself), and stays active',
  rules: ['R4.17-3', 'R7-3'],
  requires: { roles: ['owner', 'administrator'] },
  isolated: true,
  given: (ctx) => assumeOnlyOwner(ctx),
  when: (ctx) => ctx.as('owner').delete(`/api/v1/users/${ctx.user('owner').user_id}`),
  async then(ctx, res) {
    ctx.expectError('R4.17-3', res, { status: 400, code: 'BAD_REQUEST' });
    const after = await readUser(ctx, ctx.user('owner').user_id);
    ctx.expectEqual('R7-3', [after.is_active, after.role], [true, 100], "the owner's [is_active, role] after the refusal");
  },
});

const secondOwner = scenario({
  id: 'permissions/deactivate-owner-when-not-the-only-one',
  title: 'an owner who is not the only one can be deactivated',
  rules: ['R4.17-3'],
  requires: { roles: ['owner', 'administrator'] },
  destructive: true,
  async given(ctx) {
    const user = await ownUser(ctx, 'second owner');
    ctx.must(await ctx.as('owner').patch(`/api/v1/users/${user.user_id}`, { role: 100 }), 'make the new user a second owner');
    return user;
  },
  when: (ctx, user) => ctx.as('owner').delete(`/api/v1/users/${user.user_id}`),
  async then(ctx, res, user) {
    ctx.expectSuccess('R4.17-3', res);
    ctx.expectEqual('R4.17-3', (await readUser(ctx, user.user_id)).is_active, false, "the second owner's is_active");
  },
});

export default [...refused, byAdministrator, onlyOwner, secondOwner];
