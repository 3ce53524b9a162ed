import type { RoleCode } from '../contract/roles.js';

/**
 * The persisted state: many realms, each a set of tables of plain JSON rows.
 *
 * Wire data stays snake_case (ARCHITECTURE.md, rule 7), so presenters copy fields rather than map them.
 * Rows are treated as immutable: a transaction replaces a whole row (`tx.put`), which is what makes the
 * undo log and the journal a list of (realm, table, key, row) tuples whose size is the size of the change.
 *
 * Where the spec says "not shown" (user, user group and presence objects, §2.8), the fields follow the
 * reference server so that stock clients find what they expect.
 */

/** Group-setting value, spec §1: a user group ID, or an anonymous group of users and subgroups. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** Roles, spec §2.8 (named in contract/roles.ts). */
export type { RoleCode };

export type TopicsPolicy = 'inherit' | 'allow_empty_topic' | 'disable_empty_topic' | 'empty_topic_only';
export type ReactionType = 'unicode_emoji' | 'realm_emoji' | 'service_extra_emoji';

export interface RealmRow {
  /** Realm identifier (the wire's sender_realm_str); also the key of the realm in `State.realms`. */
  id: string;
  name: string;
  /** Where the realm was created from (a fixture name), so the control API can reset it. */
  fixture: string;
  seed: number;
  date_created: number;
  /** Feature level this realm emulates (ARCHITECTURE: one process, several server versions). */
  feature_level: number;
  /** Seconds added to the server clock for this realm (control API: set/advance the clock per realm). */
  clock_offset: number;
  /**
   * The start time asked for when the realm was made (`--epoch`, `epoch` of POST /__mock/realms): a
   * reset starts there again. Absent: the realm started at the time it was made (the current time, or
   * an export's recorded time), and a reset does the same.
   */
  epoch?: number;
  /**
   * Asked-for size of a generated demo realm bigger than the demo (fixtures/size.ts), so a reset makes
   * the same realm again; absent: the demo realm's own size (or not a generated realm).
   */
  size?: { messages: number; users: number; channels: number };
  /**
   * The organization is deactivated: every key of it answers REALM_DEACTIVATED (reference rest-error-handling).
   * Absent means active; only the control API sets it (deactivateRealm: domain/organization.ts).
   */
  deactivated?: boolean;
  /** Unauthenticated register is allowed (spec §5, C21) and web-public channels are readable. */
  enable_spectator_access: boolean;
  /** The server setting WEB_PUBLIC_STREAMS_ENABLED (spec §4.16); per realm so tests can switch it. */
  web_public_streams_enabled: boolean;
  /** Realm default for channels whose topics_policy is `inherit` (§1, §3). */
  topics_policy: Exclude<TopicsPolicy, 'inherit'>;
  moderation_request_channel_id: number | null;
  require_unique_names: boolean;
  waiting_period_threshold: number;
  message_content_allowed_in_email_notifications: boolean;
  /** Realm-level permission settings (group-setting values), named as the reference server names them. */
  can_create_public_channel_group: GroupSettingValue;
  can_create_private_channel_group: GroupSettingValue;
  can_create_web_public_channel_group: GroupSettingValue;
  can_set_topics_policy_group: GroupSettingValue;
  can_set_delete_message_policy_group: GroupSettingValue;
  can_add_custom_emoji_group: GroupSettingValue;
  can_manage_default_streams_group?: GroupSettingValue;
  /**
   * Who may use wildcard mentions in large channels and topics (reference can_mention_many_users_group;
   * below feature level 352 shown and set as wildcard_mention_policy). Absent: administrators.
   */
  can_mention_many_users_group?: GroupSettingValue;
  /** Channel IDs of the realm's default channels (§4.15 include_default, §4.16 is_default_stream). */
  default_stream_ids: number[];
  /** ID of the system bot that posts notifications (reports, reminders, failed scheduled messages). */
  notification_bot_id: number;
  /**
   * Message editing, moving and deleting policies (companion tier, area edit-delete), only those set:
   * absent keys (and the whole object, in state files written before it existed) read as the reference
   * server's defaults (domain/edit-delete/settings.ts).
   */
  editing?: Partial<RealmEditingSettings>;
}

/** The organization's message editing settings, named as the reference server names them (realm_* in register). */
export interface RealmEditingSettings {
  allow_message_editing: boolean;
  /** null: no limit (seconds after sending). */
  message_content_edit_limit_seconds: number | null;
  message_content_delete_limit_seconds: number | null;
  move_messages_within_stream_limit_seconds: number | null;
  move_messages_between_streams_limit_seconds: number | null;
  can_move_messages_between_topics_group: GroupSettingValue;
  can_move_messages_between_channels_group: GroupSettingValue;
  can_delete_any_message_group: GroupSettingValue;
  can_delete_own_message_group: GroupSettingValue;
  can_resolve_topics_group: GroupSettingValue;
  message_edit_history_visibility_policy: 'all' | 'moves' | 'none';
}

