import type { StateCore, Token } from 'markdown-it';
import type { LinkifierRow } from '../../store/state.js';
import { textToken } from './emoji-syntax.js';
import type { RenderEnv } from './env.js';
import { AFTER, BEFORE, linkifierPrograms, MATCH } from './linkifier-patterns.js';
import { EngineAborted, type Re2Program } from './re2-engine.js';
import { expandTemplate } from './url-templates.js';

/**
 * Realm linkifiers at render time (spec §2.11, reference §4.18 and §4.20): patterns in Python regex
 * syntax with named groups `(?P<name>…)`, run by RE2 as on the reference server (compiled programs from
 * linkifier-patterns.ts, which validates them and owns the programs), and RFC 6570 URL templates
 * (url-templates.ts).
 *
 * Boundary rule (the reference server's): a match counts only where it starts at the beginning of the
 * text or right after whitespace, a no-break space or one of `'"(,:<`, and ends at the end of the text
 * or before a character that is neither a letter nor a digit (`\pL`, `\pN`; so `#12_` and `#12.` link
 * `#12`, `#12a` and `a#12` do not). The pattern is wrapped as
 * `(?P<before>^|\s|\x{a0}|['"(,:<])(?P<match>PATTERN)(?P<after>$|[^\pL\pN])`; after a match the search
 * resumes at the `after` character, so it can be the next match's `before` (`#1 #2` links both).
 *
 * Linkifiers apply in realm order (LinkifierRow.order, then ID); where matches overlap, the earlier
 * linkifier wins, then the earlier match. In messages they apply to text only: never inside code spans,
 * code blocks or existing links. The link is `<a href="URL" title="URL">matched text</a>`.
 */

interface Match {
  start: number;
  end: number;
  text: string;
  url: string;
}

