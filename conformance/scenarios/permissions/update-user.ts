import { scenario, scenarios } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import { ownUser } from '../shared.js';
import { readUser, uniqueEmail } from './support.js';

/**
 * Spec §4.7 "Update a user": "Organization administrators only" (§5 lists it too, with BAD_REQUEST for
 * a caller without the role), and new_email "Requires an organization owner holding the
 * can_change_user_emails permission" (§5 "Extra permissions"; the world file's owner holds it, its
 * administrator is not an owner). Role rules are in owner-role.ts.
 */

interface Refusal {
  role: WorldRole;
  /** Whose name the caller tries to change. */
  target: WorldRole;
  why: string;
}

const REFUSALS: Refusal[] = [
  { role: 'moderator', target: 'member_2', why: 'a moderator' },
  { role: 'member', target: 'member_2', why: 'a member' },
  { role: 'guest', target: 'member_2', why: 'a guest' },
  { role: 'bot', target: 'member_2', why: 'a bot' },
  // §4.7 names no exception for a bot's owner (the reference server makes one, C7).
  { role: 'bot_owner', target: 'bot', why: "a bot's owner (for that bot)" },
];

const refused = scenarios(REFUSALS, (row) =>
  scenario({
    id: `permissions/update-user-refused-${row.role}`,
    title: `${row.why} may not update ${row.target === 'bot' ? 'their bot' : 'another user'}, and the name stays`,
    rules: ['R4.7-1', 'R4.7-11', 'R5-2'],
    requires: { roles: [row.role, row.target, 'administrator'] },
    async given(ctx) {
      const before = await readUser(ctx, ctx.user(row.target).user_id);
      return { name: String(before.full_name), wanted: ctx.unique('Renamed') };
    },
    when: (ctx, g) => ctx.as(row.role).patch(`/api/v1/users/${ctx.user(row.target).user_id}`, { full_name: g.wanted }),
    async then(ctx, res, g) {
      const id = ctx.user(row.target).user_id;
      if (res.body.result === 'success') ctx.defer(() => ctx.as('administrator').patch(`/api/v1/users/${id}`, { full_name: g.name }));
      ctx.expectError('R4.7-11', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.check('R5-2', res.body.code === 'BAD_REQUEST', `update a user refused to ${row.why} with ${String(res.body.code)}`, res);
      ctx.expectEqual('R4.7-1', (await readUser(ctx, id)).full_name, g.name, `${row.target}'s full_name after the refusal`);
    },
  }),
);

const byAdministrator = [
  scenario({
    id: 'permissions/update-user-role-by-administrator',
    title: 'an administrator makes a member a moderator (role 300)',
    rules: ['R4.7-1', 'R4.7-5', 'R2.8-3'],
    requires: { roles: ['administrator', 'owner'] },
    // Re-roles a user of its own (created, then deactivated): a real server keeps the account.
    destructive: true,
    given: (ctx) => ownUser(ctx, 'new moderator'),
    when: (ctx, user) => ctx.as('administrator').patch(`/api/v1/users/${user.user_id}`, { role: 300 }),
    async then(ctx, res, user) {
      ctx.expectSuccess('R4.7-1', res);
      const after = await readUser(ctx, user.user_id);
      ctx.expectEqual('R4.7-5', after.role, 300, "the member's role");
      ctx.check('R2.8-3', after.role === 300, `a moderator has role code 300 (${String(after.role)})`);
    },
  }),
];

/** The address a user has now, whichever of the two fields the server shows an administrator. */
const addresses = (u: Record<string, unknown>) => [u.email, u.delivery_email].filter((e) => typeof e === 'string');

const email = [
  scenario({
    id: 'permissions/update-user-email-refused-administrator',
    title: "an administrator who is not an owner may not change a user's email, and it stays",
    rules: ['R4.7-10', 'R5-3'],
    requires: { roles: ['administrator', 'owner', 'member_2'] },
    async given(ctx) {
      const before = await readUser(ctx, ctx.user('member_2').user_id);
      return { before: addresses(before), wanted: uniqueEmail(ctx, 'by admin') };
    },
    when: (ctx, g) => ctx.as('administrator').patch(`/api/v1/users/${ctx.user('member_2').user_id}`, { new_email: g.wanted }),
    async then(ctx, res, g) {
      const id = ctx.user('member_2').user_id;
      if (res.body.result === 'success')
        ctx.defer(() => ctx.as('owner').patch(`/api/v1/users/${id}`, { new_email: ctx.user('member_2').email }));
      ctx.expectError('R4.7-10', res, { status: 400, code: 'BAD_REQUEST' });
      const after = addresses(await readUser(ctx, id));
      ctx.check('R5-3', !after.includes(g.wanted), `member_2's address after the refusal: ${after.join(', ')}`);
    },
  }),
  scenario({
    id: 'permissions/update-user-email-by-owner',
    title: "an owner holding can_change_user_emails changes a user's email",
    rules: ['R4.7-10', 'R5-3'],
    requires: { roles: ['owner', 'administrator'] },
    // Re-addresses a user of its own (created, then deactivated): a real server keeps the account.
    destructive: true,
    given: async (ctx) => ({ user: await ownUser(ctx, 'readdressed'), wanted: uniqueEmail(ctx, 'by owner') }),
    when: (ctx, { user, wanted }) => ctx.as('owner').patch(`/api/v1/users/${user.user_id}`, { new_email: wanted }),
    async then(ctx, res, { user, wanted }) {
      ctx.expectSuccess('R4.7-10', res);
      const after = addresses(await readUser(ctx, user.user_id));
      ctx.check('R5-3', after.includes(wanted), `the user's address after the change: ${after.join(', ')}`);
    },
  }),
];

export default [...refused, ...byAdministrator, ...email];
