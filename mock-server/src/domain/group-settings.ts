import type { ChannelGroupSetting, GroupSettingValue, RealmState } from '../store/state.js';
import type { RealmGroupSetting } from './edit-delete/settings.js';
import { badRequest, expectationMismatch } from './errors.js';
import { systemGroupId } from './present/channels.js';
import { ROLE } from '../contract/roles.js';

/**
 * Group-setting values and updates, spec §1 ("Group-setting value", "Group-setting update"), with the
 * reference server's normal form (reference §2 "Group-setting values"): an anonymous group whose only
 * content is one subgroup is that subgroup's ID; an anonymous group with both lists empty is "nobody".
 */

type Tables = Pick<RealmState, 'users' | 'user_groups'>;

/**
 * Settings that must not reach guests or the whole internet: administering a channel, adding people to
 * it and joining it by group would let a guest past the guest rules of §2.3. Our reading of the
 * reference server's per-setting limits ("a group not allowed for the setting", unconfirmed).
 */
const NO_EVERYONE: ReadonlySet<string> = new Set<ChannelGroupSetting>([
  'can_administer_channel_group',
  'can_add_subscribers_group',
  'can_subscribe_group',
]);

export function normalizeGroupSetting(tables: Tables, value: GroupSettingValue): GroupSettingValue {
  if (typeof value === 'number') return value;
  const members = [...new Set(value.direct_members)].sort((a, b) => a - b);
  const subgroups = [...new Set(value.direct_subgroups)].sort((a, b) => a - b);
  if (members.length === 0 && subgroups.length === 1) return subgroups[0]!;
  if (members.length === 0 && subgroups.length === 0)
    return systemGroupId(tables, 'role:nobody') ?? { direct_members: [], direct_subgroups: [] };
  return { direct_members: members, direct_subgroups: subgroups };
}

/** Every group exists, is active and is allowed for the setting; every user exists in the realm. */
export function validateGroupSetting(
  tables: Tables,
  setting: ChannelGroupSetting | RealmGroupSetting | 'can_mention_many_users_group',
  value: GroupSettingValue,
): void {
  const groups = typeof value === 'number' ? [value] : value.direct_subgroups;
  const users = typeof value === 'number' ? [] : value.direct_members;
  const forbidden = new Set([systemGroupId(tables, 'role:internet')]);
  if (NO_EVERYONE.has(setting)) forbidden.add(systemGroupId(tables, 'role:everyone'));
  for (const id of groups) {
    const group = tables.user_groups[String(id)];
    if (!group || group.deactivated || forbidden.has(id)) throw badRequest('Invalid user group');
  }
  for (const id of users) {
    const user = tables.users[String(id)];
    if (!user || user.is_system_bot) throw badRequest(`Invalid user ID ${id}`);
    if (NO_EVERYONE.has(setting) && user.role === ROLE.guest) throw badRequest('Invalid user group');
  }
}

/** Two values name the same holders when their normal forms are equal as sets (reference §4.16 step 11). */
export function sameGroupSetting(tables: Tables, a: GroupSettingValue, b: GroupSettingValue): boolean {
  const x = normalizeGroupSetting(tables, a);
  const y = normalizeGroupSetting(tables, b);
  if (typeof x === 'number' || typeof y === 'number') return x === y;
  return String(x.direct_members) === String(y.direct_members) && String(x.direct_subgroups) === String(y.direct_subgroups);
}

/**
 * Applies one group-setting update `{new, old?}` (§1): `old`, when given, must match the current value
 * (EXPECTATION_MISMATCH otherwise); returns the normalised new value, or null when it equals the current
 * one (a silent no-op without an event, reference §4.16 step 11).
 */
export function resolveGroupSettingUpdate(
  tables: Tables,
  setting: ChannelGroupSetting | RealmGroupSetting | 'can_mention_many_users_group',
  current: GroupSettingValue,
  update: { new: GroupSettingValue; old?: GroupSettingValue },
): GroupSettingValue | null {
  if (update.old !== undefined && !sameGroupSetting(tables, update.old, current)) throw expectationMismatch();
  validateGroupSetting(tables, setting, update.new);
  const next = normalizeGroupSetting(tables, update.new);
  return sameGroupSetting(tables, next, current) ? null : next;
}
