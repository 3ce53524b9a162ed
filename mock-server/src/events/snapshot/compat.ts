import { alertWordsOf } from '../../domain/compat-lookups/alert-words.js';
import { realmEmojiMap } from '../../domain/compat-lookups/realm-emoji.js';
import { mutedTopics, presentUserTopics } from '../../domain/compat-lookups/user-topics.js';
import { indexOf } from '../../store/indexes.js';
import type { CustomProfileFieldRow } from '../../store/state.js';
import type { SnapshotContext } from './context.js';

/**
 * Snapshot keys of the companion tier's compat-lookups area: keys the reference server's register
 * answer has and stock clients read at start (zulip-terminal reads every one of these unconditionally),
 * each under the event type that brings it there.
 */

/** Type `realm_emoji`: the map GET /realm/emoji answers, deactivated emoji included. */
export function realmEmojiKeys(ctx: SnapshotContext): Record<string, unknown> {
  return { realm_emoji: realmEmojiMap(ctx.tables) };
}

/** The reference server's field types, by its names, with their type numbers (custom_profile_field_types). */
const FIELD_TYPES: ReadonlyArray<[string, number, string]> = [
  ['SHORT_TEXT', 1, 'Text (short)'],
  ['LONG_TEXT', 2, 'Text (long)'],
  ['SELECT', 3, 'List of options'],
  ['DATE', 4, 'Date picker'],
  ['URL', 5, 'Link'],
  ['USER', 6, 'Users'],
  ['EXTERNAL_ACCOUNT', 7, 'External account'],
  ['PRONOUNS', 8, 'Pronouns'],
];

/** A field as the reference lists it: display_in_profile_summary only when true, as there. */
function presentField(row: CustomProfileFieldRow): Record<string, unknown> {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    hint: row.hint,
    field_data: row.field_data,
    order: row.order,
    required: false,
    editable_by_user: row.editable_by_user,
    ...(row.display_in_profile_summary ? { display_in_profile_summary: true } : {}),
  };
}

/** Type `custom_profile_fields`: the realm's fields in display order, and the field types. */
export function customProfileFieldKeys(ctx: SnapshotContext): Record<string, unknown> {
  const fields = Object.values(ctx.tables.custom_profile_fields).sort((a, b) => a.order - b.order || a.id - b.id);
  return {
    custom_profile_fields: fields.map(presentField),
    custom_profile_field_types: Object.fromEntries(FIELD_TYPES.map(([key, id, name]) => [key, { id, name }])),
  };
}

/** Type `muted_topics` (legacy): [channel name, topic, time muted] of each topic the viewer muted. */
export function mutedTopicKeys(ctx: SnapshotContext): Record<string, unknown> {
  return { muted_topics: ctx.viewer === null ? [] : mutedTopics(ctx.tables, ctx.viewer.user_id, ctx.options.client) };
}

/** Type `user_topic`: every topic visibility policy of the viewer. */
export function userTopicKeys(ctx: SnapshotContext): Record<string, unknown> {
  return { user_topics: ctx.viewer === null ? [] : presentUserTopics(ctx.tables, ctx.viewer.user_id, ctx.options.client) };
}

/** Type `alert_words`: the viewer's alert words (none for a spectator). */
export function alertWordKeys(ctx: SnapshotContext): Record<string, unknown> {
  return { alert_words: ctx.viewer === null ? [] : alertWordsOf(ctx.tables, ctx.viewer.user_id) };
}

/** Type `starred_messages`: IDs of the messages the viewer starred, ascending, from the receipts index. */
export function starredMessageKeys(ctx: SnapshotContext): Record<string, unknown> {
  const viewer = ctx.viewer;
  return { starred_messages: viewer === null ? [] : indexOf(ctx.tables).receipts.of(viewer.user_id).starred.toArray() };
}

/**
 * Display settings the reference server's `user_settings` has and zulip-terminal reads without a
 * fallback; this server stores no such setting, so every user has the reference's default until one is
 * stored (stored settings win).
 */
export const USER_SETTING_DEFAULTS: Readonly<Record<string, unknown>> = {
  twenty_four_hour_time: false,
  pm_content_in_desktop_notifications: true,
  send_private_typing_notifications: true,
  send_stream_typing_notifications: true,
};
