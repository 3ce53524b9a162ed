import { DEFAULT_CONFIG } from '../config/config.js';
import { editingRealmKeys } from '../domain/edit-delete/settings.js';
import { mentionRealmKeys } from '../domain/messages/wildcard-mentions.js';
import { MAX_CHANNEL_DESCRIPTION_LENGTH, MAX_CHANNEL_NAME_LENGTH } from '../domain/channels/lookup.js';
import { MAX_MESSAGE_LENGTH } from '../domain/messages/send.js';
import { MAX_REMINDER_NOTE_LENGTH } from '../domain/reminders/create.js';
import { EMPTY_TOPIC_DISPLAY_NAME, MAX_TOPIC_LENGTH } from '../domain/topics.js';
import type { RealmState, UserRow } from '../store/state.js';
import { defaultStreamKeys, folderKeys, streamKeys, subscriptionKeys } from './snapshot/channels.js';
import type { SnapshotContext, SnapshotOptions } from './snapshot/context.js';
import { maxMessageId, recentPrivateConversations, unreadMsgs } from './snapshot/messages.js';
import { liveRealmKeys } from './snapshot/live.js';
import { presenceKeys, realmUserKeys, userGroupKeys, userStatusKeys } from './snapshot/people.js';
import { drafts, linkifierKeys, navigationViews, reminders, savedSnippets, scheduledMessages } from './snapshot/personal.js';
import {
  USER_SETTING_DEFAULTS,
  alertWordKeys,
  customProfileFieldKeys,
  mutedTopicKeys,
  realmEmojiKeys,
  starredMessageKeys,
  userTopicKeys,
} from './snapshot/compat.js';

/** Register's options are declared beside the snapshot context (no import cycle); callers take them from here. */
export type { SnapshotOptions };

/** Spec §4.21 / reference §8 limits advertised to clients: the ones the operations enforce. */
export const REGISTER_LIMITS = {
  max_message_length: MAX_MESSAGE_LENGTH,
  max_topic_length: MAX_TOPIC_LENGTH,
  max_stream_name_length: MAX_CHANNEL_NAME_LENGTH,
  max_stream_description_length: MAX_CHANNEL_DESCRIPTION_LENGTH,
  max_reminder_note_length: MAX_REMINDER_NOTE_LENGTH,
  event_queue_longpoll_timeout_seconds: 90,
} as const;

type Producer = (ctx: SnapshotContext) => Record<string, unknown>;

/** Type name → keys, in the order of the reference table. Unknown names are simply absent (§4.21). */
const PRODUCERS: ReadonlyArray<[string, Producer]> = [
  ['message', (ctx) => ({ max_message_id: maxMessageId(ctx) })],
  ['recent_private_conversations', (ctx) => ({ recent_private_conversations: recentPrivateConversations(ctx) })],
  ['navigation_views', (ctx) => ({ navigation_views: navigationViews(ctx) })],
  ['saved_snippets', (ctx) => ({ saved_snippets: savedSnippets(ctx) })],
  ['subscription', subscriptionKeys],
  ['channel_folders', folderKeys],
  ['drafts', (ctx) => ({ drafts: drafts(ctx) })],
  ['scheduled_messages', (ctx) => ({ scheduled_messages: scheduledMessages(ctx) })],
  ['reminders', (ctx) => ({ reminders: reminders(ctx) })],
  ['realm_linkifiers', linkifierKeys],
  ['realm_user', realmUserKeys],
  ['realm_user_groups', userGroupKeys],
  ['stream', streamKeys],
  ['default_streams', defaultStreamKeys],
  ['user_status', userStatusKeys],
  ['presence', presenceKeys],
  ['realm', realmKeys],
  ['user_settings', (ctx) => ({ user_settings: ctx.viewer ? { ...USER_SETTING_DEFAULTS, ...ctx.viewer.settings } : {} })],
  // Companion tier (compat-lookups): keys of the reference server's register that stock clients read.
  ['realm_emoji', realmEmojiKeys],
  ['custom_profile_fields', customProfileFieldKeys],
  ['muted_topics', mutedTopicKeys],
  ['user_topic', userTopicKeys],
  ['alert_words', alertWordKeys],
  ['starred_messages', starredMessageKeys],
];

/** Type `realm` (§4.21): realm_* settings, the empty-topic display name (§1) and the size limits. */
function realmKeys(ctx: SnapshotContext): Record<string, unknown> {
  const realm = ctx.tables.realm.realm;
  return {
    realm_name: realm.name,
    realm_date_created: realm.date_created,
    realm_empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME,
    realm_topics_policy: realm.topics_policy,
    realm_moderation_request_channel_id: realm.moderation_request_channel_id,
    realm_enable_spectator_access: realm.enable_spectator_access,
    realm_waiting_period_threshold: realm.waiting_period_threshold,
    realm_require_unique_names: realm.require_unique_names,
    realm_message_content_allowed_in_email_notifications: realm.message_content_allowed_in_email_notifications,
    realm_can_create_public_channel_group: realm.can_create_public_channel_group,
    realm_can_create_private_channel_group: realm.can_create_private_channel_group,
    realm_can_create_web_public_channel_group: realm.can_create_web_public_channel_group,
    realm_can_set_topics_policy_group: realm.can_set_topics_policy_group,
    realm_can_set_delete_message_policy_group: realm.can_set_delete_message_policy_group,
    realm_can_add_custom_emoji_group: realm.can_add_custom_emoji_group,
    ...(realm.can_manage_default_streams_group !== undefined
      ? { realm_can_manage_default_streams_group: realm.can_manage_default_streams_group }
      : {}),
    // Companion tier, area edit-delete: the editing, moving and deleting policies.
    ...editingRealmKeys(ctx.tables),
    ...mentionRealmKeys(ctx.tables, ctx.options.features),
    ...REGISTER_LIMITS,
    ...liveRealmKeys(ctx.options.maxFileUploadMib ?? DEFAULT_CONFIG.maxFileUploadMib),
    // Companion tier (compat-lookups): the mock deletes no message for age, i.e. the reference's -1.
    realm_message_retention_days: -1,
  };
}

/**
 * The state part of POST /api/v1/register (spec §4.21): the keys each fetched type brings, as the
 * reference's "keys per fetched type" table lists them. The route adds queue_id, last_event_id,
 * service_feature_level and service_version. Pure: time comes in as `now`.
 */
export function registerSnapshot(tables: RealmState, viewer: UserRow | null, options: SnapshotOptions): Record<string, unknown> {
  const ctx: SnapshotContext = { tables, viewer, options };
  const fetched = (type: string) => options.fetchEventTypes === null || options.fetchEventTypes.has(type);
  const out: Record<string, unknown> = {};
  for (const [type, produce] of PRODUCERS) if (fetched(type)) Object.assign(out, produce(ctx));
  // C22: unread_msgs is decided by event_types, not fetch_event_types; a spectator has no unread state.
  const subscribedTo = (type: string) => options.eventTypes === null || options.eventTypes.has(type);
  if (viewer !== null && subscribedTo('message') && subscribedTo('update_message_flags')) out.unread_msgs = unreadMsgs(ctx);
  return out;
}
