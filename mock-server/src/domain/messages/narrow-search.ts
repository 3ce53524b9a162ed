import escapeHtml from 'escape-html';
import type { MessageRow } from '../../store/state.js';

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
 */
export interface SearchQuery {
  test(message: MessageRow): boolean;
  highlight(message: MessageRow): { match_content: string; match_subject: string };
}

const WORD_CHAR = String.raw`[\p{L}\p{N}_]`;

export function searchQuery(operand: string): SearchQuery {
  const tests: RegExp[] = [];
  const marks: string[] = [];
  for (const token of operand.match(/"[^"]+"|\S+/g) ?? []) {
    if (token.length > 2 && token.startsWith('"') && token.endsWith('"')) {
      const phrase = escapeRegExp(token.slice(1, -1));
      tests.push(new RegExp(phrase, 'iu'));
      marks.push(phrase);
      continue;
    }
    const word = token.replace(/^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu, '');
    if (word === '') continue;
    const start = `(?<!${WORD_CHAR})${escapeRegExp(word)}`;
    tests.push(new RegExp(start, 'iu'));
    marks.push(`${start}${WORD_CHAR}*`);
  }
  const marker = marks.length > 0 ? new RegExp(marks.join('|'), 'giu') : null;
  return {
    test: (m) => tests.every((re) => re.test(m.content) || re.test(m.subject)),
    highlight: (m) => ({
      match_content: marker ? highlightHtml(m.rendered_content, marker) : m.rendered_content,
      match_subject: marker ? highlightHtml(escapeHtml(m.subject), marker) : escapeHtml(m.subject),
    }),
  };
}

/** Wraps every match in the text between tags; tags themselves are left alone. */
function highlightHtml(html: string, marker: RegExp): string {
  return html
    .split(/(<[^>]*>)/)
    .map((part) => (part.startsWith('<') ? part : part.replace(marker, (hit) => `<span class="highlight">${hit}</span>`)))
    .join('');
}

/** The syntax characters of a `u`-flag pattern (RegExp.escape arrives only with Node 24). */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
