import { scenario, scenarios } from '../../src/dsl.js';
import { ownUser } from '../shared.js';
import { assume, assumeOnlyOwner, readUser } from './support.js';

/**
 * Spec §4.7, the role parameter: "Only owners may add or remove the owner role. The owner role cannot
 * be removed from the only owner. Guests cannot be organization administrators", and "Error:
 * BAD_REQUEST (for example a guest given an administrator role)". Role codes: §2.8.
 *
 * A refusal that a wrong server would turn into a change nobody can undo (an organization left without
 * an owner) runs in a realm of its own; the others put the role back if a wrong server accepted them.
 */

const ownerRole = [
  scenario({
    id: 'permissions/owner-role-grant-refused-administrator',
    title: 'an administrator may not make a member an owner, and the role stays',
    rules: ['R4.7-6', 'R4.7-11'],
    requires: { roles: ['administrator', 'owner', 'member_2'] },
    given: async (ctx) => (await readUser(ctx, ctx.user('member_2').user_id)).role as number,
    when: (ctx) => ctx.as('administrator').patch(`/api/v1/users/${ctx.user('member_2').user_id}`, { role: 100 }),
    async then(ctx, res, before) {
      const id = ctx.user('member_2').user_id;
      if (res.body.result === 'success') ctx.defer(() => ctx.as('owner').patch(`/api/v1/users/${id}`, { role: before }));
      ctx.expectError('R4.7-11', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.expectEqual('R4.7-6', (await readUser(ctx, id)).role, before, "member_2's role after the refusal");
    },
  }),
  scenario({
    id: 'permissions/owner-role-removal-refused-administrator',
    title: "an administrator may not remove an owner's owner role, and it stays",
    rules: ['R4.7-6', 'R4.7-11', 'R2.8-1'],
    requires: { roles: ['administrator', 'owner'] },
    isolated: true,
    when: (ctx) => ctx.as('administrator').patch(`/api/v1/users/${ctx.user('owner').user_id}`, { role: 200 }),
    async then(ctx, res) {
      ctx.expectError('R4.7-11', res, { status: 400, code: 'BAD_REQUEST' });
      const role = (await readUser(ctx, ctx.user('owner').user_id)).role;
      ctx.expectEqual('R4.7-6', role, 100, "the owner's role after the refusal");
      ctx.check('R2.8-1', role === 100, `an organization owner has role code 100 (${String(role)})`);
    },
  }),
  scenario({
    id: 'permissions/owner-role-grant-by-owner',
    title: 'an owner makes a member an owner',
    rules: ['R4.7-6', 'R2.8-1'],
    requires: { roles: ['owner', 'administrator'] },
    // Re-roles a user of its own (created, then deactivated): a real server keeps the account.
    destructive: true,
    given: (ctx) => ownUser(ctx, 'new owner'),
    when: (ctx, user) => ctx.as('owner').patch(`/api/v1/users/${user.user_id}`, { role: 100 }),
    async then(ctx, res, user) {
      ctx.expectSuccess('R4.7-6', res);
      const role = (await readUser(ctx, user.user_id)).role;
      ctx.check('R2.8-1', role === 100, `the new owner's role code is 100 (${String(role)})`);
    },
  }),
  scenario({
    id: 'permissions/owner-role-only-owner-keeps-it',
    title: 'the only owner cannot give up the owner role, and keeps it',
    rules: ['R4.7-7', 'R4.7-11'],
    requires: { roles: ['owner', 'administrator'] },
    isolated: true,
    given: (ctx) => assumeOnlyOwner(ctx),
    when: (ctx) => ctx.as('owner').patch(`/api/v1/users/${ctx.user('owner').user_id}`, { role: 200 }),
    async then(ctx, res) {
      ctx.expectError('R4.7-11', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.expectEqual('R4.7-7', (await readUser(ctx, ctx.user('owner').user_id)).role, 100, "the only owner's role after the refusal");
    },
  }),
  scenario({
    id: 'permissions/owner-role-removal-by-owner-with-two-owners',
    title: 'with two owners, an owner removes the owner role from the other',
    rules: ['R4.7-6', 'R4.7-7'],
    requires: { roles: ['owner', 'administrator'] },
    destructive: true,
    async given(ctx) {
      const user = await ownUser(ctx, 'second owner');
      ctx.must(await ctx.as('owner').patch(`/api/v1/users/${user.user_id}`, { role: 100 }), 'make the new user a second owner');
      return user;
    },
    when: (ctx, user) => ctx.as('owner').patch(`/api/v1/users/${user.user_id}`, { role: 200 }),
    async then(ctx, res, user) {
      ctx.expectSuccess('R4.7-6', res);
      ctx.expectEqual('R4.7-7', (await readUser(ctx, user.user_id)).role, 200, "the former owner's role");
    },
  }),
];

const guests = scenarios(
  [
    { role: 200, name: 'an administrator' },
    { role: 100, name: 'an owner' },
  ],
  (row) =>
    scenario({
      id: `permissions/guest-cannot-become-role-${row.role}`,
      title: `a guest cannot be made ${row.name} (role ${row.role}), even by an owner, and stays a guest`,
      rules: ['R4.7-8', 'R4.7-11', 'R2.8-5'],
      requires: { roles: ['owner', 'guest'] },
      async given(ctx) {
        const role = (await readUser(ctx, ctx.user('guest').user_id)).role;
        assume(role === 600, `the guest has role ${String(role)}, not 600`);
      },
      when: (ctx) => ctx.as('owner').patch(`/api/v1/users/${ctx.user('guest').user_id}`, { role: row.role }),
      async then(ctx, res) {
        const id = ctx.user('guest').user_id;
        if (res.body.result === 'success') ctx.defer(() => ctx.as('owner').patch(`/api/v1/users/${id}`, { role: 600 }));
        ctx.expectError('R4.7-11', res, { status: 400, code: 'BAD_REQUEST' });
        const role = (await readUser(ctx, id)).role;
        ctx.expectEqual('R4.7-8', role, 600, "the guest's role after the refusal");
        ctx.check('R2.8-5', role === 600, `a guest has role code 600 (${String(role)})`);
      },
    }),
);

export default [...ownerRole, ...guests];
