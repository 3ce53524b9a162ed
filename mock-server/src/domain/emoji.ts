import { createRequire } from 'node:module';
import type { CustomEmojiRow, RealmState, ReactionType } from '../store/state.js';

/**
 * The emoji catalogue: which names and codes exist in the three namespaces of spec §2.5
 * (`unicode_emoji`, `realm_emoji`, `service_extra_emoji`). Markdown (`:name:`, reference §4.20), reactions
 * and statuses (§4.5) all look names up here.
 *
 * Unicode names come from the iamcal short-name set of the npm dataset `emojibase-data`
 * (`en/shortcodes/iamcal.json`), which is close to the reference server's naming, with two
 * normalisations the reference server makes: codes are lower-case, dash-separated hex without the
 * `fe0f` presentation selector (its `emoji-1f937-200d-2640` class for the shrug), and names use `_`
 * where iamcal uses `-` (its `woman_shrugging`; `-1` is kept). Skin-tone modifiers are not emoji of
 * their own there (`:skin-tone-2:` stays text), so they are left out. OVERRIDES lists the names where
 * the reference server differs from iamcal.
 */

/** An emoji as reactions and statuses name it (§2.5 reaction_type namespaces). */
export interface Emoji {
  emoji_name: string;
  emoji_code: string;
  reaction_type: ReactionType;
}

/**
 * The service's own extra emoji: the reference server has exactly one, named after the product, whose
 * code is its name (spec §2.5: "emoji_code is the emoji name"). The anonymised product is "Team Chat",
 * hence `teamchat`.
 */
export const SERVICE_EXTRA_EMOJI: Emoji = { emoji_name: 'teamchat', emoji_code: 'teamchat', reaction_type: 'service_extra_emoji' };

/** Where the reference server serves its extra emoji's image (same path shape, our name). */
export const SERVICE_EXTRA_EMOJI_URL = `/static/generated/emoji/images/emoji/unicode/${SERVICE_EXTRA_EMOJI.emoji_name}.png`;

/**
 * Code → names (the first is the canonical name) where the reference server's names differ from iamcal.
 * Sources: reference doc §4.20 (`:smile:` renders as `emoji-1f642`, so 1f604, iamcal's `smile`, is
 * `big_smile` there); the other rows are the names the reference server's rendering of Unicode
 * characters shows (🙁 `frown`, 🎄 `holiday_tree`, ➗ `division`, 💩 `poop`, 🤖 `robot`, 🥝 `kiwi`,
 * 🥇 `gold`). A name claimed here is taken away from the code iamcal gave it to; iamcal's other names
 * for an overridden code stay as aliases.
 */
const OVERRIDES: Readonly<Record<string, readonly string[]>> = {
  '1f642': ['smile'],
  '1f604': ['big_smile'],
  '1f641': ['frown'],
  '1f384': ['holiday_tree'],
  '2797': ['division'],
  '1f4a9': ['poop'],
  '1f916': ['robot'],
  '1f95d': ['kiwi'],
  '1f947': ['gold'],
};

/** Skin-tone modifiers: not emoji by themselves on the reference server. */
const SKIN_TONES = new Set(['1f3fb', '1f3fc', '1f3fd', '1f3fe', '1f3ff']);

interface Catalogue {
  codeByName: Map<string, string>;
  namesByCode: Map<string, string[]>;
}

let catalogue: Catalogue | null = null;

