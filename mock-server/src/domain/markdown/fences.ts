import type { StateBlock } from 'markdown-it';

/**
 * Quote and spoiler fences (reference §4.20 and §4.13, whose report message carries a spoiler):
 *
 * - ```` ```quote ```` / `~~~ quote` … → `<blockquote>\n…\n</blockquote>`, its content parsed as Markdown;
 * - `~~~ spoiler Header` … → `<div class="spoiler-block"><div class="spoiler-header">\n<p>Header</p>\n</div>`
 *   `<div class="spoiler-content" aria-hidden="true">\n…\n</div></div>` (an empty header leaves the
 *   header div empty).
 *
 * A markdown-it block rule before `fence`. The block ends at a bare fence of the same character at least
 * as long as the opener; fences opened inside it (code blocks, nested quotes and spoilers) are tracked
 * so that their closing lines do not end it. Unclosed, it runs to the end of its parent, like a code fence.
 */

const CONTAINER = /^(quote|spoiler)(?:\s+(.*))?$/i;

interface Fence {
  char: number;
  length: number;
  info: string;
}

/** A fence line at `line` (indented less than four columns), or null. */
function fenceAt(state: StateBlock, line: number): Fence | null {
  if (state.sCount[line]! - state.blkIndent >= 4) return null;
  const start = state.bMarks[line]! + state.tShift[line]!;
  const max = state.eMarks[line]!;
  const char = state.src.charCodeAt(start);
  if (char !== 0x7e /* ~ */ && char !== 0x60 /* ` */) return null;
  const end = state.skipChars(start, char);
  if (end - start < 3) return null;
  const info = state.src.slice(end, max).trim();
  if (char === 0x60 && info.includes('`')) return null;
  return { char, length: end - start, info };
}

/** The line that closes the container opened at `startLine` (endLine when it is never closed). */
function closingLine(state: StateBlock, opener: Fence, startLine: number, endLine: number): { line: number; closed: boolean } {
  // Fences open inside the container, innermost last; `container` ones parse Markdown, others are code.
  const open: (Fence & { container: boolean })[] = [];
  for (let line = startLine + 1; line < endLine; line++) {
    if (state.bMarks[line]! + state.tShift[line]! < state.eMarks[line]! && state.sCount[line]! < state.blkIndent) break;
    const fence = fenceAt(state, line);
    if (!fence) continue;
    const innermost = open[open.length - 1] ?? { ...opener, container: true };
    const closes = fence.info === '' && fence.char === innermost.char && fence.length >= innermost.length;
    if (closes) {
      if (open.length === 0) return { line, closed: true };
      open.pop();
    } else if (innermost.container) {
      open.push({ ...fence, container: CONTAINER.test(fence.info) });
    }
  }
  return { line: endLine, closed: false };
}

export function fencedContainerRule(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const opener = fenceAt(state, startLine);
  const kind = opener ? CONTAINER.exec(opener.info) : null;
  if (!opener || !kind) return false;
  if (silent) return true;

  const { line: close, closed } = closingLine(state, opener, startLine, endLine);
  const oldParent = state.parentType;
  const oldLineMax = state.lineMax;
  const markup = String.fromCharCode(opener.char).repeat(opener.length);
  state.parentType = 'blockquote' as typeof state.parentType;
  state.lineMax = close;

  if (kind[1]!.toLowerCase() === 'quote') {
    const open = state.push('blockquote_open', 'blockquote', 1);
    open.markup = markup;
    open.map = [startLine, close];
    state.md.block.tokenize(state, startLine + 1, close);
    state.push('blockquote_close', 'blockquote', -1).markup = markup;
  } else {
    state.push('spoiler_open', 'div', 1).map = [startLine, close];
    const header = (kind[2] ?? '').trim();
    if (header !== '') {
      state.push('paragraph_open', 'p', 1).map = [startLine, startLine + 1];
      const inline = state.push('inline', '', 0);
      inline.content = header;
      inline.map = [startLine, startLine + 1];
      inline.children = [];
      state.push('paragraph_close', 'p', -1);
    }
    state.push('spoiler_content_open', 'div', 0);
    state.md.block.tokenize(state, startLine + 1, close);
    state.push('spoiler_close', 'div', -1);
  }

  state.lineMax = oldLineMax;
  state.parentType = oldParent;
  state.line = close + (closed ? 1 : 0);
  return true;
}
