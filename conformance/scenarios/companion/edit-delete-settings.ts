import { scenario } from '../../src/dsl.js';
import { snapshotOf } from '../shared.js';
import { fetchRaw, message, ownMessage } from './edit-delete-support.js';

/**
 * The organization's editing settings (PATCH /realm, companion tier, area edit-delete). Changing one is
 * realm-wide, so the scenario that does is isolated (a realm of its own on the mock, alone elsewhere)
 * and puts the value it found back.
 */
export const EDIT_DELETE_SETTINGS = [
  scenario({
    id: 'companion/edit-delete/settings-need-administrator',
    title: "a member may not change the organization's editing settings",
    rules: ['C.edit-delete-14'],
    requires: { roles: ['member'] },
    when: (ctx) => ctx.as('member').patch('/api/v1/realm', { allow_message_editing: false }),
    async then(ctx, res) {
      ctx.expectError('C.edit-delete-14', res, { status: 400, code: 'BAD_REQUEST' });
      const after = await snapshotOf(ctx, 'member', ['realm']);
      ctx.check(
        'C.edit-delete-14',
        after.body.realm_allow_message_editing !== false,
        'message editing is still allowed after the refusal',
        after,
      );
    },
  }),
  scenario({
    id: 'companion/edit-delete/editing-turned-off',
    title: 'with allow_message_editing false the sender may not edit, and register says so',
    rules: ['C.edit-delete-15'],
    requires: { roles: ['member', 'member_2', 'administrator'] },
    isolated: true,
    async given(ctx) {
      const before = await snapshotOf(ctx, 'administrator', ['realm']);
      const was = before.body.realm_allow_message_editing;
      const own = await ownMessage(ctx, 'editing off');
      ctx.must(await ctx.as('administrator').patch('/api/v1/realm', { allow_message_editing: false }), 'turn message editing off');
      ctx.defer(() => ctx.as('administrator').patch('/api/v1/realm', { allow_message_editing: was !== false }));
      return own;
    },
    when: (ctx, g) => ctx.as('member').patch(`/api/v1/messages/${g.id}`, { content: 'too late' }),
    async then(ctx, res, g) {
      ctx.expectError('C.edit-delete-15', res, { status: 400, code: 'BAD_REQUEST' });
      const after = await fetchRaw(ctx, 'member', g.id);
      ctx.expectEqual('C.edit-delete-15', message(after).content, 'original text', 'content after the refused edit', after);
      const reg = await snapshotOf(ctx, 'member_2', ['realm']);
      ctx.expectEqual('C.edit-delete-15', reg.body.realm_allow_message_editing, false, 'realm_allow_message_editing in register', reg);
    },
  }),
];
