import type { Features } from '../../config/features.js';
import { indexOf } from '../../store/indexes.js';
import { CHANNEL_GROUP_SETTINGS } from '../../store/state.js';
import type { ChannelGroupSetting, ChannelRow, GroupSettingValue, RealmRow, RealmState, TopicsPolicy, UserRow } from '../../store/state.js';
import { channelContentAccess } from '../access.js';
import { badRequest, insufficientPermission } from '../errors.js';
import { resolveGroupSettingUpdate } from '../group-settings.js';
import * as may from '../permissions.js';
import { checkEmptyTopicOnlyTransition } from '../topics.js';
import { channelById, channelByName, checkChannelName, readChannelDescription } from './lookup.js';

/**
 * PATCH /streams/{stream_id} (spec §4.16), checking half: every rule runs, in the reference server's
 * order (reference §4.16 "Checks"), before anything is applied, and the result is a plan of what changes.
 */

export interface UpdateChannelParams {
  stream_id: number;
  description?: string;
  new_name?: string;
  is_private?: boolean;
  is_web_public?: boolean;
  history_public_to_subscribers?: boolean;
  is_default_stream?: boolean;
  message_retention_days?: string | number;
  is_archived?: boolean;
  folder_id?: number | null;
  topics_policy?: TopicsPolicy;
  groups: Partial<Record<ChannelGroupSetting, { new: GroupSettingValue; old?: GroupSettingValue }>>;
}

export interface Privacy {
  invite_only: boolean;
  history_public_to_subscribers: boolean;
  is_web_public: boolean;
}

export interface UpdatePlan {
  channel: ChannelRow;
  privacy: Privacy | null;
  isDefault: boolean | null;
  unarchive: boolean;
  retention: { value: number | null } | null;
  fields: Partial<Pick<ChannelRow, 'description' | 'name' | 'folder_id' | 'topics_policy'>>;
  groups: Partial<Record<ChannelGroupSetting, GroupSettingValue>>;
}

type Tables = RealmState;

/** §4.16 message_retention_days: "realm_default" (null), "unlimited" (-1) or a positive number of days. */
export function parseRetention(value: string | number): number | null {
  if (value === 'realm_default') return null;
  if (value === 'unlimited') return -1;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  throw badRequest(`Bad value for 'message_retention_days': ${String(value)}`);
}

/** The privacy that results from the request (reference §4.16 step 2; the reference server's defaults). */
function resultingPrivacy(channel: ChannelRow, p: UpdateChannelParams): Privacy {
  const invite_only = p.is_private ?? channel.invite_only;
  const is_web_public = p.is_web_public ?? (p.is_private === true ? false : channel.is_web_public);
  const madePrivate = invite_only && !channel.invite_only;
  const history_public_to_subscribers =
    p.history_public_to_subscribers ?? (invite_only ? (madePrivate ? false : channel.history_public_to_subscribers) : true);
  return { invite_only, is_web_public, history_public_to_subscribers };
}

const samePrivacy = (a: Privacy, b: Privacy) =>
  a.invite_only === b.invite_only &&
  a.is_web_public === b.is_web_public &&
  a.history_public_to_subscribers === b.history_public_to_subscribers;

