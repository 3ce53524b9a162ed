import type { MessageRow, RealmState } from '../../store/state.js';
import { alertWordFlag } from '../compat-lookups/alert-words.js';
import { mentionFlags, type MentionData } from './mentions.js';

/**
 * The flags a message's content decides for each receiver (reference update_user_message_flags): the
 * mention flags of spec §2.5 and the receiver's alert words. Set when a message is sent, recomputed when
 * its content is edited; every other flag (read, starred, …) is the receiver's own.
 */
export const CONTENT_FLAGS: ReadonlySet<string> = new Set([
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'wildcard_mentioned',
  'has_alert_word',
]);

export function contentFlags(
  tables: Pick<RealmState, 'users' | 'user_groups' | 'messages' | 'user_messages' | 'subscriptions' | 'alert_words'>,
  message: MessageRow,
  mentions: MentionData,
): (userId: number) => string[] {
  const mentionsOf = mentionFlags(tables, message, mentions);
  return (userId) => [...mentionsOf(userId), ...alertWordFlag(tables, userId, message.sender_id, message.content)];
}
