import type { Delimiter, StateInline } from 'markdown-it';

/**
 * Emphasis as the reference server writes it (reference §4.20), on top of markdown-it's CommonMark:
 *
 * - `_x_` and `__x__` are not emphasis (the reference server only knows `*`): underscores are text.
 * - `**bold**` and `*em*` never span a line break: a pair with a newline between stays literal
 *   (`**a\nb**` → `**a<br>\nb**`).
 * - `~~x~~` is `<del>` whenever the two pairs enclose text without `~` or a newline, spaces included
 *   (`~~ x ~~` too), which CommonMark's flanking rules would refuse.
 * - `***x***` nests as `<strong><em>x</em></strong>`.
 */

/** Inline rule before `emphasis`: a run of `_` is plain text. */
export function underscoreRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x5f /* _ */) return false;
  let end = state.pos;
  while (end < state.posMax && state.src.charCodeAt(end) === 0x5f) end++;
  if (!silent) state.pending += state.src.slice(state.pos, end);
  state.pos = end;
  return true;
}

const DEL = /~~([^~\n]+)~~(?!~)/y;

/** Inline rule replacing markdown-it's `strikethrough`. */
export function delRule(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x7e /* ~ */ || state.src.charCodeAt(start - 1) === 0x7e) return false;
  DEL.lastIndex = start;
  const m = DEL.exec(state.src);
  if (!m || start + m[0].length > state.posMax) return false;
  if (!silent) {
    const max = state.posMax;
    state.push('s_open', 's', 1).markup = '~~';
    state.pos = start + 2;
    state.posMax = start + 2 + m[1]!.length;
    state.md.inline.tokenize(state);
    state.push('s_close', 's', -1).markup = '~~';
    state.posMax = max;
  }
  state.pos = start + m[0].length;
  return true;
}

/**
 * ruler2, after `balance_pairs`: unpair `*` delimiters with a line break between them. Whether a pair
 * encloses a break is read from prefix counts of the breaks, so the pass stays linear however many
 * pairs nest (`***a ***a … a*** a***`).
 */
export function noEmphasisAcrossLines(state: StateInline): boolean {
  const breaksBefore = new Uint32Array(state.tokens.length + 1);
  for (let t = 0; t < state.tokens.length; t++) {
    const type = state.tokens[t]!.type;
    breaksBefore[t + 1] = breaksBefore[t]! + (type === 'softbreak' || type === 'hardbreak' ? 1 : 0);
  }
  const unpair = (delimiters: Delimiter[]) => {
    for (const opener of delimiters) {
      if (opener.marker !== 0x2a || opener.end < 0) continue;
      const closer = delimiters[opener.end]!;
      if (breaksBefore[closer.token]! > breaksBefore[opener.token + 1]!) opener.end = -1;
    }
  };
  unpair(state.delimiters);
  for (const meta of state.tokens_meta) if (meta?.delimiters) unpair(meta.delimiters);
  return false;
}

/**
 * ruler2, after `emphasis`: `<em><strong>x</strong></em>` → `<strong><em>x</em></strong>`. The
 * emphasis tokens nest properly, so each `strong_open` is paired with its `strong_close` by a stack in
 * one pass; a swap moves one strong pair outwards, and its entry moves with it.
 */
export function strongOutsideEm(state: StateInline): boolean {
  const t = state.tokens;
  const closeOf = new Int32Array(t.length).fill(-1);
  const open: number[] = [];
  for (let i = 0; i < t.length; i++) {
    if (t[i]!.type === 'strong_open') open.push(i);
    else if (t[i]!.type === 'strong_close' && open.length > 0) closeOf[open.pop()!] = i;
  }
  // The emphasis rule leaves empty text tokens where delimiters were; they render as nothing.
  const next = (i: number) => {
    let j = i + 1;
    while (j < t.length && t[j]!.type === 'text' && t[j]!.content === '') j++;
    return j;
  };
  for (let i = 0; i < t.length; i++) {
    if (t[i]!.type !== 'em_open') continue;
    const strongOpen = next(i);
    if (t[strongOpen]?.type !== 'strong_open') continue;
    const strongClose = closeOf[strongOpen]!;
    if (strongClose < 0) continue;
    const emClose = next(strongClose);
    if (t[emClose]?.type !== 'em_close') continue;
    [t[i], t[strongOpen]] = [t[strongOpen]!, t[i]!];
    [t[strongClose], t[emClose]] = [t[emClose]!, t[strongClose]!];
    closeOf[i] = emClose;
    closeOf[strongOpen] = -1;
  }
  return false;
}
