import type MarkdownIt from 'markdown-it';
import { escapeAttribute, escapeCode, escapeText } from './escape.js';
import { highlightCode } from './highlight.js';

/**
 * The reference server's HTML conventions (reference §4.20) as markdown-it renderer rules.
 *
 * - Escaping as in escape.ts (quotes stay as typed in text).
 * - Code blocks (fenced or indented) sit in the `codehilite` wrapper of its highlighter:
 *   `<div class="codehilite" data-code-language="…"><pre><span></span><code>…\n</code></pre></div>`.
 * - `~~x~~` is `<del>`.
 * - Service-made HTML (mentions, emoji, channel links) travels in `service_html` tokens.
 */

/**
 * The highlighter's view of the code: leading and trailing blank lines dropped, trailing whitespace of
 * each line dropped, one final newline (the reference server's output for `y = 2\t\t` is `y = 2`).
 */
function tidyCode(code: string): string {
  const lines = code.replace(/^\n+/, '').replace(/\s+$/, '').split('\n');
  return `${lines.map((line) => line.trimEnd()).join('\n')}\n`;
}

/**
 * A fence's info string → the language as given: its first word, without the optional leading dot of
 * `~~~~.python` (accepted by the reference server).
 */
export function fenceLanguage(info: string): string {
  return (info.trim().split(/\s+/)[0] ?? '').replace(/^\./, '');
}

export function codeBlockHtml(code: string, language: string): string {
  const tidy = tidyCode(code);
  const highlighted = language ? highlightCode(tidy, language) : null;
  const languageName = highlighted?.languageName ?? language;
  const attribute = languageName ? ` data-code-language="${escapeAttribute(languageName)}"` : '';
  const body = highlighted?.html ?? escapeCode(tidy);
  return `<div class="codehilite"${attribute}><pre><span></span><code>${body}</code></pre></div>\n`;
}

export function installHtmlConventions(md: MarkdownIt): void {
  const rules = md.renderer.rules;
  rules.text = (tokens, idx) => escapeText(tokens[idx]!.content);
  rules.code_inline = (tokens, idx) => `<code>${escapeText(tokens[idx]!.content)}</code>`;
  rules.fence = (tokens, idx) => codeBlockHtml(tokens[idx]!.content, fenceLanguage(tokens[idx]!.info));
  rules.code_block = (tokens, idx) => codeBlockHtml(tokens[idx]!.content, '');
  rules.s_open = () => '<del>';
  rules.s_close = () => '</del>';
  rules.service_html = (tokens, idx) => tokens[idx]!.content;
  rules.spoiler_open = () => '<div class="spoiler-block"><div class="spoiler-header">\n';
  rules.spoiler_content_open = () => '</div><div class="spoiler-content" aria-hidden="true">\n';
  rules.spoiler_close = () => '</div></div>\n';
}
