import type { GroupSettingValue, RealmEditingSettings, RealmRow, RealmState } from '../../store/state.js';
import { systemGroupId } from '../present/channels.js';

/**
 * The organization's editing policies (companion tier, area edit-delete): the reference server's realm
 * settings for editing, moving and deleting messages, with its defaults for a new organization. Only
 * values someone set are stored (RealmRow.editing), so realms and state files made before these
 * settings existed read the defaults.
 */

type Tables = Pick<RealmState, 'user_groups' | 'realm'>;

/** Reference defaults: content edits for 10 minutes, moves for 7 days, deletion without a time limit. */
const DEFAULT_LIMITS = {
  allow_message_editing: true,
  message_content_edit_limit_seconds: 600,
  message_content_delete_limit_seconds: null,
  move_messages_within_stream_limit_seconds: 7 * 24 * 3600,
  move_messages_between_streams_limit_seconds: 7 * 24 * 3600,
  message_edit_history_visibility_policy: 'all',
} as const satisfies Partial<RealmEditingSettings>;

/** Reference defaults of the group settings, as system groups. */
const DEFAULT_GROUPS = {
  can_move_messages_between_topics_group: 'role:everyone',
  can_move_messages_between_channels_group: 'role:members',
  can_delete_any_message_group: 'role:administrators',
  can_delete_own_message_group: 'role:everyone',
  can_resolve_topics_group: 'role:everyone',
} as const;

const NOBODY: GroupSettingValue = { direct_members: [], direct_subgroups: [] };

export function editingSettings(tables: Tables): RealmEditingSettings {
  const set = tables.realm.realm.editing ?? {};
  const group = (key: keyof typeof DEFAULT_GROUPS): GroupSettingValue => set[key] ?? systemGroupId(tables, DEFAULT_GROUPS[key]) ?? NOBODY;
  return {
    ...DEFAULT_LIMITS,
    ...set,
    can_move_messages_between_topics_group: group('can_move_messages_between_topics_group'),
    can_move_messages_between_channels_group: group('can_move_messages_between_channels_group'),
    can_delete_any_message_group: group('can_delete_any_message_group'),
    can_delete_own_message_group: group('can_delete_own_message_group'),
    can_resolve_topics_group: group('can_resolve_topics_group'),
  };
}

/**
 * Legacy realm_edit_topic_policy (replaced by can_move_messages_between_topics_group on the reference
 * server, still read by zulip-terminal): derived from the group so the two never disagree. Values of
 * the reference: 1 members, 2 administrators, 3 full members, 4 moderators, 5 everyone, 6 nobody; an
 * anonymous or user-defined group reads as 1.
 */
const EDIT_TOPIC_POLICY = new Map<string, number>([
  ['role:members', 1],
  ['role:administrators', 2],
  ['role:owners', 2],
  ['role:fullmembers', 3],
  ['role:moderators', 4],
  ['role:everyone', 5],
  ['role:nobody', 6],
]);

function editTopicPolicy(tables: Tables, value: GroupSettingValue): number {
  if (typeof value !== 'number') return 1;
  const group = tables.user_groups[String(value)];
  return group?.is_system_group ? (EDIT_TOPIC_POLICY.get(group.name) ?? 1) : 1;
}

/** The register keys of type `realm` for these settings (reference names, realm_ prefix). */
export function editingRealmKeys(tables: Tables): Record<string, unknown> {
  const s = editingSettings(tables);
  return {
    realm_allow_message_editing: s.allow_message_editing,
    realm_message_content_edit_limit_seconds: s.message_content_edit_limit_seconds,
    realm_message_content_delete_limit_seconds: s.message_content_delete_limit_seconds,
    realm_move_messages_within_stream_limit_seconds: s.move_messages_within_stream_limit_seconds,
    realm_move_messages_between_streams_limit_seconds: s.move_messages_between_streams_limit_seconds,
    realm_edit_topic_policy: editTopicPolicy(tables, s.can_move_messages_between_topics_group),
    realm_can_move_messages_between_topics_group: s.can_move_messages_between_topics_group,
    realm_can_move_messages_between_channels_group: s.can_move_messages_between_channels_group,
    realm_can_delete_any_message_group: s.can_delete_any_message_group,
    realm_can_delete_own_message_group: s.can_delete_own_message_group,
    realm_can_resolve_topics_group: s.can_resolve_topics_group,
    realm_message_edit_history_visibility_policy: s.message_edit_history_visibility_policy,
    // Legacy boolean of the same policy (before the three-valued setting).
    realm_allow_edit_history: s.message_edit_history_visibility_policy !== 'none',
  };
}

/** Who may see past versions (reference message_edit_history_visibility_policy): all, moves only, or none. */
export function historyVisibility(realm: Pick<RealmRow, 'editing'>): RealmEditingSettings['message_edit_history_visibility_policy'] {
  return realm.editing?.message_edit_history_visibility_policy ?? DEFAULT_LIMITS.message_edit_history_visibility_policy;
}

/** The organization-level group settings of this area (update-realm). */
export const REALM_GROUP_SETTINGS = Object.keys(DEFAULT_GROUPS) as (keyof typeof DEFAULT_GROUPS)[];
export type RealmGroupSetting = keyof typeof DEFAULT_GROUPS;
