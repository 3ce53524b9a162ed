import type { Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import { asObject, isInt, ownUser, snapshotOf, uniqueEmail } from './support.js';

/**
 * Per-role answers of the administrator-only operations (§5: update user status (administrator),
 * update a user, create a user, deactivate a user). The refusals for moderator, member, guest and bot
 * are in permissions/; what no scenario checked is the organization owner's side: an owner is an
 * organization administrator too (§2.8, role 100 above 200), so each operation succeeds for the owner.
 * Each acts on a user the scenario creates (destructive: users cannot be deleted).
 */

interface Row {
  key: string;
  section: string;
  rule: string;
  act(ctx: ScenarioContext, userId: number): Promise<Reply>;
  /** The effect, read back by the administrator. */
  effect(ctx: ScenarioContext, userId: number, res: Reply): Promise<[unknown, unknown, string]>;
}

const readUser = async (ctx: ScenarioContext, id: number) =>
  asObject(ctx.must(await ctx.as('administrator').get(`/api/v1/users/${id}`), 'read the user').body.user);

const ROWS: Row[] = [
  {
    key: 'status',
    section: '4.4',
    rule: 'R4.4-1',
    act: (ctx, id) => ctx.as('owner').post(`/api/v1/users/${id}/status`, { status_text: 'set by the owner' }),
    effect: async (ctx, id) => [
      asObject(asObject((await snapshotOf(ctx, 'administrator', ['user_status'])).body.user_status)[String(id)]).status_text,
      'set by the owner',
      'status_text',
    ],
  },
  {
    key: 'update',
    section: '4.7',
    rule: 'R4.7-1',
    act: (ctx, id) => ctx.as('owner').patch(`/api/v1/users/${id}`, { full_name: 'Renamed By The Owner' }),
    effect: async (ctx, id) => [(await readUser(ctx, id)).full_name, 'Renamed By The Owner', 'full_name'],
  },
  {
    key: 'deactivate',
    section: '4.17',
    rule: 'R4.17-1',
    act: (ctx, id) => ctx.as('owner').delete(`/api/v1/users/${id}`),
    effect: async (ctx, id) => [(await readUser(ctx, id)).is_active, false, 'is_active'],
  },
];

const onOwnUser = scenarios(ROWS, (row) =>
  scenario({
    id: `blind-spots/owner-may-${row.key}-user`,
    title: `an organization owner may use the administrator-only §${row.section} operation`,
    rules: [row.rule, 'R5-2'],
    requires: { roles: ['owner', 'administrator'] },
    destructive: true,
    given: async (ctx) => (await ownUser(ctx, `owner ${row.key}`)).user_id,
    when: (ctx, id) => row.act(ctx, id),
    async then(ctx, res, id) {
      ctx.expectSuccess(row.rule, res);
      ctx.check('R5-2', res.body.result === 'success', `the owner holds the administrator role for §${row.section}`, res);
      const [actual, expected, what] = await row.effect(ctx, id, res);
      ctx.expectEqual(row.rule, actual, expected, `the user's ${what} afterwards`);
    },
  }),
);

const create = scenario({
  id: 'blind-spots/owner-may-create-user',
  title: 'an organization owner holding can_create_users may create a user (§4.10)',
  rules: ['R4.10-1', 'R4.10-3', 'R5-2'],
  requires: { roles: ['owner', 'administrator'] },
  destructive: true,
  given: (ctx) => ({ email: uniqueEmail(ctx, 'by owner'), password: 'Plausible-Horse-Battery-47', full_name: ctx.unique('Made By Owner') }),
  when: (ctx, user) => ctx.as('owner').post('/api/v1/users', user),
  async then(ctx, res, user) {
    ctx.expectSuccess('R4.10-1', res);
    const id = res.body.user_id;
    ctx.check('R4.10-3', isInt(id), `user_id ${JSON.stringify(id)} is an integer`, res);
    if (!isInt(id)) return;
    ctx.defer(() => ctx.as('administrator').delete(`/api/v1/users/${id}`));
    ctx.check('R5-2', res.body.result === 'success', 'the owner holds the administrator role for §4.10', res);
    ctx.expectEqual('R4.10-1', (await readUser(ctx, id)).full_name, user.full_name, 'the created user read back');
  },
});

export default [...onOwnUser, create];
