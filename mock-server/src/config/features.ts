import levels from '../../../openapi/feature-levels.json' with { type: 'json' };

/**
 * The only place where feature levels are compared (ARCHITECTURE.md, rule 5). Behaviour asks by name:
 * `features(realm.feature_level).has('empty_topic_name')`. The names and levels are contract data
 * (spec §9) kept in openapi/feature-levels.json, which the conformance suite reads too.
 */
export type FeatureName =
  | 'ignored_parameters_unsupported'
  | 'scheduled_message_edit_endpoint'
  | 'unsubscribe_principal_bad_request'
  | 'channel_type_value'
  | 'archived_channels'
  | 'can_send_message_group'
  | 'empty_topic_name'
  | 'include_all'
  | 'archived_channel_changes'
  | 'no_topic_reads_as_empty'
  | 'channel_delete_permission_groups'
  | 'include_subscribers_partial'
  | 'get_messages_by_ids'
  | 'reaction_error_codes'
  | 'wildcard_mention_error_codes'
  | 'can_mention_many_users_group'
  | 'presence_last_update_id'
  | 'realm_emoji_still_url'
  | 'can_create_topic_group'
  | 'linkifier_url_template'
  | 'scheduled_messages'
  | 'scheduled_message_failed_field'
  | 'channel_can_remove_subscribers_group_field'
  | 'user_group_can_mention_group_field'
  | 'server_typing_periods'
  | 'typing_direct_message_type'
  | 'custom_profile_field_required_field'
  | 'channel_creator_id_field'
  | 'channel_texts'
  | 'upload_url_field'
  | 'realm_can_delete_any_message_group'
  | 'user_group_can_manage_group_field'
  | 'upload_filename_field'
  | 'user_group_deactivated_field'
  | 'realm_can_delete_own_message_group'
  | 'user_group_creator_fields'
  | 'custom_profile_field_editable_by_user_field'
  | 'saved_snippets'
  | 'realm_can_move_messages_between_channels_group'
  | 'realm_can_move_messages_between_topics_group'
  | 'channel_is_recently_active_field'
  | 'channel_can_administer_channel_group_field'
  | 'channel_can_add_subscribers_group_field'
  | 'stream_delete_event_stream_ids'
  | 'ignored_because_not_subscribed_channels_field'
  | 'channel_can_subscribe_group_field'
  | 'realm_message_edit_history_visibility_policy'
  | 'message_last_moved_timestamp_field'
  | 'realm_can_resolve_topics_group'
  | 'channel_folders'
  | 'navigation_views'
  | 'channel_topics_policy_field'
  | 'channel_subscriber_count_field'
  | 'channel_move_messages_groups'
  | 'reminders'
  | 'channel_can_resolve_topics_group_field'
  | 'channel_topics_policy_empty_topic_only';

/*
 * The names are spelled out rather than taken as `keyof typeof levels.levels` so that the published declarations
 * (features.d.ts, reached from the package's entry) do not import the JSON file: tsc drops the import's
 * `with { type: 'json' }` when it emits them, and a NodeNext consumer type-checking without skipLibCheck then
 * fails with TS1543. This check (not emitted: nothing exported names it) keeps the list and the file in step:
 * a name added to or removed from feature-levels.json fails the type-check here until the list follows.
 */
type JsonNames = keyof typeof levels.levels;
const sameNames: [FeatureName] extends [JsonNames] ? ([JsonNames] extends [FeatureName] ? true : never) : never = true;
void sameNames;

/** The newest level this server implements: the default for new realms. */
export const CURRENT_FEATURE_LEVEL: number = levels.current;

/** The lowest level a realm may emulate. The Python client needs 176+ to send modern linkifier fields. */
export const MIN_FEATURE_LEVEL = 1;

/** For names read from the OpenAPI document: a name that is not in feature-levels.json is a typo there. */
export function isFeatureName(name: string): name is FeatureName {
  return Object.hasOwn(levels.levels, name);
}

export function levelOf(name: FeatureName): number {
  return levels.levels[name].level;
}

/** Of two features, the one that came at the higher level (the document's marks are ordered by it). */
export function newestOf(a: FeatureName, b: FeatureName): FeatureName {
  return levelOf(b) > levelOf(a) ? b : a;
}

export interface Features {
  readonly level: number;
  /** Every feature this server knows (the current level or above): nothing of an older level to emulate. */
  readonly current: boolean;
  has(name: FeatureName): boolean;
}

/** One Features per level, made on first use: every request asks for its realm's (bounded by the levels). */
const byLevel = new Map<number, Features>();

export function features(level: number): Features {
  let found = byLevel.get(level);
  if (!found) {
    found = Object.freeze({ level, current: level >= CURRENT_FEATURE_LEVEL, has: (name: FeatureName) => level >= levelOf(name) });
    byLevel.set(level, found);
  }
  return found;
}

/**
 * The level announced to the Python client as `zulip_feature_level` (GET /server_settings). Below 176
 * it sends `url_format_string` instead of `url_template` when adding a linkifier, and below 106 a
 * JSON-quoted `full_name`: wire forms of levels older than anything the spec describes, which this
 * server does not parse. The reference notes say the alias is never below 176, so stock clients speak the
 * spec's wire form at every emulated level; `service_feature_level` stays the realm's true level.
 */
export const STOCK_CLIENT_MIN_FEATURE_LEVEL = 176;
export function stockClientFeatureLevel(level: number): number {
  return Math.max(level, STOCK_CLIENT_MIN_FEATURE_LEVEL);
}