export interface UserSettings {
  presence_enabled: boolean;
  enable_drafts_synchronization: boolean;
  email_address_visibility: number;
  [key: string]: unknown;
}

export interface UserRow {
  user_id: number;
  /** The API email: user name of HTTP Basic authentication (§5). */
  email: string;
  delivery_email: string;
  full_name: string;
  role: RoleCode;
  is_active: boolean;
  is_bot: boolean;
  /** 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded (reference server); null for humans. */
  bot_type: number | null;
  bot_owner_id: number | null;
  /** System bots (notification bot) live outside the user list, like the reference server's cross-realm bots. */
  is_system_bot: boolean;
  /** 32 alphanumeric characters (§5 "Malformed API key" otherwise). */
  api_key: string;
  /** scrypt hash `salt:hash` (hex); never returned on the wire. */
  password_hash: string | null;
  date_joined: number;
  timezone: string;
  /** 'G' gravatar, 'U' uploaded: decides avatar_url with client_gravatar. */
  avatar_source: 'G' | 'U';
  avatar_version: number;
  /** Extra permissions, spec §5. */
  can_create_users: boolean;
  can_change_user_emails: boolean;
  /** custom profile field ID → value. */
  profile_data: Record<string, { value: string; rendered_value?: string }>;
  settings: UserSettings;
  /** Last activity (seconds): the 14-day recency rule of partial_subscribers (§2.3, §8). */
  last_active: number;
  /** Personal recipient (1:1 direct messages are addressed to it). */
  recipient_id: number;
}

export interface UserGroupRow {
  id: number;
  name: string;
  description: string;
  is_system_group: boolean;
  members: number[];
  direct_subgroup_ids: number[];
  deactivated: boolean;
  creator_id: number | null;
  date_created: number | null;
  can_manage_group: GroupSettingValue;
  can_mention_group: GroupSettingValue;
}

/** The channel-level permission settings, spec §2.2 and §2.3 (and can_create_topic_group, reference server). */
export const CHANNEL_GROUP_SETTINGS = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_create_topic_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_remove_subscribers_group',
  'can_resolve_topics_group',
  'can_send_message_group',
  'can_subscribe_group',
] as const;
export type ChannelGroupSetting = (typeof CHANNEL_GROUP_SETTINGS)[number];

export type ChannelRow = {
  stream_id: number;
  name: string;
  description: string;
  rendered_description: string;
  date_created: number;
  creator_id: number | null;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  /** null: the realm's setting; -1: forever (§2.2). */
  message_retention_days: number | null;
  folder_id: number | null;
  is_archived: boolean;
  topics_policy: TopicsPolicy;
  recipient_id: number;
  /**
   * §2.2 first_message_id, kept with the channel (as the reference server keeps it) so that sending need
   * not scan the realm's messages; null until the channel has a message. Absent in state files written
   * before it existed: then it is computed.
   */
  first_message_id?: number | null;
} & Record<ChannelGroupSetting, GroupSettingValue>;

/** Key: `${user_id}:${stream_id}`. Inactive rows remember a past subscription (register `unsubscribed`). */
export interface SubscriptionRow {
  user_id: number;
  stream_id: number;
  active: boolean;
  color: string;
  is_muted: boolean;
  pin_to_top: boolean;
  desktop_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
  push_notifications: boolean | null;
  audible_notifications: boolean | null;
  /** ID of the newest message when the user subscribed (protected history, §4.11). */
  subscribed_after_message_id: number;
}

export interface ChannelFolderRow {
  id: number;
  name: string;
  order: number;
  date_created: number | null;
  creator_id: number | null;
  description: string;
  rendered_description: string;
  is_archived: boolean;
}

export interface DirectMessageGroupRow {
  id: number;
  /** Sorted participant IDs, the sender included. */
  user_ids: number[];
  recipient_id: number;
}

export interface ReactionRow {
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
  user_id: number;
}

export interface SubmessageRow {
  id: number;
  msg_type: string;
  content: string;
  message_id: number;
  sender_id: number;
}

/** One entry of edit_history (§2.5): only the keys that changed. */
export interface EditHistoryEntry {
  user_id: number | null;
  timestamp: number;
  prev_content?: string;
  prev_rendered_content?: string;
  prev_stream?: number;
  stream?: number;
  prev_topic?: string;
  topic?: string;
}

