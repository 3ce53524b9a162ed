/**
 * A register form declaring every client capability (spec §4.21), so the snapshot and the events speak the
 * same dialect: the register/events invariant checks (events/invariant.test.ts, user-admin/support.ts) use it.
 */
export const REGISTER_EVERY_CAPABILITY = {
  client_capabilities: JSON.stringify({
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: true,
    stream_typing_notifications: true,
    user_settings_object: true,
    linkifier_url_template: true,
    user_list_incomplete: true,
    include_deactivated_groups: true,
    archived_channels: true,
    empty_topic_name: true,
    simplified_presence_events: true,
  }),
  include_subscribers: 'true',
  apply_markdown: 'true',
};

/**
 * A register form of a client that declares nothing (no client_capabilities, no other option): the legacy
 * shapes of the snapshot and the events, for the invariant checks' second kind of observer.
 */
export const REGISTER_NO_CAPABILITY: Readonly<Record<string, string>> = {};
