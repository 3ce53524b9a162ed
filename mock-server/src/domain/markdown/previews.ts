import type { StateCore, Token } from 'markdown-it';
import type { RenderEnv } from './env.js';
import { escapeAttribute, wellFormed } from './escape.js';
import { linkCloses } from './links.js';

/**
 * Inline image previews (reference §4.20: image URLs add a `message_inline_image` div with
 * `/thumbnail?url=…` in its `src` attributes), approximating the reference server:
 *
 * `<div class="message_inline_image"><a href="URL"><img data-src-fullsize="/thumbnail?url=ENC&amp;size=full"
 * src="/thumbnail?url=ENC&amp;size=thumbnail"></a></div>`
 *
 * - An image URL is an http(s) link whose path ends in .bmp, .gif, .jpe, .jpeg, .jpg, .png or .webp.
 * - The previews of a paragraph follow it (inside a tight list item: inside the `li`); a paragraph that is
 *   nothing but one bare image URL is replaced by its preview. A named link (`[logo](url)`) keeps its
 *   paragraph and gives its text as the preview link's `title`.
 * - Each image is previewed once per message, and not inside quotes.
 * - ENC is the URL percent-encoded with nothing kept (`:` and `/` too), as the reference server writes it.
 */

const IMAGE_PATH = /\.(bmp|gif|jpe|jpeg|jpg|png|webp)$/i;

function isImageUrl(href: string): boolean {
  if (!/^https?:\/\//i.test(href)) return false;
  try {
    return IMAGE_PATH.test(new URL(href).pathname);
  } catch {
    return false;
  }
}

const encodeAll = (s: string) =>
  encodeURIComponent(wellFormed(s)).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function previewHtml(href: string, title: string | null): string {
  const thumbnail = `/thumbnail?url=${encodeAll(href)}`;
  const titleAttribute = title === null ? '' : ` title="${escapeAttribute(title)}"`;
  return (
    `<div class="message_inline_image"><a href="${escapeAttribute(href)}"${titleAttribute}>` +
    `<img data-src-fullsize="${escapeAttribute(`${thumbnail}&size=full`)}" src="${escapeAttribute(`${thumbnail}&size=thumbnail`)}"></a></div>`
  );
}

/** Previews for the image links of one paragraph's inline children; `alone` when it is one bare image URL. */
function previewsOf(children: Token[], env: RenderEnv): { html: string[]; alone: boolean } {
  const html: string[] = [];
  let links = 0;
  let bareOnly = true;
  const closeOf = linkCloses(children);
  for (let i = 0; i < children.length; i++) {
    const token = children[i]!;
    if (token.type !== 'link_open') {
      if (token.type !== 'text' || token.content.trim() !== '') bareOnly = false;
      continue;
    }
    const close = closeOf[i]!;
    if (close < 0) continue;
    links++;
    const text = children
      .slice(i + 1, close)
      .map((t) => t.content)
      .join('');
    const href = token.attrGet('href') ?? '';
    if (token.markup !== 'linkify') bareOnly = false;
    i = close;
    if (!isImageUrl(href) || env.previewedImages.has(href)) continue;
    env.previewedImages.add(href);
    html.push(previewHtml(href, token.markup === 'linkify' || text === href ? null : text));
  }
  return { html, alone: bareOnly && links === 1 && html.length === 1 };
}

export function imagePreviewCore(state: StateCore): void {
  const env = state.env as RenderEnv;
  const out: Token[] = [];
  let quoteDepth = 0;
  for (let i = 0; i < state.tokens.length; i++) {
    const token = state.tokens[i]!;
    if (token.type === 'blockquote_open') quoteDepth++;
    if (token.type === 'blockquote_close') quoteDepth--;
    out.push(token);
    const inline = state.tokens[i - 1];
    if (token.type !== 'paragraph_close' || quoteDepth > 0 || inline?.type !== 'inline' || !inline.children) continue;
    const { html, alone } = previewsOf(inline.children, env);
    if (html.length === 0) continue;
    if (alone && !token.hidden) out.splice(out.length - 3, 3);
    const previews = new state.Token('service_html', '', 0);
    previews.content = html.join('');
    out.push(previews);
  }
  state.tokens = out;
}
