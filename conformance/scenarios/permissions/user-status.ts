import { scenario, scenarios } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import { expectBareSuccess, statusTexts } from './support.js';

/**
 * Spec §4.4 "Update user status (administrator)": "Organization administrators only", "BAD_REQUEST for
 * insufficient permission"; §5 lists it among the administrator-only operations. The target is
 * member_2; a refusal leaves its status text as it was (read back through register, §4.21).
 */

const text = (label: string) => label.slice(0, 60);

const refused = scenarios(['moderator', 'member', 'guest', 'bot'] as const satisfies readonly WorldRole[], (role) =>
  scenario({
    id: `permissions/admin-status-refused-${role}`,
    title: `a ${role} may not set another user's status, and the status stays as it was`,
    rules: ['R4.4-1', 'R4.4-5', 'R5-2'],
    requires: { roles: [role, 'member_2'] },
    given: (ctx) => text(ctx.unique(`set by ${role}`)),
    when: (ctx, status) => ctx.as(role).post(`/api/v1/users/${ctx.user('member_2').user_id}/status`, { status_text: status }),
    async then(ctx, res, status) {
      // A wrong server accepted it: put the status back for the scenarios sharing the realm.
      if (res.body.result === 'success') ctx.defer(() => ctx.as('member_2').post('/api/v1/users/me/status', { status_text: '' }));
      ctx.expectError('R4.4-5', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.check(
        'R5-2',
        res.body.code === 'BAD_REQUEST',
        `an administrator-only operation refused to a ${role} with ${String(res.body.code)}`,
        res,
      );
      const after = await statusTexts(ctx);
      ctx.check('R4.4-1', after[String(ctx.user('member_2').user_id)] !== status, "member_2's status text is not the refused one");
    },
  }),
);

// Owners are administrators too (§2.8); one row keeps the suite fast (each needs a realm of its own).
const allowed = scenarios(['administrator'] as const satisfies readonly WorldRole[], (role) =>
  scenario({
    id: `permissions/admin-status-by-${role}`,
    title: `an organization ${role} sets another user's status`,
    rules: ['R4.4-1', 'R4.4-4'],
    requires: { roles: [role, 'member_2'] },
    // Changes another user's status: a realm of its own on the mock.
    isolated: true,
    given: (ctx) => text(ctx.unique(`set by ${role}`)),
    when: (ctx, status) => ctx.as(role).post(`/api/v1/users/${ctx.user('member_2').user_id}/status`, { status_text: status }),
    async then(ctx, res, status) {
      ctx.defer(() => ctx.as('member_2').post('/api/v1/users/me/status', { status_text: '' }));
      expectBareSuccess(ctx, 'R4.4-4', res);
      const after = await statusTexts(ctx);
      ctx.expectEqual('R4.4-1', after[String(ctx.user('member_2').user_id)], status, "member_2's status text");
    },
  }),
);

export default [...refused, ...allowed];
