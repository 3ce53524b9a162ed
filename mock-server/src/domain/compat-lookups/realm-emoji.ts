import type { SchemaOf } from '../../contract/operation-types.js';
import type { CustomEmojiRow, RealmState } from '../../store/state.js';

/**
 * Custom emoji as the reference server presents them (GET /realm/emoji, register's `realm_emoji`): a
 * map keyed by the emoji's ID as a string, deactivated emoji included with `deactivated: true`, because
 * old messages, reactions and statuses may still show them. No emoji here is animated, so `still_url`
 * (the reference's still frame of an animated image) is never given.
 */
export function presentRealmEmoji(row: CustomEmojiRow): SchemaOf<'RealmEmoji'> {
  return { id: String(row.id), name: row.name, source_url: row.source_url, deactivated: row.deactivated, author_id: row.author_id };
}

/** The realm's custom emoji by ID, ascending (the reference server's order). */
export function realmEmojiMap(tables: Pick<RealmState, 'custom_emoji'>): SchemaOf<'RealmEmojiMap'> {
  const rows = Object.values(tables.custom_emoji).sort((a, b) => a.id - b.id);
  return Object.fromEntries(rows.map((row) => [String(row.id), presentRealmEmoji(row)]));
}
