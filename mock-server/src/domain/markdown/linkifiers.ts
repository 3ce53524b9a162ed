import { createRequire } from 'node:module';
import type { StateCore, Token } from 'markdown-it';
import type { RE2 as RE2Instance } from 're2-wasm';
import type { LinkifierRow } from '../../store/state.js';
import { textToken } from './emoji-syntax.js';
import type { RenderEnv } from './env.js';
import { expandTemplate, templateVariables } from './url-templates.js';

/**
 * Realm linkifiers (spec §2.11, reference §4.18 and §4.20): patterns in Python regex syntax with named
 * groups `(?P<name>…)`, run by RE2 as on the reference server (`re2-wasm`, loaded on first use), and
 * RFC 6570 URL templates (url-templates.ts).
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

type RE2Class = new (pattern: string, flags?: string) => RE2Instance;
let RE2: RE2Class | null = null;

function re2(): RE2Class {
  RE2 ??= (createRequire(import.meta.url)('re2-wasm') as { RE2: RE2Class }).RE2;
  return RE2;
}

/**
 * Longest pattern compiled. The reference server sets no limit, but RE2's WebAssembly build has a fixed
 * heap and aborts (printing to stderr) on very large programs instead of returning RE2's own error, so
 * longer patterns get that error without being compiled. No real linkifier comes near this length.
 */
export const MAX_PATTERN_LENGTH = 10_000;
const TOO_LARGE = 'pattern too large - compile failed';

/** RE2's error text for a pattern (`missing ): (foo`), or null when it compiles. */
function compileError(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return TOO_LARGE;
  try {
    new (re2())(pattern, 'u');
    return null;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (message.includes('(OOM)')) return TOO_LARGE;
    const at = message.lastIndexOf('/u: ');
    return at === -1 ? message : message.slice(at + 4);
  }
}

/** Named groups of a pattern, `(?P<name>…)` or `(?<name>…)`, skipping escapes and character classes. */
export function patternGroups(pattern: string): string[] {
  const names: string[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
    } else if (c === '(') {
      const m = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(pattern.slice(i, i + 200));
      if (m) names.push(m[1]!);
    }
  }
  return names;
}

export interface LinkifierError {
  /** The field at fault; `__all__` (Django's key for errors of the whole object) for group mismatches. */
  field: 'pattern' | 'url_template' | '__all__';
  message: string;
}

/**
 * Validation of a new or edited linkifier (reference §4.18), in the reference server's order: the
 * pattern (blank, then RE2's verdict), the template (blank, then RFC 6570), then the groups: a template
 * variable missing from the pattern first, then a pattern group missing from the template, each naming
 * the alphabetically first such group. (The reference reports the group errors for the whole object,
 * not a field; they are attributed here to the field that names the missing group's absence.)
 */
export function checkLinkifier(pattern: string, urlTemplate: string): LinkifierError | null {
  if (pattern === '') return { field: 'pattern', message: 'This field cannot be blank.' };
  // The pattern alone, then as the renderer runs it (wrapped in the boundary groups), so a linkifier that
  // is accepted always applies: a pattern reusing the wrapper's group names, or too large for RE2's
  // memory once wrapped, is refused here rather than skipped silently at every render.
  const error = compileError(pattern) ?? compileError(wrappedSource(pattern));
  if (error !== null) return { field: 'pattern', message: `Bad regular expression: ${error}` };
  if (urlTemplate === '') return { field: 'url_template', message: 'This field cannot be blank.' };
  const variables = templateVariables(urlTemplate);
  if (variables === null) return { field: 'url_template', message: 'Invalid URL template.' };
  const groups = patternGroups(pattern);
  const [notInPattern] = variables.filter((v) => !groups.includes(v)).sort();
  if (notInPattern !== undefined) return { field: '__all__', message: `Group '${notInPattern}' in URL template is not present in linkifier pattern.` };
  const [notInTemplate] = groups.filter((g) => !variables.includes(g)).sort();
  if (notInTemplate !== undefined) return { field: '__all__', message: `Group '${notInTemplate}' in linkifier pattern is not present in URL template.` };
  return null;
}

const BEFORE = '__tc_before';
const MATCH = '__tc_match';
const AFTER = '__tc_after';

function wrappedSource(pattern: string): string {
  return `(?P<${BEFORE}>^|\\s|\\x{a0}|['"(,:<])(?P<${MATCH}>${pattern})(?P<${AFTER}>$|[^\\pL\\pN])`;
}

/** Compiled wrapped patterns by source; null for a pattern RE2 refuses (such a linkifier is skipped). */
const compiled = new Map<string, RE2Instance | null>();

function wrapped(pattern: string): RE2Instance | null {
  let re = compiled.get(pattern);
  if (re === undefined) {
    if (compiled.size > 1000) compiled.clear();
    try {
      re = new (re2())(wrappedSource(pattern), 'gu');
    } catch {
      re = null;
    }
    compiled.set(pattern, re);
  }
  return re;
}

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
function search(re: RE2Instance, text: string, from: number, to: number): Found | null {
  const context = from === 0 ? 0 : from - (from >= 2 && isLowSurrogate(text.charCodeAt(from - 1)) ? 2 : 1);
  const window = text.slice(context, to);
  re.lastIndex = from === 0 ? 0 : 1;
  const m = re.exec(window);
  if (!m) return null;
  const groups = m.groups ?? {};
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

/** Matches of one linkifier in `text`, positions in UTF-16 units. */
function matchesOf(linkifier: LinkifierRow, text: string): Match[] {
  const re = wrapped(linkifier.pattern);
  if (!re) return [];
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
