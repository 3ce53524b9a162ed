import type { MessageRow, ReactionRow, RealmState, UserRow } from '../../store/state.js';
import type { ParamsOf } from '../../contract/operation-types.js';
import type { EventOf } from '../../contract/event-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { emojiByName, isUnicodeEmojiCode, realmEmojiByCode, SERVICE_EXTRA_EMOJI, unicodeEmojiMatches, type Emoji } from '../emoji.js';
import {
  customEmojiDeactivated,
  invalidCustomEmoji,
  invalidCustomEmojiName,
  invalidEmojiCode,
  invalidEmojiName,
  invalidEmojiType,
  invalidMessage,
  reactionEmojiUnnamed,
  reactionExists,
  reactionMissing,
  unknownEmoji,
} from '../errors.js';
import { mayModifyMessageInChannel } from '../permissions.js';
import { messageAudience } from '../messages/visibility.js';
import { copyOf, writeFlags, type Copy } from './receipts.js';

/**
 * Emoji reactions (companion tier; reference add-reaction / remove-reaction). A reaction is a row of the
 * message's `reactions` list (spec §2.5: emoji_name, emoji_code, reaction_type, user_id; codes in the
 * namespaces of R2.5-16), so every presenter of a message shows it without further work. A user has at most
 * one reaction per emoji, the emoji being its (reaction_type, emoji_code): the name is only a label.
 */

const sameEmoji = (r: ReactionRow, code: string, type: string) => r.emoji_code === code && r.reaction_type === type;

/**
 * POST /messages/{message_id}/reactions, in the reference's order: the message must be visible; a missing
 * code or type is looked up from the name (`Emoji '…' does not exist`); the caller's own reaction with
 * that emoji is `Reaction already exists.`; then, when someone else already reacted with that emoji, the
 * new reaction is a vote for it and takes its name unchecked (a custom emoji deactivated since can still
 * be voted for), else name, code and type must agree (reactionEmoji below). The duplicate's code depends on
 * the level (errors.ts reactionExists).
 */
export function doAddReaction(tx: Tx, actor: ActorContext, params: ParamsOf<'add-reaction'>): void {
  const user = actor.user;
  const copy = reactable(tx, user, params.message_id);
  const message = copy.message;
  let code = params.emoji_code;
  let type = params.reaction_type;
  if (code === undefined || type === undefined) {
    const known = emojiByName(tx.tables, params.emoji_name);
    if (!known) throw unknownEmoji(params.emoji_name);
    code ??= known.emoji_code;
    type ??= known.reaction_type;
  }
  if (message.reactions.some((r) => r.user_id === user.user_id && sameEmoji(r, code, type))) throw reactionExists(actor.features);
  const existing = message.reactions.find((r) => sameEmoji(r, code, type));
  const emoji = existing
    ? { emoji_name: existing.emoji_name, emoji_code: existing.emoji_code, reaction_type: existing.reaction_type }
    : reactionEmoji(tx.tables, params.emoji_name, code, type);
  const reaction: ReactionRow = { ...emoji, user_id: user.user_id };
  if (copy.created) writeFlags(tx, user.user_id, message.id, [...copy.flags]);
  tx.put('messages', message.id, { ...message, reactions: [...message.reactions, reaction] });
  emitReaction(tx, 'add', user, message, reaction);
}

/**
 * DELETE /messages/{message_id}/reactions: the caller's own reaction, named by code or, without one, by the
 * emoji's name looked up as adding does. Choice where the reference documentation is unclear: reaction_type
 * defaults to `unicode_emoji` only when a code is sent; a code looked up from a name comes with its own type,
 * so a custom emoji's reaction can be removed by its name alone.
 */
export function doRemoveReaction(tx: Tx, actor: ActorContext, params: ParamsOf<'remove-reaction'>): void {
  const user = actor.user;
  const { message } = reactable(tx, user, params.message_id);
  let code = params.emoji_code;
  let type = params.reaction_type;
  if (code === undefined) {
    if (params.emoji_name === undefined) throw reactionEmojiUnnamed();
    const known = emojiByName(tx.tables, params.emoji_name);
    if (!known) throw unknownEmoji(params.emoji_name);
    code = known.emoji_code;
    type ??= known.reaction_type;
  }
  type ??= 'unicode_emoji';
  const mine = message.reactions.find((r) => r.user_id === user.user_id && sameEmoji(r, code, type));
  if (!mine) throw reactionMissing(actor.features);
  tx.put('messages', message.id, { ...message, reactions: message.reactions.filter((r) => r !== mine) });
  emitReaction(tx, 'remove', user, message, mine);
}

/**
 * A new reaction's name, code and type must describe one emoji (reference add-reaction, its emoji check),
 * each namespace checked in the reference's order with its texts: a Unicode code that is no emoji is
 * `Invalid emoji code.` before a name that is not one of the code's names (`Invalid emoji name.`); the extra
 * emoji likewise; a custom emoji by ID: unknown, then another name, then deactivated. Statuses keep the
 * spec's three texts (users/status-emoji.ts).
 */
function reactionEmoji(tables: Pick<RealmState, 'custom_emoji'>, name: string, code: string, type: string): Emoji {
  switch (type) {
    case 'unicode_emoji':
      if (!isUnicodeEmojiCode(code)) throw invalidEmojiCode();
      if (!unicodeEmojiMatches(name, code)) throw invalidEmojiName();
      return { emoji_name: name, emoji_code: code, reaction_type: 'unicode_emoji' };
    case 'realm_emoji': {
      const custom = realmEmojiByCode(tables, code);
      if (!custom) throw invalidCustomEmoji();
      if (custom.name !== name) throw invalidCustomEmojiName();
      if (custom.deactivated) throw customEmojiDeactivated();
      return { emoji_name: name, emoji_code: code, reaction_type: 'realm_emoji' };
    }
    case 'service_extra_emoji':
      if (code !== SERVICE_EXTRA_EMOJI.emoji_code) throw invalidEmojiCode();
      if (name !== code) throw invalidEmojiName();
      return SERVICE_EXTRA_EMOJI;
    default:
      throw invalidEmojiType();
  }
}

/** The caller's copy of a message that may take reactions: visible, and not in an archived channel. */
function reactable(tx: Tx, user: UserRow, messageId: number): Copy {
  const copy = copyOf(tx.tables, user, messageId);
  const channel = copy.message.stream_id === null ? undefined : tx.tables.channels[String(copy.message.stream_id)];
  if (!mayModifyMessageInChannel(channel)) throw invalidMessage();
  return copy;
}

/** The reference's `reaction` event, with the deprecated `user` object older clients read. */
function emitReaction(tx: Tx, op: 'add' | 'remove', user: UserRow, message: MessageRow, reaction: ReactionRow): void {
  const event: EventOf<'reaction'> = {
    type: 'reaction',
    op,
    message_id: message.id,
    user_id: user.user_id,
    user: { user_id: user.user_id, email: user.email, full_name: user.full_name },
    emoji_name: reaction.emoji_name,
    emoji_code: reaction.emoji_code,
    reaction_type: reaction.reaction_type,
  };
  tx.emit(
    event,
    [...messageAudience(tx.tables, message)].sort((a, b) => a - b),
  );
}
