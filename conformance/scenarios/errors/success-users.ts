import type { ScenarioContext } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import { asArray, asObject, isInt, restoreStatusLater, statusOf } from './support.js';

/**
 * Success shapes of the status operations (§4.4, §4.5, fields of §2.7) and of user administration
 * (§4.7, §4.10, §4.17, role codes of §2.8). Status scenarios each use a different user so that they
 * can run side by side in the demo realm and put the status back afterwards; user administration
 * runs in realms of its own, on users it creates.
 */

const REACTION_TYPES = ['unicode_emoji', 'realm_emoji', 'service_extra_emoji'];

async function userOf(ctx: ScenarioContext, id: number): Promise<Record<string, unknown>> {
  return asObject(ctx.must(await ctx.as('administrator').get(`/api/v1/users/${id}`), 'read a user').body.user);
}

/**
 * A user made for the scenario (on a real server, deactivated afterwards), so that updating or
 * deactivating one touches none of the world's users.
 */
async function newUser(ctx: ScenarioContext, label: string): Promise<number> {
  const email = `${ctx
    .unique(label)
    .replace(/[^A-Za-z0-9]+/g, '-')
    .toLowerCase()}@example.com`;
  const res = ctx.must(
    await ctx.as('administrator').post('/api/v1/users', { email, password: 'a-Long-and-unusual-passw0rd!', full_name: 'Scenario Person' }),
    'create a user',
  );
  const id = ctx.need(res, 'user_id', 'integer');
  ctx.defer(() => ctx.as('administrator').delete(`/api/v1/users/${id}`));
  return id;
}

const ROLE_CODES: [WorldRole, number, string][] = [
  ['owner', 100, 'R2.8-1'],
  ['administrator', 200, 'R2.8-2'],
  ['moderator', 300, 'R2.8-3'],
  ['member', 400, 'R2.8-4'],
  ['guest', 600, 'R2.8-5'],
];

