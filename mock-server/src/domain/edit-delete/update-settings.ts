import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { GroupSettingValue, RealmEditingSettings } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { badRequest, mustBeAdministrator } from '../errors.js';
import { resolveGroupSettingUpdate } from '../group-settings.js';
import { mayChangeEditingSettings } from '../permissions.js';
import { mentionManySetting, WILDCARD_MENTION_POLICIES } from '../messages/wildcard-mentions.js';
import { systemGroupId } from '../present/channels.js';
import { editingSettings, REALM_GROUP_SETTINGS } from './settings.js';

/**
 * PATCH /realm for the organization's editing settings (companion tier, area edit-delete; reference
 * update-realm): the values that differ from the current ones are stored, answered, and announced to
 * every user as the reference announces realm settings: `realm` / `update` with `property` and `value`
 * for a plain setting, `realm` / `update_dict` with `data` for a group setting.
 */

const LIMITS = [
  'message_content_edit_limit_seconds',
  'message_content_delete_limit_seconds',
  'move_messages_within_stream_limit_seconds',
  'move_messages_between_streams_limit_seconds',
] as const;

export function doUpdateRealm(tx: Tx, actor: ActorContext, params: ParamsOf<'update-realm'>): Record<string, unknown> {
  if (!mayChangeEditingSettings(actor.user)) throw mustBeAdministrator();
  const current = editingSettings(tx.tables);
  const plain: Partial<RealmEditingSettings> = {};
  if (params.allow_message_editing !== undefined && params.allow_message_editing !== current.allow_message_editing)
    plain.allow_message_editing = params.allow_message_editing;
  for (const name of LIMITS) {
    const raw = params[name];
    if (raw === undefined) continue;
    const value = readLimit(name, raw);
    if (value !== current[name]) plain[name] = value;
  }
  const policy = params.message_edit_history_visibility_policy;
  if (policy !== undefined && policy !== current.message_edit_history_visibility_policy)
    plain.message_edit_history_visibility_policy = policy;
  const groups: Partial<RealmEditingSettings> = {};
  for (const name of REALM_GROUP_SETTINGS) {
    const update = params[name];
    if (update === undefined) continue;
    const value = resolveGroupSettingUpdate(tx.tables, name, current[name], update);
    if (value !== null) groups[name] = value;
  }

  const mentions = mentionManyChange(tx, params);

  const changed = { ...plain, ...groups };
  if (Object.keys(changed).length === 0 && !mentions) return {};
  const realm = tx.tables.realm.realm;
  tx.put('realm', 'realm', {
    ...realm,
    editing: { ...realm.editing, ...changed },
    ...(mentions ? { can_mention_many_users_group: mentions.value } : {}),
  });
  const everyone = Object.values(tx.tables.users)
    .filter((u) => u.is_active && !u.is_system_bot)
    .map((u) => u.user_id);
  const plainEvents: Record<string, unknown> = {
    ...plain,
    ...(mentions?.policy !== undefined ? { wildcard_mention_policy: mentions.policy } : {}),
  };
  const groupEvents: Record<string, unknown> = {
    ...groups,
    ...(mentions?.policy === undefined && mentions ? { can_mention_many_users_group: mentions.value } : {}),
  };
  for (const [property, value] of Object.entries(plainEvents)) tx.emit({ type: 'realm', op: 'update', property, value }, everyone);
  for (const [property, value] of Object.entries(groupEvents))
    tx.emit({ type: 'realm', op: 'update_dict', property: 'default', data: { [property]: value } }, everyone);
  return { ...plainEvents, ...groupEvents };
}

/**
 * Who may use wildcard mentions in large channels (reference update-realm): below feature level 352 the
 * integer wildcard_mention_policy, stored as the system group it names (so a realm moved across 352 keeps
 * its rule); from 352 the group setting. The document's level marks let only one of the two through.
 */
function mentionManyChange(tx: Tx, params: ParamsOf<'update-realm'>): { value: GroupSettingValue; policy?: number } | null {
  const current = mentionManySetting(tx.tables);
  if (params.wildcard_mention_policy !== undefined) {
    const policy = params.wildcard_mention_policy;
    const value = systemGroupId(tx.tables, WILDCARD_MENTION_POLICIES.get(policy) ?? '');
    if (value === null) throw badRequest('Invalid wildcard_mention_policy');
    return value === current ? null : { value, policy };
  }
  if (params.can_mention_many_users_group === undefined) return null;
  const value = resolveGroupSettingUpdate(tx.tables, 'can_mention_many_users_group', current, params.can_mention_many_users_group);
  return value === null ? null : { value };
}

/** A time limit: a positive number of seconds, or "unlimited" (null). The error text is ours (the reference's is not documented). */
function readLimit(name: string, raw: number | string): number | null {
  if (raw === 'unlimited') return null;
  if (typeof raw === 'number' && Number.isInteger(raw) && raw > 0) return raw;
  throw badRequest(`Invalid ${name}`);
}
