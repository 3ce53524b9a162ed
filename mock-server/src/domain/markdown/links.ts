import type MarkdownIt from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';
import { textToken } from './emoji-syntax.js';

/**
 * Links as the reference server makes them (reference §4.20):
 *
 * - Bare URLs and `[text](url)` become `<a href="url">…</a>`; reference-style links, `<url>`
 *   autolinks and `![image](url)` syntax are not supported (they stay text; engine.ts disables them).
 * - Only `http`, `https`, `mailto` and relative URLs are links, plus `tel` and `sms`, which the
 *   reference server also accepts in `[text](url)`; `javascript:`, `ftp:`, `itms:` … stay text.
 * - `[](url)` and `[   ](url)` show the URL as their text.
 * - Bare domain names link as markdown-it's linkify finds them (`example.com`, `a@b.com`), except names
 *   whose last label is a common file extension (`readme.md`, `views.py`), which the reference server
 *   leaves alone; a protocol-relative `//host` is not a link.
 */

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const ALLOWED_SCHEMES = new Set(['http', 'https', 'mailto', 'tel', 'sms']);
const FILE_EXTENSIONS = new Set(['md', 'py', 'zip', 'mov', 'java', 'js', 'ts', 'sh', 'rs', 'go']);

export function installLinkRules(md: MarkdownIt): void {
  md.validateLink = (url: string) => {
    const m = SCHEME.exec(url.trim());
    return !m || ALLOWED_SCHEMES.has(m[1]!.toLowerCase());
  };
  md.linkify.add('//', null).add('ftp:', null).set({ fuzzyIP: false });
  md.core.ruler.after('linkify', 'link_fixes', linkFixes);
}

/** The host of a schemeless (fuzzy) link text, or null for other links. */
function fuzzyHost(text: string, href: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) || href.startsWith('mailto:')) return null;
  return text.split(/[/?#:]/)[0] ?? null;
}

/**
 * For each `link_open` of an inline token's children, the index of its `link_close` (-1 elsewhere),
 * paired by a stack in one pass, so that passes over the links of a long paragraph stay linear.
 */
export function linkCloses(children: Token[]): Int32Array {
  const closeOf = new Int32Array(children.length).fill(-1);
  const open: number[] = [];
  for (let i = 0; i < children.length; i++) {
    if (children[i]!.type === 'link_open') open.push(i);
    else if (children[i]!.type === 'link_close' && open.length > 0) closeOf[open.pop()!] = i;
  }
  return closeOf;
}

function linkFixes(state: StateCore): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const children = block.children;
    const closeOf = linkCloses(children);
    const out: Token[] = [];
    for (let i = 0; i < children.length; i++) {
      const token = children[i]!;
      if (token.type !== 'link_open') {
        out.push(token);
        continue;
      }
      const close = closeOf[i]!;
      if (close < 0) {
        out.push(token);
        continue;
      }
      const inner = children.slice(i + 1, close);
      const href = token.attrGet('href') ?? '';
      const text = inner.map((t) => t.content).join('');
      if (token.markup === 'linkify') {
        const host = fuzzyHost(text, href);
        if (host !== null && FILE_EXTENSIONS.has(host.split('.').pop()!.toLowerCase())) {
          out.push(textToken(state, text));
          i = close;
          continue;
        }
      } else if (inner.every((t) => t.type === 'text' && t.content.trim() === '')) {
        out.push(token, textToken(state, href), children[close]!);
        i = close;
        continue;
      }
      out.push(token);
    }
    block.children = out;
  }
}
