import type { SchemaOf } from '../../contract/operation-types.js';
import type { CustomEmojiRow, RealmState } from '../../store/state.js';

/**
 * Custom emoji as the reference server presents them (GET /realm/emoji, register's `realm_emoji`): a
 * map keyed by the emoji's ID as a string, deactivated emoji included with `deactivated: true`, because
 * old messages, reactions and statuses may still show them.
 *
 * `still_url` (reference get-custom-emoji): the still first frame of an animated image, beside the image in
 * a `still/` folder as PNG; null for a still image. Every emoji carries it from feature level 113
 * (realm_emoji_still_url, marked on the document's property, which leaves it out below that level).
 */
export function presentRealmEmoji(row: CustomEmojiRow): SchemaOf<'RealmEmoji'> {
  return {
    id: String(row.id),
    name: row.name,
    source_url: row.source_url,
    still_url: stillUrlOf(row.source_url),
    deactivated: row.deactivated,
    author_id: row.author_id,
  };
}

/** An animated (GIF) image's still frame: `…/images/1.gif` → `…/images/still/1.png`. */
function stillUrlOf(sourceUrl: string): string | null {
  const match = /^(.*\/)([^/]+)\.gif$/i.exec(sourceUrl);
  return match ? `${match[1]}still/${match[2]}.png` : null;
}

/** The realm's custom emoji by ID, ascending (the reference server's order). */
export function realmEmojiMap(tables: Pick<RealmState, 'custom_emoji'>): SchemaOf<'RealmEmojiMap'> {
  const rows = Object.values(tables.custom_emoji).sort((a, b) => a.id - b.id);
  return Object.fromEntries(rows.map((row) => [String(row.id), presentRealmEmoji(row)]));
}