export interface MessageRow {
  id: number;
  sender_id: number;
  type: 'stream' | 'private';
  /** Channel messages. */
  stream_id: number | null;
  /** Direct messages: every participant, the sender included, sorted. */
  dm_user_ids: number[] | null;
  recipient_id: number;
  /** The topic; "" for direct messages. */
  subject: string;
  content: string;
  rendered_content: string;
  timestamp: number;
  client: string;
  is_me_message: boolean;
  /** Newest first (§2.5). */
  edit_history: EditHistoryEntry[];
  last_edit_timestamp: number | null;
  last_moved_timestamp: number | null;
  reactions: ReactionRow[];
  submessages: SubmessageRow[];
}

/** Key: message ID. Who received the message and with which flags (read, starred, mentioned, …). */
export interface UserMessagesRow {
  message_id: number;
  flags: Record<string, string[]>;
}

export interface CustomEmojiRow {
  id: number;
  name: string;
  source_url: string;
  deactivated: boolean;
  author_id: number | null;
}

export interface LinkifierRow {
  id: number;
  pattern: string;
  url_template: string;
  /** Display order; new linkifiers go last (reference server). */
  order: number;
}

export interface SavedSnippetRow {
  id: number;
  user_id: number;
  title: string;
  content: string;
  date_created: number;
}

/** Key: `${user_id}:${fragment}`. Built-in views have no row until stored (reference §4.12). */
export interface NavigationViewRow {
  user_id: number;
  fragment: string;
  is_pinned: boolean;
  name: string | null;
}

export interface DraftRow {
  id: number;
  user_id: number;
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}

export interface ScheduledMessageRow {
  scheduled_message_id: number;
  sender_id: number;
  /** Canonical values only (reference §2): direct/channel are stored as private/stream. */
  type: 'stream' | 'private';
  /** Channel ID, or sorted user IDs. */
  to: number | number[];
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  read_by_sender: boolean;
  failed: boolean;
  /** Set once delivered; delivered rows leave the list operation. */
  delivered_message_id: number | null;
  client: string;
}

export interface ReminderRow {
  reminder_id: number;
  user_id: number;
  message_id: number;
  scheduled_delivery_timestamp: number;
  note: string;
  failed: boolean;
  delivered_message_id: number | null;
}

/** Key: user ID. Only non-default fields are presented (reference §2). */
export interface UserStatusRow {
  user_id: number;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
}

export interface CustomProfileFieldRow {
  id: number;
  name: string;
  hint: string;
  /** 1 short text, 2 long text, 3 list of options, 4 date, 5 link, 6 users, 7 external account, 8 pronouns. */
  type: number;
  field_data: string;
  order: number;
  editable_by_user: boolean;
  display_in_profile_summary: boolean;
}

/** Key: user ID. */
export interface PresenceRow {
  user_id: number;
  active_timestamp: number;
  idle_timestamp: number;
  /**
   * The realm's presence change counter when this row last changed (reference `last_update_id`, from
   * the `presence` sequence). Absent in rows written before it existed (the demo's): counts as 0.
   */
  last_update_id?: number;
}

/**
 * Key: attachment ID. An uploaded file's description (area live); its bytes are in `attachment_files`
 * under the same key, so lists and access checks never carry file contents.
 */
export interface AttachmentRow {
  id: number;
  owner_id: number;
  /** The file name as uploaded (after sanitising), the URL's last segment. */
  name: string;
  /** `{realm_id}/{id}/{token}/{name}`: the URL is `/user_uploads/` + path_id. */
  path_id: string;
  size: number;
  content_type: string;
  /** Seconds (presented in milliseconds, as the reference does). */
  create_time: number;
  /** Messages that referenced the file when sent (claimed), ascending. */
  message_ids: number[];
}

/** Key: attachment ID. The file's bytes, base64 (journaled like any row: durable before the answer). */
export interface AttachmentFileRow {
  data: string;
}

/** Key: user ID. A user's alert words in the order they were added (companion tier, compat-lookups). */
export interface AlertWordsRow {
  user_id: number;
  words: string[];
}

/** Key: `${user_id}:${key}`. One entry of an account's key-value storage (companion tier, bot storage). */
export interface BotStorageRow {
  user_id: number;
  key: string;
  value: string;
}

/** Key: `${user_id}:${stream_id}:${topic lower-cased}`. A user's visibility policy for one topic (1 muted, 2 unmuted, 3 followed). */
export interface UserTopicRow {
  user_id: number;
  stream_id: number;
  /** The topic as the user last named it ("" is the empty topic). */
  topic_name: string;
  last_updated: number;
  visibility_policy: 1 | 2 | 3;
}

/**
 * ID sequences. Recipients are one sequence for users, channels and direct-message groups, as on the
 * reference server; reminders take scheduled-message IDs. Typed, so a misspelt name cannot quietly
 * start a fresh counter whose IDs collide with existing rows.
 */