/** Loaded on first use, once (a 48 kB JSON file): start-up does not pay for it. */
function load(): Catalogue {
  if (catalogue) return catalogue;
  const require = createRequire(import.meta.url);
  const raw = require('emojibase-data/en/shortcodes/iamcal.json') as Record<string, string | string[]>;
  const namesByCode = new Map<string, string[]>();
  for (const [hexcode, value] of Object.entries(raw)) {
    const code = normaliseCode(hexcode);
    if (SKIN_TONES.has(code)) continue;
    const names = (Array.isArray(value) ? value : [value]).map((n) => (n === '-1' ? n : n.replace(/-/g, '_')));
    namesByCode.set(code, [...(namesByCode.get(code) ?? []), ...names]);
  }
  const claimed = new Set(Object.values(OVERRIDES).flat());
  for (const [code, names] of namesByCode)
    namesByCode.set(
      code,
      names.filter((n) => !claimed.has(n)),
    );
  for (const [code, names] of Object.entries(OVERRIDES)) namesByCode.set(code, [...names, ...(namesByCode.get(code) ?? [])]);
  const codeByName = new Map<string, string>();
  for (const [code, names] of namesByCode) {
    if (names.length === 0) namesByCode.delete(code);
    for (const name of names) if (!codeByName.has(name)) codeByName.set(name, code);
  }
  catalogue = { codeByName, namesByCode };
  return catalogue;
}

/** Dataset hexcode → the wire's emoji_code: lower case, without `fe0f` (reference §2.5 codes). */
function normaliseCode(hexcode: string): string {
  return hexcode
    .toLowerCase()
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');
}

/** The emoji_code of a Unicode emoji name (canonical name or alias), or undefined. */
export function unicodeEmojiCode(name: string): string | undefined {
  return load().codeByName.get(name);
}

/** The canonical name of a Unicode emoji code, or undefined when the code is not an emoji. */
export function unicodeEmojiName(code: string): string | undefined {
  return load().namesByCode.get(code)?.[0];
}

/** Whether `code` is a Unicode emoji code of the catalogue (spec §2.5 unicode_emoji). */
export function isUnicodeEmojiCode(code: string): boolean {
  return load().namesByCode.has(code);
}

/** Whether `name` is one of the names of the Unicode emoji `code` (status and reaction validation). */
export function unicodeEmojiMatches(name: string, code: string): boolean {
  return load().codeByName.get(name) === code;
}

/** The emoji_code of a run of Unicode characters (a typed emoji), as the catalogue writes codes. */
export function codeOfCharacters(characters: string): string {
  return [...characters]
    .map((c) => c.codePointAt(0)!.toString(16).padStart(4, '0'))
    .filter((hex) => hex !== 'fe0f')
    .join('-');
}

export function isServiceExtraEmoji(name: string): boolean {
  return name === SERVICE_EXTRA_EMOJI.emoji_name;
}

/**
 * The active custom emoji of that name (spec §2.5 realm_emoji): deactivated ones keep their rows for
 * old reactions but cannot be used by name any more.
 */
export function activeRealmEmoji(tables: Pick<RealmState, 'custom_emoji'>, name: string): CustomEmojiRow | undefined {
  for (const row of Object.values(tables.custom_emoji)) if (!row.deactivated && row.name === name) return row;
  return undefined;
}

/** A custom emoji by its code (its ID as a string, §2.5), deactivated ones included. */
export function realmEmojiByCode(tables: Pick<RealmState, 'custom_emoji'>, code: string): CustomEmojiRow | undefined {
  return /^[0-9]+$/.test(code) ? tables.custom_emoji[code] : undefined;
}

/**
 * An emoji name resolved the way the reference server resolves `:name:`: an active custom emoji first
 * (a realm may shadow a Unicode name), then the extra emoji, then Unicode.
 */
export function emojiByName(tables: Pick<RealmState, 'custom_emoji'>, name: string): Emoji | undefined {
  const custom = activeRealmEmoji(tables, name);
  if (custom) return { emoji_name: name, emoji_code: String(custom.id), reaction_type: 'realm_emoji' };
  if (isServiceExtraEmoji(name)) return SERVICE_EXTRA_EMOJI;
  const code = unicodeEmojiCode(name);
  return code === undefined ? undefined : { emoji_name: name, emoji_code: code, reaction_type: 'unicode_emoji' };
}
