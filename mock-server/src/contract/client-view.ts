/**
 * What one client declared it understands (register's client_capabilities, spec §4.21). Parsed once
 * and handed to presenters and event filters; nothing deeper re-reads the request (ARCHITECTURE.md "Layers").
 */
export const CAPABILITIES = [
  'notification_settings_null',
  'bulk_message_deletion',
  'user_avatar_url_field_optional',
  'stream_typing_notifications',
  'user_settings_object',
  'linkifier_url_template',
  'user_list_incomplete',
  'include_deactivated_groups',
  'archived_channels',
  'empty_topic_name',
  'simplified_presence_events',
] as const;

export type Capability = (typeof CAPABILITIES)[number];
export type ClientView = Readonly<Record<Capability, boolean>>;

/** Unknown keys are ignored (reference §4.21); non-boolean values count as not declared. */
export function clientView(capabilities: Record<string, unknown> | undefined | null): ClientView {
  return Object.fromEntries(CAPABILITIES.map((c) => [c, capabilities?.[c] === true])) as ClientView;
}

/** A modern client that declares everything (per-request reads such as GET /messages/{id} with allow_empty_topic_name). */
export const FULL_CLIENT: ClientView = clientView(Object.fromEntries(CAPABILITIES.map((c) => [c, true])));
