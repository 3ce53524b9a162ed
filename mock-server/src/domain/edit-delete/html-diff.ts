import { diffArrays } from 'diff';

/**
 * content_html_diff of GET /messages/{message_id}/history (reference get-message-history). The reference
 * compares two renderings word by word and marks the words the edit added and removed inside the new
 * rendering, with its web app's classes, the whole wrapped in one `<div>`:
 *
 *   `<p>content before edit</p>` → `<p>content after edit</p>` gives
 *   `<div><p>content <span class="highlight_text_inserted">after</span> <span class="highlight_text_deleted">before</span> edit</p></div>`
 *
 * How the marks are placed follows the reference's word-level HTML diff: words carry the tags around them
 * (opening tags before a word, closing tags after it); words are compared by their text only (the
 * sequence alignment is jsdiff's); equal words are written with the new rendering's tags; added words come
 * first, then removed ones, each run in one mark with its trailing space outside; tags an added run opens
 * or closes without the other half stay outside its mark (so the result keeps the new rendering's
 * structure), and a removed run keeps only the tags it opens and closes itself; a mark that would wrap a
 * block (a paragraph, a list, …) is pushed inside it. What is simplified: a removed run is written where
 * the removal happened instead of being moved past surrounding tags, and entities are kept as written.
 */

/** Elements with no closing tag: balanced on their own. */
const VOID = new Set(['area', 'br', 'col', 'embed', 'hr', 'input', 'link', 'meta', 'source', 'wbr']);
/** Elements a mark is pushed into rather than wrapped around (the reference's block-level list). */
const BLOCK = new Set([
  'address',
  'blockquote',
  'center',
  'dir',
  'div',
  'dl',
  'fieldset',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'isindex',
  'menu',
  'noframes',
  'noscript',
  'ol',
  'p',
  'pre',
  'table',
  'ul',
  'dd',
  'dt',
  'frameset',
  'li',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
]);

interface Word {
  /** What is compared: the word, or an image's whole tag (an image is a word of its own). */
  text: string;
  /** Whitespace after the word. */
  space: string;
  before: string[];
  after: string[];
}

const tagName = (tag: string): string => /^<\/?\s*([a-zA-Z0-9-]+)/.exec(tag)?.[1]?.toLowerCase() ?? '';
const isTag = (chunk: string): boolean => chunk.startsWith('<');
const isClosing = (tag: string): boolean => tag.startsWith('</');

/** The rendering as words with their tags (tags before the first word, or in a rendering without words, kept too). */
function words(html: string): Word[] {
  const out: Word[] = [];
  let pending: string[] = [];
  const push = (text: string, space: string) => {
    out.push({ text, space, before: pending, after: [] });
    pending = [];
  };
  for (const m of html.matchAll(/<[^>]*>|[^<]+/g)) {
    const chunk = m[0];
    if (isTag(chunk)) {
      if (tagName(chunk) === 'img') push(chunk, '');
      else if (isClosing(chunk) && out.length > 0 && pending.length === 0) out[out.length - 1]!.after.push(chunk);
      else pending.push(chunk);
      continue;
    }
    // Whitespace between tags only (the newline between two paragraphs) is not a word and is dropped.
    for (const w of chunk.matchAll(/(\S+)(\s*)/g)) push(w[1]!, w[2]!);
  }
  if (pending.length > 0) out.push({ text: '', space: '', before: pending, after: [] });
  return out;
}

const serialize = (list: readonly Word[]): string[] =>
  list.flatMap((w) => [...w.before, ...(w.text === '' ? [] : [w.text + w.space]), ...w.after]);

