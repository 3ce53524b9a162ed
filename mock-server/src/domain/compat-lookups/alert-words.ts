import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import type { RealmState } from '../../store/state.js';
import { tooManyAlertWords } from '../errors.js';

/**
 * Alert words (reference: GET/POST/DELETE /users/me/alert_words): words or phrases a user wants to be
 * alerted about. Each user has their own list; every role, bots included, manages only its own, so
 * there is no permission rule. Stored as one row per user, in the order the words were added (the order
 * the reference server lists them in); a user without words has no row.
 */

/**
 * Alert words one user may hold (the reference has no cap): every message sent to them is searched for
 * each one, so the list bounds what one user can make every send cost.
 */
export const MAX_ALERT_WORDS = 1000;

/** A user's alert words, in the order they were added. */
export function alertWordsOf(tables: Pick<RealmState, 'alert_words'>, userId: number): string[] {
  return [...(tables.alert_words[String(userId)]?.words ?? [])];
}

/**
 * What the reference server keeps of the words sent: each trimmed, empty ones dropped. (The 100-character
 * limit is the parameter's, checked by the pipeline before this: on the text as sent.)
 */
function cleaned(words: readonly string[]): string[] {
  return words.map((w) => w.trim()).filter((w) => w !== '');
}

/** Alert words match in any letter case, so they are compared (and deduplicated) lower-cased. */
const fold = (word: string) => word.toLowerCase();

/**
 * Adds words not already present in any letter case. Within one request a repeated word keeps its first
 * spelling (the reference keeps one of them without saying which; we chose the first). Returns the list.
 */
export function doAddAlertWords(tx: Tx, actor: ActorContext, params: ParamsOf<'add-alert-words'>): string[] {
  const userId = actor.user.user_id;
  const words = params.alert_words;
  const current = alertWordsOf(tx.tables, userId);
  const seen = new Set(current.map(fold));
  for (const word of cleaned(words)) {
    if (seen.has(fold(word))) continue;
    seen.add(fold(word));
    current.push(word);
    if (current.length > MAX_ALERT_WORDS) throw tooManyAlertWords(MAX_ALERT_WORDS);
  }
  return store(tx, userId, current);
}

/** Removes the words given, in any letter case; words not in the list are ignored. Returns the list. */
export function doRemoveAlertWords(tx: Tx, actor: ActorContext, params: ParamsOf<'remove-alert-words'>): string[] {
  const userId = actor.user.user_id;
  const gone = new Set(cleaned(params.alert_words).map(fold));
  return store(
    tx,
    userId,
    alertWordsOf(tx.tables, userId).filter((w) => !gone.has(fold(w))),
  );
}

/**
 * Writes the list and tells the user's clients: an `alert_words` event with the whole list to every queue
 * of the user (the calling client's included) and to nobody else, sent on every call as the reference
 * server does, changed or not.
 */
function store(tx: Tx, userId: number, words: string[]): string[] {
  if (words.length === 0) {
    if (tx.tables.alert_words[String(userId)]) tx.delete('alert_words', userId);
  } else tx.put('alert_words', userId, { user_id: userId, words });
  tx.emit({ type: 'alert_words', alert_words: [...words] }, [userId]);
  return words;
}

/**
 * Characters that may stand right before and right after an alert word for it to count as said (the
 * reference server's lists): a word inside a longer word does not alert, one quoted, bracketed or
 * followed by punctuation does.
 */
const BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
const AFTER = new Set([' ', '\n', ')', '"', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

/** Whether `content` (Markdown as sent) says one of `words`, in any letter case, as a whole word. */
export function saysAlertWord(content: string, words: readonly string[]): boolean {
  const text = content.toLowerCase();
  for (const word of words) {
    const w = word.toLowerCase();
    for (let at = text.indexOf(w); at !== -1; at = text.indexOf(w, at + 1)) {
      const before = at === 0 ? undefined : text[at - 1];
      const after = at + w.length === text.length ? undefined : text[at + w.length];
      if ((before === undefined || BEFORE.has(before)) && (after === undefined || AFTER.has(after))) return true;
    }
  }
  return false;
}

/**
 * The `has_alert_word` flag of a new message for one receiver (reference: set when the message says one
 * of the receiver's alert words; never on the sender's own copy, whose words are their own).
 */
export function alertWordFlag(tables: Pick<RealmState, 'alert_words'>, receiverId: number, senderId: number, content: string): string[] {
  if (receiverId === senderId) return [];
  const words = tables.alert_words[String(receiverId)]?.words;
  return words !== undefined && saysAlertWord(content, words) ? ['has_alert_word'] : [];
}