export default [
  scenario({
    id: 'errors/admin-sets-status',
    title: "an administrator sets another user's status: success with no extra fields, and the status shows it",
    rules: ['R4.4-1', 'R4.4-2', 'R4.4-3', 'R4.4-4'],
    requires: { roles: ['administrator', 'guest'] },
    async given(ctx) {
      await restoreStatusLater(ctx, 'guest');
      return ctx.unique('set for you').slice(0, 50);
    },
    when: (ctx, text) =>
      ctx.as('administrator').post(`/api/v1/users/${ctx.user('guest').user_id}/status`, { status_text: text, emoji_name: 'car' }),
    async then(ctx, res, text) {
      ctx.expectSuccess('R4.4-4', res);
      const extra = Object.keys(res.body).filter((k) => !['result', 'msg', 'ignored_parameters_unsupported'].includes(k));
      ctx.expectEqual('R4.4-4', extra, [], 'fields beyond result and msg', res);
      const after = await statusOf(ctx, 'guest');
      ctx.expectEqual('R4.4-2', after.status_text, text, "the target's (path user_id) status_text");
      ctx.expectEqual('R4.4-3', after.emoji_name, 'car', "the target's emoji_name");
      ctx.check('R4.4-1', res.body.result === 'success', 'an administrator may', res);
    },
  }),
  scenario({
    id: 'errors/status-partial-update',
    title: 'updating only status_text keeps the emoji set before',
    rules: ['R4.5-2', 'R4.5-1'],
    requires: { roles: ['member_2'] },
    async given(ctx) {
      await restoreStatusLater(ctx, 'member_2');
      ctx.must(
        await ctx.as('member_2').post('/api/v1/users/me/status', { status_text: ctx.unique('first').slice(0, 50), emoji_name: 'car' }),
        'set a status',
      );
      return ctx.unique('second').slice(0, 50);
    },
    when: (ctx, text) => ctx.as('member_2').post('/api/v1/users/me/status', { status_text: text }),
    async then(ctx, res, text) {
      ctx.expectSuccess('R4.5-1', res);
      const after = await statusOf(ctx, 'member_2');
      ctx.expectEqual('R4.5-1', after.status_text, text, 'status_text after the update');
      ctx.expectEqual('R4.5-2', after.emoji_name, 'car', 'emoji_name, not sent, stays');
    },
  }),
  scenario({
    id: 'errors/status-text-cleared',
    title: 'an empty status_text clears the status text',
    rules: ['R2.7-1'],
    requires: { roles: ['moderator'] },
    async given(ctx) {
      await restoreStatusLater(ctx, 'moderator');
      ctx.must(
        await ctx.as('moderator').post('/api/v1/users/me/status', { status_text: ctx.unique('soon gone').slice(0, 50) }),
        'set a status',
      );
    },
    when: (ctx) => ctx.as('moderator').post('/api/v1/users/me/status', { status_text: '' }),
    async then(ctx, res) {
      ctx.expectSuccess('R2.7-1', res);
      const after = await statusOf(ctx, 'moderator');
      ctx.check(
        'R2.7-1',
        after.status_text === undefined || after.status_text === '',
        `status_text after clearing: ${JSON.stringify(after.status_text)}`,
      );
    },
  }),
  scenario({
    id: 'errors/status-emoji-fields',
    title: 'a status set with emoji_name alone shows emoji_name, emoji_code and a valid reaction_type',
    rules: ['R2.7-2', 'R4.5-1'],
    requires: { roles: ['owner'] },
    async given(ctx) {
      await restoreStatusLater(ctx, 'owner');
    },
    when: (ctx) => ctx.as('owner').post('/api/v1/users/me/status', { emoji_name: 'car' }),
    async then(ctx, res) {
      ctx.expectSuccess('R4.5-1', res);
      const after = await statusOf(ctx, 'owner');
      ctx.check(
        'R2.7-2',
        after.emoji_name === 'car' &&
          typeof after.emoji_code === 'string' &&
          after.emoji_code !== '' &&
          REACTION_TYPES.includes(after.reaction_type as string),
        `status ${JSON.stringify(after)}`,
      );
    },
  }),
  scenario({
    id: 'errors/status-away',
    title: 'away true turns presence_enabled off (away is its inverse)',
    rules: ['R2.7-3', 'R4.5-1'],
    requires: { roles: ['administrator'] },
    given(ctx) {
      ctx.defer(() => ctx.as('administrator').post('/api/v1/users/me/status', { away: false }));
    },
    when: (ctx) => ctx.as('administrator').post('/api/v1/users/me/status', { away: true }),
    async then(ctx, res) {
      ctx.expectSuccess('R4.5-1', res);
      ctx.expectEqual('R4.5-1', (await statusOf(ctx, 'administrator')).away, true, 'away in the status');
      const reg = await ctx.snapshot('administrator', { event_types: ['user_settings'], fetch_event_types: ['user_settings'] });
      const enabled = asObject(reg.body.user_settings).presence_enabled;
      ctx.expectEqual('R2.7-3', enabled, false, 'presence_enabled after away true', reg);
    },
  }),
  scenario({
    id: 'errors/role-codes',
    title: 'users carry the role codes of §2.8 (owner 100 … guest 600)',
    rules: ROLE_CODES.map(([, , rule]) => rule),
    requires: { roles: ROLE_CODES.map(([role]) => role) },
    when: (ctx) => ctx.as('administrator').get('/api/v1/users'),
    then: (ctx, res) => {
      ctx.expectSuccess('R2.8-4', res);
      const members = asArray(res.body.members);
      for (const [role, code, rule] of ROLE_CODES) {
        const u = members.find((m) => m.user_id === ctx.user(role).user_id);
        ctx.expectEqual(rule, u?.role, code, `role of the ${role}`, res);
      }
    },
  }),
  scenario({
    id: 'errors/update-user',
    title: "an administrator updates a user's full_name and role: success, and both change",
    rules: ['R4.7-1', 'R4.7-2', 'R4.7-3', 'R4.7-4', 'R4.7-5', 'R2.8-3'],
    isolated: true,
    destructive: true,
    requires: { roles: ['administrator'] },
    given: async (ctx) => ({ id: await newUser(ctx, 'updated user'), name: ctx.unique('Renamed Person') }),
    when: (ctx, g) => ctx.as('administrator').patch(`/api/v1/users/${g.id}`, { full_name: g.name, role: 300 }),
    async then(ctx, res, { id, name }) {
      ctx.expectSuccess('R4.7-1', res);
      ctx.check('R4.7-2', res.body.result === 'success', 'full_name and role alone are a valid update (the others are optional)', res);
      const u = await userOf(ctx, id);
      ctx.expectEqual('R4.7-3', u.user_id, id, 'the user of the path');
      ctx.expectEqual('R4.7-4', u.full_name, name, 'full_name after the update');
      ctx.expectEqual('R4.7-5', u.role, 300, 'role after the update');
      ctx.check('R2.8-3', u.role === 300, 'code 300 is the moderator role', res);
    },
  }),
  scenario({
    id: 'errors/create-user',
    title: 'an administrator creates a user: success returns an integer user_id',
    rules: ['R4.10-2', 'R4.10-3'],
    isolated: true,
    destructive: true,
    requires: { roles: ['administrator'] },
    given: (ctx) =>
      `${ctx
        .unique('new')
        .replace(/[^A-Za-z0-9]+/g, '-')
        .toLowerCase()}@example.com`,
    when: (ctx, email) =>
      ctx.as('administrator').post('/api/v1/users', { email, password: 'a-Long-and-unusual-passw0rd!', full_name: 'Brand New Person' }),
    async then(ctx, res) {
      // No operation deletes a user: the new one is deactivated afterwards, as the world had no such user.
      const created = res.body.user_id;
      if (isInt(created)) ctx.defer(() => ctx.as('administrator').delete(`/api/v1/users/${created}`));
      ctx.expectSuccess('R4.10-3', res);
      ctx.check('R4.10-3', isInt(res.body.user_id), `user_id ${JSON.stringify(res.body.user_id)}`, res);
      if (!isInt(res.body.user_id)) return;
      const u = await userOf(ctx, res.body.user_id);
      ctx.expectEqual('R4.10-3', u.user_id, res.body.user_id, 'the user under the returned user_id');
      ctx.expectEqual('R4.10-2', u.full_name, 'Brand New Person', 'the new user has the full_name sent');
    },
  }),
  scenario({
    id: 'errors/deactivate-user',
    title: 'an administrator deactivates a user: success, and the user can no longer be named as a principal',
    rules: ['R4.17-1', 'R4.17-2', 'R4.8-8'],
    isolated: true,
    destructive: true,
    requires: { roles: ['administrator'] },
    given: (ctx) => newUser(ctx, 'deactivated user'),
    when: (ctx, id) =>
      ctx.as('administrator').delete(`/api/v1/users/${id}`, { deactivation_notification_comment: 'Thanks for everything.' }),
    async then(ctx, res, id) {
      ctx.expectSuccess('R4.17-1', res);
      ctx.check('R4.17-2', res.body.result === 'success', 'deactivation_notification_comment accepted', res);
      const after = await ctx
        .as('administrator')
        .delete('/api/v1/users/me/subscriptions', { subscriptions: [ctx.channel('public').name], principals: [id] });
      if (ctx.has('unsubscribe_principal_bad_request')) ctx.expectError('R4.8-8', after, { status: 400, code: 'BAD_REQUEST' });
      else ctx.expectError('R4.8-8', after, { status: 403, code: 'UNAUTHORIZED_PRINCIPAL' });
    },
  }),
];
