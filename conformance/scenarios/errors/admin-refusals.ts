import type { ScenarioContext } from '../../src/context.js';
import { SetupError } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import { asArray, asObject } from './support.js';

/**
 * Spec §7 BAD_REQUEST cases of user administration: the only owner cannot be deactivated (§4.17) nor
 * lose the owner role (§4.7), a duplicate email (§4.10), a guest given the administrator role (§4.7),
 * the owner role given by a non-owner (§4.7). Each would change users if the server got it wrong, so
 * they run in a realm of their own (destructive where a wrong answer deactivates or re-roles a user).
 */

/** The role of a user as GET /users/{id} reports it (§2.8 codes). */
async function roleOf(ctx: ScenarioContext, role: WorldRole): Promise<unknown> {
  const res = ctx.must(await ctx.as('administrator').get(`/api/v1/users/${ctx.user(role).user_id}`), 'read a user');
  return asObject(res.body.user).role;
}

/** These scenarios need the owner to be the only one; on a real server with two owners they would do harm. */
async function mustBeOnlyOwner(ctx: ScenarioContext): Promise<void> {
  const res = ctx.must(await ctx.as('administrator').get('/api/v1/users'), 'list users');
  const owners = asArray(res.body.members).filter((u) => u.role === 100 && u.is_active !== false && u.is_bot !== true);
  if (owners.length !== 1 || owners[0]!.user_id !== ctx.user('owner').user_id)
    throw new SetupError(`needs a realm whose only owner is the world's owner (found ${owners.length} owners)`);
}

export default [
  scenario({
    id: 'errors/deactivate-only-owner',
    title: 'deactivating the only organization owner is BAD_REQUEST',
    rules: ['R4.17-3', 'R7-3', 'R7-7'],
    isolated: true,
    destructive: true,
    requires: { roles: ['owner'] },
    given: (ctx) => mustBeOnlyOwner(ctx),
    when: (ctx) => ctx.as('owner').delete(`/api/v1/users/${ctx.user('owner').user_id}`),
    async then(ctx, res) {
      ctx.expectError('R4.17-3', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.check('R7-3', res.body.code === 'BAD_REQUEST', 'only owner cannot be deactivated: BAD_REQUEST', res);
      ctx.check('R7-7', res.status === 400, `BAD_REQUEST with HTTP ${res.status}`, res);
      const still = await ctx.as('owner').post('/api/v1/messages/render', { content: 'still here' });
      ctx.expectSuccess('R4.17-3', still);
    },
  }),
  scenario({
    id: 'errors/demote-only-owner',
    title: 'removing the owner role from the only owner is refused and the role stays 100',
    rules: ['R4.7-7', 'R4.7-11', 'R2.8-1'],
    isolated: true,
    destructive: true,
    requires: { roles: ['owner', 'administrator'] },
    given: (ctx) => mustBeOnlyOwner(ctx),
    when: (ctx) => ctx.as('owner').patch(`/api/v1/users/${ctx.user('owner').user_id}`, { role: 200 }),
    async then(ctx, res) {
      ctx.expectError('R4.7-7', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.check('R4.7-11', res.body.code === 'BAD_REQUEST', 'update-user errors are BAD_REQUEST', res);
      ctx.expectEqual('R2.8-1', await roleOf(ctx, 'owner'), 100, 'the owner role code after the refusal');
    },
  }),
  scenario({
    id: 'errors/owner-role-by-administrator',
    title: 'an administrator (not an owner) giving the owner role is refused and the role stays',
    rules: ['R4.7-6', 'R4.7-11', 'R2.8-4'],
    isolated: true,
    destructive: true,
    requires: { roles: ['administrator', 'member'] },
    when: (ctx) => ctx.as('administrator').patch(`/api/v1/users/${ctx.user('member').user_id}`, { role: 100 }),
    async then(ctx, res) {
      ctx.expectError('R4.7-6', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.check('R4.7-11', res.body.code === 'BAD_REQUEST', 'update-user errors are BAD_REQUEST', res);
      ctx.expectEqual('R2.8-4', await roleOf(ctx, 'member'), 400, 'the member role code after the refusal');
    },
  }),
  scenario({
    id: 'errors/guest-made-administrator',
    title: 'a guest given the administrator role is BAD_REQUEST and stays a guest',
    rules: ['R4.7-8', 'R4.7-11', 'R7-3', 'R2.8-5'],
    isolated: true,
    destructive: true,
    requires: { roles: ['owner', 'guest'] },
    when: (ctx) => ctx.as('owner').patch(`/api/v1/users/${ctx.user('guest').user_id}`, { role: 200 }),
    async then(ctx, res) {
      ctx.expectError('R4.7-8', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.check('R4.7-11', res.body.code === 'BAD_REQUEST', 'the example of §4.7: BAD_REQUEST', res);
      ctx.check('R7-3', res.body.code === 'BAD_REQUEST', 'guest given administrator role is a BAD_REQUEST case', res);
      ctx.expectEqual('R2.8-5', await roleOf(ctx, 'guest'), 600, 'the guest role code after the refusal');
    },
  }),
  scenario({
    id: 'errors/create-user-duplicate-email',
    title: 'creating a user with an email already in use in the realm is BAD_REQUEST',
    rules: ['R4.10-4', 'R7-3'],
    isolated: true,
    requires: { roles: ['administrator', 'member'] },
    when: (ctx) =>
      ctx
        .as('administrator')
        .post('/api/v1/users', { email: ctx.user('member').email, password: 'a-Long-and-unusual-passw0rd!', full_name: 'Second Account' }),
    then: (ctx, res) => {
      ctx.expectError('R4.10-4', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.check('R7-3', res.body.code === 'BAD_REQUEST', 'duplicate email is a BAD_REQUEST case', res);
    },
  }),
];
