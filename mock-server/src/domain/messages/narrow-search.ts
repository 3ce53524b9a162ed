import escapeHtml from 'escape-html';
import type { MessageRow } from '../../store/state.js';
import { searchTooManyWords, searchWordTooLong } from '../errors.js';

/**
 * The `search` operator of a narrow (reference "Search operators": keywords, case-insensitive, in the
 * message's content and its topic). The reference server uses PostgreSQL full-text search with English
 * stemming; the mock does not stem. What it does instead (our choice, written down here):
 * - the operand splits into words at white space; a `"quoted phrase"` stays one token;
 * - a word matches where a word of the text begins with it ("deploy" finds "deploying", which is
 *   roughly what stemming finds), case-insensitively (Unicode case folding of `toLowerCase`);
 *   punctuation around a word is dropped ("hello," is "hello");
 * - a phrase matches anywhere as a substring (the reference's ILIKE for quoted text);
 * - every token must match, each in the Markdown source of the content or in the topic;
 * - an operand with no word left after dropping punctuation matches every message.
 * The answer's `match_content` / `match_subject` (reference: highlighting of search results) wrap the
 * whole words that matched in `<span class="highlight">`, outside HTML tags.
 *
 * Bounded work per request: at most MAX_SEARCH_WORDS tokens across every search term of a narrow, each
 * at most MAX_SEARCH_WORD_LENGTH characters (a 400 otherwise, before any message is read). Tokens are
 * matched by a lower-cased substring scan with a word-start check, never compiled into a pattern, so no
 * input can make the regular-expression engine refuse (a 500) or backtrack; a check costs the text's
 * length times the tokens.
 */
export interface SearchQuery {
  test(message: MessageRow): boolean;
  highlight(message: MessageRow): { match_content: string; match_subject: string };
}

export const MAX_SEARCH_WORDS = 32;
export const MAX_SEARCH_WORD_LENGTH = 256;

interface Token {
  /** Lower-cased (see fold). */
  text: string;
  /** A word must start a word of the text and highlights to that word's end; a phrase matches anywhere. */
  word: boolean;
}

const TOKEN = /"[^"]+"|\S+/g;
const WORD_CHAR = /[\p{L}\p{N}_]/u;
const EDGE_PUNCTUATION = /^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu;

/**
 * The tokens of the joined search operands, refusing too many or too long ones as soon as one is seen
 * (a 50,000-word operand is refused after MAX_SEARCH_WORDS + 1 of them).
 */
export function searchTokens(operand: string): string[] {
  const tokens: string[] = [];
  for (const match of operand.matchAll(TOKEN)) {
    const token = match[0];
    if (token.length > MAX_SEARCH_WORD_LENGTH) throw searchWordTooLong(MAX_SEARCH_WORD_LENGTH);
    if (tokens.length === MAX_SEARCH_WORDS) throw searchTooManyWords(MAX_SEARCH_WORDS);
    tokens.push(token);
  }
  return tokens;
}

export function searchQuery(operand: string): SearchQuery {
  const tokens: Token[] = [];
  for (const token of searchTokens(operand)) {
    if (token.length > 2 && token.startsWith('"') && token.endsWith('"')) {
      tokens.push({ text: fold(token.slice(1, -1)), word: false });
      continue;
    }
    const word = token.replace(EDGE_PUNCTUATION, '');
    if (word !== '') tokens.push({ text: fold(word), word: true });
  }
  const matchesIn = (text: string) => {
    const folded = fold(text);
    return (token: Token) => (token.word ? nextWordStart(folded, token.text, 0) >= 0 : folded.includes(token.text));
  };
  const mark = (html: string) => (tokens.length > 0 ? highlightHtml(html, tokens) : html);
  return {
    test: (m) => {
      const inContent = matchesIn(m.content);
      const inSubject = matchesIn(m.subject);
      return tokens.every((t) => inContent(t) || inSubject(t));
    },
    highlight: (m) => ({ match_content: mark(m.rendered_content), match_subject: mark(escapeHtml(m.subject)) }),
  };
}

/**
 * Lower case with every index kept: a character whose lower case has another length (`İ`) stays as it
 * is, so a match's position in the folded text is its position in the original.
 */
function fold(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let out = '';
  for (const ch of text) {
    const l = ch.toLowerCase();
    out += l.length === ch.length ? l : ch;
  }
  return out;
}

/** Where `word` next occurs from `from` on at the start of a word of `text` (no word character before it), or -1. */
function nextWordStart(text: string, word: string, from: number): number {
  for (let at = text.indexOf(word, from); at >= 0; at = text.indexOf(word, at + 1)) {
    if (!isWordChar(codePointBefore(text, at))) return at;
  }
  return -1;
}

function codePointBefore(text: string, at: number): string {
  if (at === 0) return '';
  const low = text.charCodeAt(at - 1);
  return low >= 0xdc00 && low <= 0xdfff && at >= 2 ? text.slice(at - 2, at) : text.charAt(at - 1);
}

const isWordChar = (ch: string) => ch !== '' && WORD_CHAR.test(ch);

/** Wraps every match in the text between tags; tags themselves are left alone. */
function highlightHtml(html: string, tokens: Token[]): string {
  return html
    .split(/(<[^>]*>)/)
    .map((part) => (part.startsWith('<') ? part : highlightText(part, tokens)))
    .join('');
}

/**
 * Leftmost matches first; at one position the first token in the operand's order wins; matches never
 * overlap (what one global alternation of the tokens would find). A word's highlight runs to the end of
 * the text's word ("deploy" marks all of "deploying").
 */
function highlightText(text: string, tokens: Token[]): string {
  const folded = fold(text);
  const spans: { start: number; end: number; order: number }[] = [];
  tokens.forEach((token, order) => {
    if (!token.word) {
      for (let at = folded.indexOf(token.text); at >= 0; at = folded.indexOf(token.text, at + 1)) {
        spans.push({ start: at, end: at + token.text.length, order });
      }
      return;
    }
    for (let at = nextWordStart(folded, token.text, 0); at >= 0; at = nextWordStart(folded, token.text, at + 1)) {
      spans.push({ start: at, end: wordEnd(folded, at + token.text.length), order });
    }
  });
  if (spans.length === 0) return text;
  spans.sort((a, b) => a.start - b.start || a.order - b.order);
  let out = '';
  let done = 0;
  for (const span of spans) {
    if (span.start < done) continue;
    out += `${text.slice(done, span.start)}<span class="highlight">${text.slice(span.start, span.end)}</span>`;
    done = span.end;
  }
  return out + text.slice(done);
}

function wordEnd(text: string, from: number): number {
  let at = from;
  while (at < text.length) {
    const cp = text.codePointAt(at)!;
    const ch = String.fromCodePoint(cp);
    if (!WORD_CHAR.test(ch)) break;
    at += ch.length;
  }
  return at;
}
