import MarkdownIt from 'markdown-it';

/**
 * Markdown → HTML for every rendered field (§1 "Message text format"; §4.20), built on markdown-it.
 * This is the plain layer with the reference server's HTML conventions (reference §4.20): `<br>` for a
 * newline inside a paragraph, `<del>` for strike-through, code blocks in a `codehilite` wrapper.
 * The service-flavoured extensions (mentions, emoji, channel links, linkifiers, highlighting) arrive
 * with the messages issue as markdown-it plugins that take a rendering context.
 */
const md = new MarkdownIt('commonmark', { html: false, breaks: true, linkify: true, xhtmlOut: false }).enable(['strikethrough', 'linkify']);

md.renderer.rules.s_open = () => '<del>';
md.renderer.rules.s_close = () => '</del>';

function codeBlock(code: string, language: string): string {
  const attribute = language ? ` data-code-language="${md.utils.escapeHtml(language)}"` : '';
  return `<div class="codehilite"${attribute}><pre><span></span><code>${md.utils.escapeHtml(code)}</code></pre></div>\n`;
}
md.renderer.rules.fence = (tokens, idx) => {
  const token = tokens[idx]!;
  return codeBlock(token.content, token.info.trim().split(/\s+/)[0] ?? '');
};
md.renderer.rules.code_block = (tokens, idx) => codeBlock(tokens[idx]!.content, '');

export function renderMarkdown(content: string): string {
  if (content === '') return '';
  return md.render(content).trimEnd();
}
