import type { RealmState } from '../../store/state.js';
import { emojiByName, realmEmojiByCode, SERVICE_EXTRA_EMOJI, unicodeEmojiMatches, type Emoji } from '../emoji.js';
import { badRequest } from '../errors.js';

/** The emoji parameters of §4.4 and §4.5, as sent (raw strings, reference §1 "Value parsing"). */
export interface StatusEmojiParams {
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

/** emoji_name `""`: the status loses its emoji (reference §4.5 check 2). */
export const NO_EMOJI: Emoji = { emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' };

/**
 * The emoji a status update sets, or undefined when it leaves the emoji alone (spec §4.5 rules 3 and 4,
 * reference §4.5 checks 2 to 5, in that order; check 1, "no new values", runs before this):
 * - emoji_name `""` clears the emoji, whatever code or type came with it (the reference ignores them);
 * - a name sent without its code or type is completed from the emoji data (an active custom emoji
 *   first, then the service's extra emoji, then Unicode: emoji.ts emojiByName); a name the data does
 *   not know is `Emoji '{name}' does not exist`, even when a code was sent with it;
 * - a code or type without a name is refused;
 * - then name, code and type must describe one emoji of the type's namespace.
 */
export function resolveStatusEmoji(tables: Pick<RealmState, 'custom_emoji'>, p: StatusEmojiParams): Emoji | undefined {
  const name = p.emoji_name;
  if (name === undefined) {
    if (p.emoji_code !== undefined || p.reaction_type !== undefined)
      throw badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
    return undefined;
  }
  if (name === '') return NO_EMOJI;
  let code = p.emoji_code;
  let type = p.reaction_type;
  if (code === undefined || type === undefined) {
    const known = emojiByName(tables, name);
    if (!known) throw badRequest(`Emoji '${name}' does not exist`);
    code ??= known.emoji_code;
    type ??= known.reaction_type;
  }
  return checkEmoji(tables, name, code, type);
}

/**
 * Name, code and type agree (spec §4.5 rule 4 "the emoji name … is invalid, or a custom emoji is
 * invalid"; texts from reference §4.5 check 5). The codes of the three namespaces (spec §2.5):
 * - unicode_emoji: dash-joined hex code points; the name must be one of that code's names, and a code
 *   that is no emoji at all is a mismatch as well;
 * - realm_emoji: the custom emoji's ID. An unknown ID is `Invalid custom emoji.`; a known one under
 *   another name is a name/code mismatch. A deactivated custom emoji cannot be chosen for a new status
 *   (existing statuses keep it). The reference doc gives no text for that case and the spec counts it
 *   as "a custom emoji is invalid", hence `Invalid custom emoji.`;
 * - service_extra_emoji: the code is the name, and the one extra emoji is `teamchat` (emoji.ts);
 * - any other type: `Invalid emoji type.`.
 * The reference server has two more texts here (a bad Unicode code, a deactivated custom emoji) that
 * its documentation does not list; the mock keeps to the three documented ones.
 */
export function checkEmoji(tables: Pick<RealmState, 'custom_emoji'>, name: string, code: string, type: string): Emoji {
  switch (type) {
    case 'unicode_emoji':
      if (!unicodeEmojiMatches(name, code)) throw badRequest('Invalid emoji name.');
      return { emoji_name: name, emoji_code: code, reaction_type: 'unicode_emoji' };
    case 'realm_emoji': {
      const custom = realmEmojiByCode(tables, code);
      if (!custom) throw badRequest('Invalid custom emoji.');
      if (custom.name !== name) throw badRequest('Invalid emoji name.');
      if (custom.deactivated) throw badRequest('Invalid custom emoji.');
      return { emoji_name: name, emoji_code: code, reaction_type: 'realm_emoji' };
    }
    case 'service_extra_emoji':
      if (code !== SERVICE_EXTRA_EMOJI.emoji_code || name !== SERVICE_EXTRA_EMOJI.emoji_name) throw badRequest('Invalid emoji name.');
      return SERVICE_EXTRA_EMOJI;
    default:
      throw badRequest('Invalid emoji type.');
  }
}