export function planChannelUpdate(tables: Tables, realm: RealmRow, user: UserRow, p: UpdateChannelParams, features: Features): UpdatePlan {
  // Reference: a malformed retention value is a parse error, before the channel is looked up.
  const retention = p.message_retention_days === undefined ? null : { value: parseRetention(p.message_retention_days) };

  // 1. Metadata access (archived channels are reachable), then the right to administer.
  const channel = channelById(tables, user, p.stream_id, { access: 'metadata', archived: true });
  if (!may.mayAdministerChannel(tables, user, channel)) throw badRequest('You do not have permission to administer this channel.');

  // 2. The resulting privacy combination.
  const current: Privacy = {
    invite_only: channel.invite_only,
    is_web_public: channel.is_web_public,
    history_public_to_subscribers: channel.history_public_to_subscribers,
  };
  const next = resultingPrivacy(channel, p);
  const isDefaultNow = realm.default_stream_ids.includes(channel.stream_id);
  const isDefault = p.is_default_stream ?? isDefaultNow;
  if (
    (next.is_web_public && (next.invite_only || !next.history_public_to_subscribers)) ||
    (!next.invite_only && !next.history_public_to_subscribers)
  ) {
    throw badRequest('Invalid parameters');
  }
  if (next.invite_only && isDefault) throw badRequest('A default channel cannot be private.');
  if (!next.invite_only && realm.moderation_request_channel_id === channel.stream_id)
    throw badRequest('Moderation request channel must be private.');

  // 3. A privacy change: a private channel's needs a subscribed administrator (§4.16, C18); archived
  //    channels' privacy can change only from level 362 (§9).
  const privacyChanged = !samePrivacy(current, next);
  if (privacyChanged) {
    if (channel.is_archived && !features.has('archived_channel_changes')) throw badRequest('Channel is archived.');
    if (!may.mayChangePrivateChannelPrivacy(tables, user, channel)) throw badRequest('Channel content access is required.');
    if (next.invite_only && !current.invite_only && !may.mayCreatePrivateChannel(tables, realm, user)) throw insufficientPermission();
    if (!next.invite_only && current.invite_only && !may.mayCreatePublicChannel(tables, realm, user)) throw insufficientPermission();
  }

  // 4. Web-public prerequisites (§4.16 is_web_public).
  if (next.is_web_public && !current.is_web_public) {
    if (!realm.web_public_streams_enabled || !realm.enable_spectator_access) throw badRequest('Web-public channels are not enabled.');
    if (!may.mayCreateWebPublicChannel(tables, realm, user)) throw insufficientPermission();
  }

  // 5. topics_policy and the empty_topic_only transition of §3.
  if (p.topics_policy !== undefined && p.topics_policy !== channel.topics_policy) {
    if (!may.maySetTopicsPolicy(tables, realm, user)) throw insufficientPermission();
    if (p.topics_policy === 'empty_topic_only') {
      checkEmptyTopicOnlyTransition(indexOf(tables).messages.channel(channel.stream_id)?.topics.keys() ?? []);
    }
  }

  // 6. Default channels.
  if (isDefault !== isDefaultNow && !may.mayManageDefaultChannels(tables, realm, user)) throw insufficientPermission();

  // 7. Retention: organization administrators (C17), not channel administrators.
  if (retention !== null && !may.mayManageRetention(user)) throw insufficientPermission();

  // 8. Archive state (§3, C4): only unarchiving.
  if (p.is_archived === true && !channel.is_archived) throw badRequest('Channels cannot be archived with this operation.');
  const unarchive = p.is_archived !== undefined && channel.is_archived;

  // 9. The channel-level delete groups (level 407) need the realm's delete-policy permission.
  if (
    (p.groups.can_delete_any_message_group || p.groups.can_delete_own_message_group) &&
    !may.maySetDeleteMessagePolicy(tables, realm, user)
  ) {
    throw insufficientPermission();
  }

  // 10. The new name.
  const fields: UpdatePlan['fields'] = {};
  if (p.new_name !== undefined) {
    if (p.new_name === channel.name) throw badRequest('Channel already has that name.');
    checkChannelName(p.new_name);
    const holder = channelByName(tables, p.new_name);
    if (holder && holder.stream_id !== channel.stream_id) throw badRequest('Channel name is already in use.');
    fields.name = p.new_name;
  }
  if (p.description !== undefined) {
    const description = readChannelDescription(p.description);
    if (description !== channel.description) fields.description = description;
  }
  if (p.folder_id !== undefined && p.folder_id !== channel.folder_id) {
    if (p.folder_id !== null && !tables.channel_folders[String(p.folder_id)]) throw badRequest('Invalid channel folder ID');
    fields.folder_id = p.folder_id;
  }
  if (p.topics_policy !== undefined && p.topics_policy !== channel.topics_policy) fields.topics_policy = p.topics_policy;

  // 11. Group settings: content access where the spec asks for it, `old` must match, groups must be valid.
  const groups: UpdatePlan['groups'] = {};
  for (const setting of CHANNEL_GROUP_SETTINGS) {
    const update = p.groups[setting];
    if (!update) continue;
    if ((setting === 'can_add_subscribers_group' || setting === 'can_subscribe_group') && !channelContentAccess(tables, user, channel)) {
      throw badRequest('Channel content access is required.');
    }
    const value = resolveGroupSettingUpdate(tables, setting, channel[setting], update);
    if (value !== null) groups[setting] = value;
  }

  return {
    channel,
    privacy: privacyChanged ? next : null,
    isDefault: isDefault !== isDefaultNow ? isDefault : null,
    unarchive,
    retention: retention !== null && retention.value !== channel.message_retention_days ? retention : null,
    fields,
    groups,
  };
}