export const SEQUENCES = [
  'users',
  'user_groups',
  'channels',
  'channel_folders',
  'recipients',
  'direct_message_groups',
  'messages',
  'submessages',
  'custom_emoji',
  'linkifiers',
  'saved_snippets',
  'drafts',
  'scheduled_messages',
  'custom_profile_fields',
  'attachments',
  'presence',
] as const;
export type Sequence = (typeof SEQUENCES)[number];

/** Next IDs per sequence; one row so a transaction can take IDs from several sequences. */
export interface CountersRow {
  [sequence: string]: number;
}

export interface RealmTables {
  realm: Record<'realm', RealmRow>;
  counters: Record<'counters', CountersRow>;
  users: Record<string, UserRow>;
  user_groups: Record<string, UserGroupRow>;
  channels: Record<string, ChannelRow>;
  subscriptions: Record<string, SubscriptionRow>;
  channel_folders: Record<string, ChannelFolderRow>;
  direct_message_groups: Record<string, DirectMessageGroupRow>;
  messages: Record<string, MessageRow>;
  user_messages: Record<string, UserMessagesRow>;
  custom_emoji: Record<string, CustomEmojiRow>;
  linkifiers: Record<string, LinkifierRow>;
  saved_snippets: Record<string, SavedSnippetRow>;
  navigation_views: Record<string, NavigationViewRow>;
  drafts: Record<string, DraftRow>;
  scheduled_messages: Record<string, ScheduledMessageRow>;
  reminders: Record<string, ReminderRow>;
  user_statuses: Record<string, UserStatusRow>;
  custom_profile_fields: Record<string, CustomProfileFieldRow>;
  presence: Record<string, PresenceRow>;
  attachments: Record<string, AttachmentRow>;
  attachment_files: Record<string, AttachmentFileRow>;
  alert_words: Record<string, AlertWordsRow>;
  bot_storage: Record<string, BotStorageRow>;
  user_topics: Record<string, UserTopicRow>;
}

export type TableName = keyof RealmTables;
export type RowOf<T extends TableName> = RealmTables[T][keyof RealmTables[T]];

export const TABLE_NAMES: readonly TableName[] = [
  'realm',
  'counters',
  'users',
  'user_groups',
  'channels',
  'subscriptions',
  'channel_folders',
  'direct_message_groups',
  'messages',
  'user_messages',
  'custom_emoji',
  'linkifiers',
  'saved_snippets',
  'navigation_views',
  'drafts',
  'scheduled_messages',
  'reminders',
  'user_statuses',
  'custom_profile_fields',
  'presence',
  'attachments',
  'attachment_files',
  'alert_words',
  'bot_storage',
  'user_topics',
];

/**
 * Tables added after state files were first written (the companion tier's among them) are missing from
 * older files' realms: they start empty, so such a file still loads. Called for every realm a snapshot
 * or a journal line brings in.
 */
export function withAllTables(realm: RealmState): RealmState {
  const tables = realm as unknown as Record<string, unknown>;
  for (const name of TABLE_NAMES) tables[name] ??= {};
  return realm;
}

export type RealmState = RealmTables;

/** The whole persisted state. `format` guards against loading a file of another layout. */
export interface State {
  format: 'teamchat-kit/state@1';
  realms: Record<string, RealmState>;
}

export function emptyRealmTables(realm: RealmRow): RealmState {
  const tables = Object.fromEntries(TABLE_NAMES.map((t) => [t, {}])) as unknown as RealmState;
  tables.realm = { realm };
  tables.counters = { counters: {} };
  return tables;
}

export function emptyState(): State {
  return { format: 'teamchat-kit/state@1', realms: {} };
}

/**
 * One change, as journaled: put `row` (or delete when null) at realms[realm][table][key].
 * `table` null replaces or deletes a whole realm (realm creation, reset, removal).
 */
export type Change =
  { realm: string; table: TableName; key: string; row: unknown } | { realm: string; table: null; key: null; row: RealmState | null };

/** Apply one change to a state in place. Shared by transactions, journal replay and tests. */
export function applyChange(state: State, change: Change): void {
  if (change.table === null) {
    if (change.row === null) delete state.realms[change.realm];
    else state.realms[change.realm] = withAllTables(change.row);
    return;
  }
  const realm = state.realms[change.realm];
  if (!realm) throw new Error(`change for unknown realm ${change.realm}`);
  // A table added after the state file was written (attachments) starts empty.
  const table = (realm[change.table] ??= {} as never) as Record<string, unknown>;
  if (change.row === null) delete table[change.key];
  else table[change.key] = change.row;
}
