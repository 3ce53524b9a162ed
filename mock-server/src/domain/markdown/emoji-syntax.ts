import type { StateCore, StateInline, Token } from 'markdown-it';
import { codeOfCharacters, isServiceExtraEmoji, SERVICE_EXTRA_EMOJI_URL, unicodeEmojiCode, unicodeEmojiName } from '../emoji.js';
import type { RenderEnv } from './env.js';
import { escapeAttribute, escapeText } from './escape.js';

/**
 * Emoji (reference §4.20), resolved the way the reference server resolves `:name:`: an active custom
 * emoji of the realm first, then the extra emoji `teamchat`, then the Unicode names of the catalogue.
 *
 * - Unicode: `<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span>`
 * - custom: `<img alt=":name:" class="emoji" src="SOURCE_URL" title="name">`
 * - extra: the same `img`, src `/static/generated/emoji/images/emoji/unicode/teamchat.png`
 *
 * The title and aria-label write `_` as a space (reference server: `:holiday_tree:` has the title
 * "holiday tree"). An emoji character typed directly gets the same span, showing its canonical name
 * (`🙂` → `…>:smile:</span>`, as the reference server renders it); characters the catalogue does not
 * know stay as typed. An unknown `:name:` stays text, and the reference server's scanner then resumes
 * after its closing colon, so `:foo:smile:` shows no emoji either.
 */

const NAME = /:([\p{L}\p{N}_+-]+):/uy;

export function unicodeEmojiHtml(name: string, code: string): string {
  const title = escapeAttribute(name.replace(/_/g, ' '));
  return `<span aria-label="${title}" class="emoji emoji-${code}" role="img" title="${title}">:${escapeText(name)}:</span>`;
}

function imageEmojiHtml(name: string, src: string): string {
  return `<img alt=":${escapeAttribute(name)}:" class="emoji" src="${escapeAttribute(src)}" title="${escapeAttribute(name.replace(/_/g, ' '))}">`;
}

function emojiHtml(env: RenderEnv, name: string): string | null {
  const custom = env.realmEmoji(name);
  if (custom) return imageEmojiHtml(name, custom.source_url);
  if (isServiceExtraEmoji(name)) return imageEmojiHtml(name, SERVICE_EXTRA_EMOJI_URL);
  const code = unicodeEmojiCode(name);
  return code === undefined ? null : unicodeEmojiHtml(name, code);
}

/** Inline rule at `:`. */
export function emojiNameRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3a /* : */) return false;
  NAME.lastIndex = state.pos;
  const m = NAME.exec(state.src);
  if (!m || m.index + m[0].length > state.posMax) return false;
  const html = emojiHtml(state.env as RenderEnv, m[1]!);
  if (!silent) {
    if (html === null) state.pending += m[0];
    else state.push('service_html', '', 0).content = html;
  }
  state.pos += m[0].length;
  return true;
}

/**
 * RGI emoji sequences (the `v` flag's property of strings, Node ≥ 20). Made on the first text that may hold
 * one: building the expression costs tens of milliseconds, which start-up need not spend.
 */
let emojiCharacters: RegExp | null = null;

/** A quick filter: every emoji sequence has a character above U+2000 (the symbol blocks, FE0F, astral). */
const MAYBE_EMOJI = /[\u2001-\uffff]/;

/** Core rule: emoji characters inside text tokens become emoji spans (never inside code). */
export function unicodeEmojiCore(state: StateCore): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const out: Token[] = [];
    let changed = false;
    for (const token of block.children) {
      if (token.type !== 'text' || !MAYBE_EMOJI.test(token.content)) {
        out.push(token);
        continue;
      }
      let last = 0;
      for (const m of token.content.matchAll((emojiCharacters ??= new RegExp('\\p{RGI_Emoji}', 'gv')))) {
        const code = codeOfCharacters(m[0]);
        const name = unicodeEmojiName(code);
        if (name === undefined) continue;
        if (m.index > last) out.push(textToken(state, token.content.slice(last, m.index)));
        const html = new state.Token('service_html', '', 0);
        html.content = unicodeEmojiHtml(name, code);
        out.push(html);
        last = m.index + m[0].length;
        changed = true;
      }
      if (last === 0) out.push(token);
      else if (last < token.content.length) out.push(textToken(state, token.content.slice(last)));
    }
    if (changed) block.children = out;
  }
}

export function textToken(state: StateCore, content: string): Token {
  const token = new state.Token('text', '', 0);
  token.content = content;
  return token;
}
