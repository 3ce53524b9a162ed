/**
 * The reference server's escaping (reference §4.20): text escapes only `&`, `<` and `>` (quotes stay as
 * typed: `<p>it's lunch time</p>`, inline code too); attribute values escape `"` as well; code blocks
 * are escaped the way its highlighter escapes them, quotes included (`&quot;`, `&#39;`).
 */

export function escapeText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

export function escapeAttribute(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

const CODE_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeCode(s: string): string {
  return s.replace(/[&<>"']/g, (c) => CODE_ENTITIES[c]!);
}

/** Lone surrogates replaced by U+FFFD, so that encodeURIComponent cannot throw on user text. */
export function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