/** The UTF-16 index of code point `cp` of `s` (re2-wasm reports code point indices). */
function unitIndex(s: string, cp: number): number {
  if (!/[\uD800-\uDFFF]/.test(s)) return cp;
  let units = 0;
  for (const ch of s) {
    if (cp-- === 0) break;
    units += ch.length;
  }
  return units;
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

interface Found {
  matchStart: number;
  matchEnd: number;
  bodyStart: number;
  body: string;
  groups: Record<string, string>;
}

/**
 * The first match in text[from, to) starting at `from` or later (UTF-16 positions of `text`). One
 * character of left context is passed along so that RE2's `^` (the start of the text) cannot match at
 * the start of a window.
 */
function search(re: Re2Program, text: string, from: number, to: number): Found | null {
  const context = from === 0 ? 0 : from - (from >= 2 && isLowSurrogate(text.charCodeAt(from - 1)) ? 2 : 1);
  const window = text.slice(context, to);
  // Start after the one code point of context.
  const m = re.exec(window, from === 0 ? 0 : 1);
  if (!m) return null;
  const groups = m.groups;
  const matchStart = context + unitIndex(window, m.index);
  const bodyStart = matchStart + (groups[BEFORE] ?? '').length;
  const body = groups[MATCH] ?? '';
  return { matchStart, matchEnd: bodyStart + body.length + (groups[AFTER] ?? '').length, bodyStart, body, groups };
}

/**
 * Texts up to EXACT_LIMIT units are searched whole, exactly as RE2 would. re2-wasm copies its input on
 * every search, so a long text with many matches would cost its length times the number of matches;
 * longer texts are searched in windows of WINDOW units instead, and a match is kept only if it ends at
 * least MARGIN units before its window's end (else the window doubles and the search repeats), so only
 * a pattern whose match depends on text more than MARGIN units past its own end could be found
 * differently.
 */
const EXACT_LIMIT = 2000;
const WINDOW = 64;
const MARGIN = 24;

/**
 * Matches of one linkifier in `text`, positions in UTF-16 units. If RE2's heap runs out mid-search the
 * engine is replaced (re2-engine.ts) and the search runs once more on a fresh program; a second failure
 * skips the linkifier for this text rather than failing the request.
 */
function matchesOf(linkifier: LinkifierRow, text: string): Match[] {
  if (!mayMatch(linkifier.pattern, text)) return [];
  for (let attempt = 0; attempt < 2; attempt++) {
    const re = linkifierPrograms.program(linkifier.pattern);
    if (!re) return [];
    try {
      return searchAll(re, linkifier, text);
    } catch (error) {
      if (!(error instanceof EngineAborted)) throw error;
    }
  }
  return [];
}

/** False when `text` lacks a character every match of the pattern contains: no search can match. */
export function mayMatch(pattern: string, text: string): boolean {
  for (const c of linkifierPrograms.required(pattern)) if (!text.includes(c)) return false;
  return true;
}

function searchAll(re: Re2Program, linkifier: LinkifierRow, text: string): Match[] {
  const out: Match[] = [];
  const urls = new Map<string, string>();
  let from = 0;
  while (from < text.length) {
    let size = text.length <= EXACT_LIMIT ? text.length : WINDOW;
    let found: Found | null;
    for (;;) {
      let to = Math.min(text.length, from + size);
      if (to < text.length && isLowSurrogate(text.charCodeAt(to))) to++;
      found = search(re, text, from, to);
      if (to === text.length || (found && found.matchEnd + MARGIN <= to)) break;
      size *= 2;
    }
    if (!found) break;
    if (found.body !== '') {
      const values: Record<string, string> = {};
      let key = '';
      for (const [name, value] of Object.entries(found.groups)) {
        if (name.startsWith('__tc_') || value === undefined) continue;
        values[name] = value;
        key += `${name}\u0000${value}\u0000`;
      }
      // A text repeats its references (`#12 … #12`): each distinct set of values is expanded once.
      let url = urls.get(key);
      if (url === undefined) urls.set(key, (url = expandTemplate(linkifier.url_template, values)));
      out.push({ start: found.bodyStart, end: found.bodyStart + found.body.length, text: found.body, url });
    }
    // Resume at the `after` character, so that it can be the next match's `before`.
    from = Math.max(found.bodyStart + found.body.length, found.matchStart + 1);
    if (isLowSurrogate(text.charCodeAt(from))) from++;
  }
  return out;
}

/**
 * Non-overlapping matches: `accepted` by priority (linkifier order, then position), `byStart` the same
 * matches by position. Each linkifier's matches come by position and do not overlap one another (the
 * search resumes after each match, matchesOf), so they are checked against the matches of the earlier linkifiers by walking both lists side by side and
 * merged into them once: linear per linkifier, however many matches.
 */
function applicable(linkifiers: LinkifierRow[], text: string): { accepted: Match[]; byStart: Match[] } {
  const accepted: Match[] = [];
  let byStart: Match[] = [];
  for (const linkifier of linkifiers) {
    const fresh: Match[] = [];
    let p = 0; // the first earlier match that ends after the current match starts
    for (const match of matchesOf(linkifier, text)) {
      while (p < byStart.length && byStart[p]!.end <= match.start) p++;
      if (p < byStart.length && byStart[p]!.start < match.end) continue;
      fresh.push(match);
      accepted.push(match);
    }
    if (fresh.length > 0) byStart = mergeByStart(byStart, fresh);
  }
  return { accepted, byStart };
}

function mergeByStart(a: Match[], b: Match[]): Match[] {
  const out: Match[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) out.push(j >= b.length || (i < a.length && a[i]!.start < b[j]!.start) ? a[i++]! : b[j++]!);
  return out;
}

const byOrder = (a: LinkifierRow, b: LinkifierRow) => a.order - b.order || a.id - b.id;

/** Spec §2.5 topic_links: the linkifier matches of a topic as `{text, url}`, linkifier order then position. */
export function topicLinks(topic: string, linkifiers: LinkifierRow[]): { text: string; url: string }[] {
  if (linkifiers.length === 0 || topic === '') return [];
  return applicable([...linkifiers].sort(byOrder), topic).accepted.map(({ text, url }) => ({ text, url }));
}

/**
 * Core rule: linkifier links in the text tokens of a message, outside links (code is never text). An
 * expanded URL that is not a valid link (links.ts: a scheme outside http, https, mailto, tel and sms,
 * e.g. a `javascript:x({id})` template) links nothing: its text stays text, as the reference server
 * refuses such URLs for every link; the match still keeps later linkifiers off that text.
 */
export function linkifierCore(state: StateCore): void {
  const linkifiers = (state.env as RenderEnv).linkifiers();
  if (linkifiers.length === 0) return;
  // Each RE2 search costs microseconds however short its text, and a message of many small text tokens
  // (`*a* *a* …`) repeats the same few texts: short texts are searched once per rendering.
  const MEMO_LIMIT = 256;
  const memo = new Map<string, Match[]>();
  const linksIn = (text: string): Match[] => {
    let matches = text.length <= MEMO_LIMIT ? memo.get(text) : undefined;
    if (!matches) {
      matches = applicable(linkifiers, text).byStart.filter((m) => state.md.validateLink(m.url));
      if (text.length <= MEMO_LIMIT) memo.set(text, matches);
    }
    return matches;
  };
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const out: Token[] = [];
    let linkDepth = 0;
    for (const token of block.children) {
      if (token.type === 'link_open') linkDepth++;
      if (token.type === 'link_close') linkDepth--;
      const matches = token.type === 'text' && linkDepth === 0 ? linksIn(token.content) : [];
      if (matches.length === 0) {
        out.push(token);
        continue;
      }
      let last = 0;
      for (const match of matches) {
        if (match.start > last) out.push(textToken(state, token.content.slice(last, match.start)));
        const open = new state.Token('link_open', 'a', 1);
        open.attrs = [
          ['href', match.url],
          ['title', match.url],
        ];
        out.push(open, textToken(state, match.text), new state.Token('link_close', 'a', -1));
        last = match.end;
      }
      if (last < token.content.length) out.push(textToken(state, token.content.slice(last)));
    }
    block.children = out;
  }
}
