import MarkdownIt from 'markdown-it';
import type { StateCore } from 'markdown-it';
import { channelLinkRule } from './channel-links.js';
import { emojiNameRule, unicodeEmojiCore } from './emoji-syntax.js';
import { delRule, noEmphasisAcrossLines, strongOutsideEm, underscoreRule } from './emphasis.js';
import type { RenderEnv } from './env.js';
import { fencedContainerRule } from './fences.js';
import { installHtmlConventions } from './html.js';
import { linkifierCore, mayMatch } from './linkifiers.js';
import { installLinkRules } from './links.js';
import { mentionRule } from './mentions.js';
import { imagePreviewCore } from './previews.js';

/**
 * The one markdown-it instance (created once, at first import) configured as service-flavoured Markdown
 * (spec §1 "Message text format", reference §4.20). Per-rendering state travels in the `env` object
 * (RenderEnv), so the instance itself is shared by every rendering.
 *
 * CommonMark plus tables and bare-URL linkify; a newline inside a paragraph is `<br>` + newline
 * (`breaks`); no raw HTML (it is escaped); no setext headings, reference-style links, `<url>` autolinks
 * or `![image](url)` syntax (the reference server has none of them). Service extensions, in the order
 * they run:
 *
 * 1. block: quote and spoiler fences (fences.ts);
 * 2. inline: mentions (mentions.ts), channel and topic links (channel-links.ts), `:emoji:`
 *    (emoji-syntax.ts), emphasis rules (emphasis.ts) — inline rules never see code, which the
 *    backticks and fence rules have taken already; mentions inside quotes are parsed as silent;
 * 3. core, on the finished tokens: link fixes (links.ts), realm linkifiers (linkifiers.ts), emoji
 *    characters (emoji-syntax.ts), image previews (previews.ts).
 */

const md = new MarkdownIt('commonmark', { html: false, xhtmlOut: false, breaks: true, linkify: true });
md.enable(['table', 'linkify']);
md.disable(['lheading', 'reference', 'autolink', 'image', 'html_inline', 'html_block']);

installHtmlConventions(md);
installLinkRules(md);

md.block.ruler.before('fence', 'fenced_container', fencedContainerRule, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });

md.inline.ruler.after('linkify', 'emoji_name', emojiNameRule);
md.inline.ruler.before('emphasis', 'mention', mentionRule);
md.inline.ruler.before('emphasis', 'channel_link', channelLinkRule);
md.inline.ruler.before('emphasis', 'underscore_text', underscoreRule);
md.inline.ruler.before('emphasis', 'del', delRule);
md.inline.ruler2.after('balance_pairs', 'no_emphasis_across_lines', noEmphasisAcrossLines);
md.inline.ruler2.after('emphasis', 'strong_outside_em', strongOutsideEm);

/** markdown-it's own `inline` core rule, with RenderEnv.inQuote set while a quote's text is parsed. */
md.core.ruler.at('inline', (state: StateCore) => {
  const env = state.env as RenderEnv;
  let quoteDepth = 0;
  for (const token of state.tokens) {
    if (token.type === 'blockquote_open') quoteDepth++;
    else if (token.type === 'blockquote_close') quoteDepth--;
    else if (token.type === 'inline') {
      env.inQuote = quoteDepth > 0;
      state.md.inline.parse(token.content, state.md, state.env, token.children ?? (token.children = []));
    }
  }
  env.inQuote = false;
});
md.core.ruler.push('linkifiers', linkifierCore);
md.core.ruler.push('unicode_emoji', unicodeEmojiCore);
md.core.ruler.push('image_previews', imagePreviewCore);

/**
 * One line of letters, digits, spaces and punctuation no rule reads, not starting with a space: what no
 * block or inline rule changes (no `.` or `:`, which bare-URL linkify reads; no `*_~` emphasis, `#@:`
 * links, mentions and emoji, `&<>` escapes, list and quote markers, code).
 */
const PLAIN_TEXT = /^[A-Za-z0-9][A-Za-z0-9 ,;?!'"-]*$/;

/**
 * The HTML of plain text without the parser: one paragraph of itself, trailing spaces dropped, where no
 * realm linkifier can match it (a character every match needs is missing); else null. The parser is most
 * of a short message's send. The property test in test/markdown/plain-text.test.ts holds this against
 * the parser.
 */
export function plainParagraph(content: string, env: RenderEnv): string | null {
  if (!PLAIN_TEXT.test(content)) return null;
  for (const linkifier of env.linkifiers()) if (mayMatch(linkifier.pattern, content)) return null;
  return `<p>${content.trimEnd()}</p>`;
}

/** What the parser makes of `content` (renderWith without its shortcut). */
export function parsedHtml(content: string, env: RenderEnv): string {
  return md.render(content, env).trimEnd();
}

/** HTML of `content` (without the final newline markdown-it writes); "" renders to "". */
export function renderWith(content: string, env: RenderEnv): string {
  if (content === '') return '';
  return plainParagraph(content, env) ?? parsedHtml(content, env);
}
