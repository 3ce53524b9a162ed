import type { Params } from '../../src/client.js';
import { scenario, scenarios } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import { restoreStatusLater, statusOf } from './support.js';

/**
 * Spec §4.5 rules 1–4 (each a BAD_REQUEST of §7 "status rules"), the §8 status_text limit, and §4.4:
 * the same rules when an administrator sets another user's status, plus its permission refusal.
 * Refused requests change nothing, so these run in the shared realm; the text of a refused request
 * is unique, so "nothing changed" is checked by reading the status back.
 */

const TOO_LONG = 'x'.repeat(61);

interface RuleRow {
  key: string;
  title: string;
  rules: string[];
  params: (text: string) => Params;
}

const rows: RuleRow[] = [
  { key: 'no-values', title: 'no parameter at all (rule 1)', rules: ['R4.5-3', 'R7-3', 'R7-7'], params: () => ({}) },
  {
    key: 'too-long',
    title: 'a status_text of 61 characters (rule 2)',
    rules: ['R4.5-4', 'R8-1', 'R2.7-1', 'R7-3'],
    params: () => ({ status_text: TOO_LONG }),
  },
  {
    key: 'code-without-name',
    title: 'emoji_code without emoji_name (rule 3)',
    rules: ['R4.5-5', 'R7-3'],
    params: (text) => ({ status_text: text, emoji_code: '1f697' }),
  },
  {
    key: 'type-without-name',
    title: 'reaction_type without emoji_name (rule 3)',
    rules: ['R4.5-5', 'R7-3'],
    params: (text) => ({ status_text: text, reaction_type: 'unicode_emoji' }),
  },
  {
    key: 'unknown-emoji',
    title: 'an emoji name that does not exist (rule 4)',
    rules: ['R4.5-6', 'R7-3'],
    params: (text) => ({ status_text: text, emoji_name: 'no_such_emoji_at_all_xyz' }),
  },
  {
    key: 'mismatched-emoji',
    title: 'an emoji name that does not match its code (rule 4, invalid)',
    rules: ['R4.5-6', 'R7-3'],
    params: (text) => ({ status_text: text, emoji_name: 'car', emoji_code: '1f4bb', reaction_type: 'unicode_emoji' }),
  },
  {
    key: 'invalid-custom-emoji',
    title: 'a custom emoji that does not exist (rule 4, invalid custom emoji)',
    rules: ['R4.5-6', 'R7-3'],
    params: (text) => ({ status_text: text, emoji_name: 'car', emoji_code: '999999', reaction_type: 'realm_emoji' }),
  },
];

const ownStatus = scenarios(rows, (row) =>
  scenario({
    id: `errors/status-${row.key}`,
    title: `updating one's status with ${row.title} is BAD_REQUEST and changes nothing`,
    rules: row.rules,
    given: (ctx) => ctx.unique('refused status').slice(0, 50),
    when: (ctx, text) => ctx.as('member').post('/api/v1/users/me/status', row.params(text)),
    async then(ctx, res, text) {
      for (const rule of row.rules.filter((r) => r.startsWith('R4.5') || r === 'R7-3'))
        ctx.expectError(rule, res, { status: 400, code: 'BAD_REQUEST' });
      if (row.rules.includes('R7-7')) ctx.check('R7-7', res.status === 400, `BAD_REQUEST with HTTP ${res.status}`, res);
      if (row.rules.includes('R8-1')) ctx.check('R8-1', res.body.code === 'BAD_REQUEST', '61 characters are over the limit of 60', res);
      const after = await statusOf(ctx, 'member');
      const unchanged = after.status_text !== text && after.status_text !== TOO_LONG;
      ctx.check(
        row.rules.includes('R2.7-1') ? 'R2.7-1' : row.rules[0]!,
        unchanged,
        `status_text after the refusal: ${JSON.stringify(after.status_text)}`,
      );
    },
  }),
);

const accepted60 = scenario({
  id: 'errors/status-text-60-accepted',
  title: 'a status_text of exactly 60 characters is accepted and stored whole',
  rules: ['R8-1', 'R2.7-1', 'R4.5-1'],
  requires: { roles: ['member_3'] },
  async given(ctx) {
    await restoreStatusLater(ctx, 'member_3');
    return ctx.unique('sixty').padEnd(60, '.').slice(0, 60);
  },
  when: (ctx, text) => ctx.as('member_3').post('/api/v1/users/me/status', { status_text: text }),
  async then(ctx, res, text) {
    ctx.expectSuccess('R8-1', res);
    const after = await statusOf(ctx, 'member_3');
    ctx.expectEqual('R2.7-1', after.status_text, text, 'the stored status_text');
    ctx.check('R4.5-1', res.body.result === 'success', 'status_text alone is a valid update', res);
  },
});

const adminRules = scenarios(
  [{ key: 'too-long', title: 'a status_text of 61 characters', params: { status_text: TOO_LONG } as Params }],
  (row) =>
    scenario({
      id: `errors/admin-status-${row.key}`,
      title: `an administrator setting another user's status with ${row.title} gets BAD_REQUEST (rules of §4.5)`,
      rules: ['R4.4-5', 'R7-3'],
      requires: { roles: ['administrator', 'member_2'] },
      when: (ctx) => ctx.as('administrator').post(`/api/v1/users/${ctx.user('member_2').user_id}/status`, row.params),
      then: (ctx, res) => {
        ctx.expectError('R4.4-5', res, { status: 400, code: 'BAD_REQUEST' });
        ctx.check('R7-3', res.body.code === 'BAD_REQUEST', 'status rules are BAD_REQUEST cases', res);
      },
    }),
);

const notAdmin = scenarios([{ key: 'member', role: 'member' as WorldRole }], (row) =>
  scenario({
    id: `errors/admin-status-by-${row.key}`,
    title: `a ${row.key} setting another user's status gets BAD_REQUEST (insufficient permission) and changes nothing`,
    rules: ['R4.4-1', 'R4.4-5', 'R5-2', 'R7-3'],
    requires: { roles: [row.role, 'member_2'] },
    given: (ctx) => ctx.unique('not yours').slice(0, 50),
    when: (ctx, text) => ctx.as(row.role).post(`/api/v1/users/${ctx.user('member_2').user_id}/status`, { status_text: text }),
    async then(ctx, res, text) {
      ctx.expectError('R4.4-5', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.check('R5-2', res.body.code === 'BAD_REQUEST', 'a caller without the role gets BAD_REQUEST', res);
      ctx.check('R7-3', res.body.code === 'BAD_REQUEST', 'insufficient permission is a BAD_REQUEST case', res);
      const after = await statusOf(ctx, 'member_2');
      ctx.check('R4.4-1', after.status_text !== text, `member_2's status_text after the refusal: ${JSON.stringify(after.status_text)}`);
    },
  }),
);

export default [...ownStatus, accepted60, ...adminRules, ...notAdmin];