/** Splits chunks into the tags opened and not closed, the balanced middle, and the tags closed and not opened. */
function splitUnbalanced(chunks: readonly string[]): { start: string[]; balanced: string[]; end: string[] } {
  const start: string[] = [];
  const end: string[] = [];
  const balanced: (string | null)[] = [];
  let stack: { name: string; at: number; tag: string }[] = [];
  for (const chunk of chunks) {
    const name = isTag(chunk) ? tagName(chunk) : '';
    if (!isTag(chunk) || VOID.has(name)) balanced.push(chunk);
    else if (!isClosing(chunk)) {
      stack.push({ name, at: balanced.length, tag: chunk });
      balanced.push(null);
    } else if (stack.length > 0 && stack[stack.length - 1]!.name === name) {
      const open = stack.pop()!;
      balanced[open.at] = open.tag;
      balanced.push(chunk);
    } else {
      start.push(...stack.map((s) => s.tag));
      stack = [];
      end.push(chunk);
    }
  }
  start.push(...stack.map((s) => s.tag));
  return { start, balanced: balanced.filter((c): c is string => c !== null), end };
}

/** Top-level items of balanced chunks: an element (with everything inside it) or one text chunk. */
function topLevel(chunks: readonly string[]): string[][] {
  const items: string[][] = [];
  let depth = 0;
  for (const chunk of chunks) {
    if (depth === 0) items.push([]);
    items[items.length - 1]!.push(chunk);
    if (isTag(chunk) && !VOID.has(tagName(chunk))) depth += isClosing(chunk) ? -1 : 1;
  }
  return items;
}

const hasBlock = (item: readonly string[]): boolean => item.some((c) => isTag(c) && BLOCK.has(tagName(c)));

/** `<span class>` around balanced chunks, pushed inside block elements (the reference moves its marks so). */
function mark(chunks: readonly string[], cls: string): string {
  const items = topLevel(chunks);
  const open = `<span class="${cls}">`;
  if (!items.some(hasBlock)) return `${open}${chunks.join('')}</span>`;
  return items
    .map((item) => {
      if (!hasBlock(item)) return `${open}${item.join('')}</span>`;
      if (item.length < 2 || !BLOCK.has(tagName(item[0]!))) return mark(item, cls);
      return `${item[0]}${item.length > 2 ? mark(item.slice(1, -1), cls) : ''}${item[item.length - 1]}`;
    })
    .join('');
}

/** One run of added or removed words, its trailing space outside the mark. */
function markRun(chunks: string[], cls: string, keepUnbalanced: boolean, out: string[]): void {
  const { start, balanced, end } = splitUnbalanced(chunks);
  if (keepUnbalanced) out.push(...start);
  const last = balanced.length - 1;
  const trailing = last >= 0 && !isTag(balanced[last]!) ? /\s*$/.exec(balanced[last]!)![0] : '';
  if (trailing) balanced[last] = balanced[last]!.slice(0, -trailing.length);
  const hasWords = balanced.some((c) => !isTag(c) || tagName(c) === 'img');
  if (hasWords) {
    // As the reference does: the mark is set off by a space from what precedes it, whatever that is.
    const before = out[out.length - 1];
    if (before !== undefined && !before.endsWith(' ')) out[out.length - 1] = `${before} `;
    out.push(mark(balanced, cls), trailing || ' ');
  } else if (keepUnbalanced) out.push(...balanced);
  if (keepUnbalanced) out.push(...end);
}

export function htmlDiff(before: string, after: string): string {
  const out: string[] = [];
  const parts = diffArrays(words(before), words(after), { comparator: (a, b) => a.text === b.text });
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (!part.added && !part.removed) {
      out.push(...serialize(part.value));
      continue;
    }
    // A change is a removed run and an added run next to each other: added words are written first.
    const next = parts[i + 1];
    const pair = next && (next.added || next.removed) && next.added !== part.added ? next : undefined;
    if (pair) i++;
    const added = part.added ? part : pair;
    const removed = part.removed ? part : pair;
    if (added) markRun(serialize(added.value), 'highlight_text_inserted', true, out);
    if (removed) markRun(serialize(removed.value), 'highlight_text_deleted', false, out);
  }
  return `<div>${out.join('').trim()}</div>`;
}
