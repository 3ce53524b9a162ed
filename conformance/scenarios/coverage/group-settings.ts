import type { FeatureName } from '../../src/openapi.js';
import type { Reply } from '../../src/client.js';
import { scenario, scenarios } from '../../src/dsl.js';
import { readChannel, sameGroup, systemGroup, type Group } from './support.js';

/**
 * Spec §1 "Group-setting update (request form)": an object with `new` (required) and `old` (optional,
 * the caller's expectation of the current value, either form), and the §4.16 parameters that take one:
 * can_administer_channel_group, can_delete_any_message_group and can_delete_own_message_group (the
 * last two from feature level 407, §9). An organization administrator may edit any property of a
 * public channel (§4.16); each scenario changes a channel's settings, so it runs isolated.
 */

type Setting = 'can_administer_channel_group' | 'can_delete_any_message_group' | 'can_delete_own_message_group';

interface Row {
  setting: Setting;
  rule: string;
  level?: FeatureName;
}

const ROWS: Row[] = [
  { setting: 'can_administer_channel_group', rule: 'R4.16-18', level: 'channel_can_administer_channel_group_field' },
  { setting: 'can_delete_any_message_group', rule: 'R4.16-19', level: 'channel_delete_permission_groups' },
  { setting: 'can_delete_own_message_group', rule: 'R4.16-20', level: 'channel_delete_permission_groups' },
];

/** `new` alone: the channel then holds the new value (read back through GET /streams/{id}). */
const newAlone = scenarios(ROWS, (row) =>
  scenario<{ group: number }>({
    id: `coverage/group-setting-new-alone-${row.setting.replaceAll('_', '-')}`,
    title: `an administrator sets ${row.setting} of a public channel with {new} alone, and the channel shows it`,
    rules: [row.rule, 'R1-12'],
    requires: { roles: ['administrator'], channels: ['public'], ...(row.level ? { level: { from: row.level } } : {}) },
    isolated: true,
    given: (ctx) => ({ group: systemGroup(ctx, 'role:moderators') }),
    when: (ctx, g) => ctx.as('administrator').patch(`/api/v1/streams/${ctx.channel('public').stream_id}`, { [row.setting]: { new: g.group } }),
    async then(ctx, res, g) {
      ctx.expectSuccess('R1-12', res);
      const after = (await readChannel(ctx, ctx.channel('public').stream_id))[row.setting];
      ctx.check(row.rule, sameGroup(after, g.group), `${row.setting} names role:moderators (${JSON.stringify(after)})`);
    },
  }),
);

interface OldGiven {
  current: unknown;
  next: Group;
}

/** A value for `new` in the object form: the member plus role:moderators. */
function objectForm(ctx: Parameters<typeof systemGroup>[0]): Group {
  return { direct_members: [ctx.user('member').user_id], direct_subgroups: [systemGroup(ctx, 'role:moderators')] };
}

const oldMatching = scenario<OldGiven>({
  id: 'coverage/group-setting-old-matching',
  title: 'an update whose old is the current value succeeds and the channel shows the new value',
  rules: ['R1-12', 'R4.16-18'],
  requires: { roles: ['administrator', 'member'], channels: ['public'], level: { from: 'channel_can_administer_channel_group_field' } },
  isolated: true,
  async given(ctx) {
    const current = (await readChannel(ctx, ctx.channel('public').stream_id)).can_administer_channel_group;
    return { current, next: objectForm(ctx) };
  },
  when: (ctx, g) => ctx.as('administrator').patch(`/api/v1/streams/${ctx.channel('public').stream_id}`, { can_administer_channel_group: { new: g.next, old: g.current } }),
  async then(ctx, res, g) {
    ctx.expectSuccess('R1-12', res);
    const after = (await readChannel(ctx, ctx.channel('public').stream_id)).can_administer_channel_group;
    ctx.check('R4.16-18', sameGroup(after, g.next), `can_administer_channel_group names the member and role:moderators (${JSON.stringify(after)})`);
  },
});

const oldMismatch = scenario<OldGiven & { old: number }, Reply>({
  id: 'coverage/group-setting-old-mismatch',
  title: 'an update whose old is not the current value is refused (4xx) and changes nothing',
  rules: ['R1-12'],
  requires: { roles: ['administrator', 'member'], channels: ['public'] },
  isolated: true,
  async given(ctx) {
    const current = (await readChannel(ctx, ctx.channel('public').stream_id)).can_administer_channel_group;
    const candidates = (['role:nobody', 'role:owners', 'role:moderators'] as const).map((n) => systemGroup(ctx, n));
    const old = candidates.find((id) => !sameGroup(current, id))!;
    return { current, next: objectForm(ctx), old };
  },
  when: (ctx, g) => ctx.as('administrator').patch(`/api/v1/streams/${ctx.channel('public').stream_id}`, { can_administer_channel_group: { new: g.next, old: g.old } }),
  async then(ctx, res, g) {
    ctx.check('R1-12', res.status >= 400 && res.status < 500 && res.body.result === 'error', `a wrong old answered ${res.status} ${JSON.stringify(res.body.result)} ${JSON.stringify(res.body.code)}`, res);
    const after = (await readChannel(ctx, ctx.channel('public').stream_id)).can_administer_channel_group;
    ctx.expectEqual('R1-12', after, g.current, 'can_administer_channel_group after the refusal');
  },
});

export default [...newAlone, oldMatching, oldMismatch];
