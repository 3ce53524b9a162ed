import MarkdownIt from 'markdown-it';

/**
 * Markdown → HTML for every rendered field (§1 "Message text format"; §4.20). This first slice is plain
 * CommonMark with the reference server's line-break rule (a newline inside a paragraph is `<br>`); the
 * service-flavoured extensions (mentions, emoji, channel links, linkifiers, code highlighting) arrive
 * with the messages issue and will take a rendering context argument.
 */
const md = new MarkdownIt('commonmark', { html: false, breaks: true, linkify: true }).enable(['strikethrough', 'linkify']);

export function renderMarkdown(content: string): string {
  if (content === '') return '';
  return md.render(content).trimEnd();
}
