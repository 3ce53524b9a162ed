import { renderWith } from './markdown/engine.js';
import { RenderEnv, type MarkdownContext, type Mentions } from './markdown/env.js';

/**
 * Service-flavoured Markdown → HTML for every rendered field: message content, POST /messages/render
 * (spec §4.20), `rendered_description`, previews (spec §1 "Message text format"). The rules and the
 * reference server's exact HTML are described in the modules of ./markdown/ (engine.ts lists them).
 */

export type { MarkdownContext, Mentions };
export { topicLinks } from './markdown/linkifiers.js';

/**
 * A message's HTML, what it mentions (the source of the `mentioned` and wildcard flags of §2.5) and
 * whether it is a `/me` message (§2.5 is_me_message: content starting with `/me ` that renders to a
 * single paragraph; the HTML keeps the `/me` text, clients style it).
 */
export function renderMessage(content: string, ctx: MarkdownContext): { html: string; mentions: Mentions; isMeMessage: boolean } {
  const env = new RenderEnv(ctx);
  const html = renderWith(content, env);
  return { html, mentions: env.mentions(), isMeMessage: isMeMessage(content, html) };
}

/**
 * HTML only. Without a context the HTML conventions are the same, but mentions, channel links, realm
 * emoji and linkifiers stay unresolved, as unknown names do (Unicode emoji and `:teamchat:` resolve).
 */
export function renderMarkdown(content: string, ctx?: MarkdownContext): string {
  return renderWith(content, new RenderEnv(ctx ?? null));
}

function isMeMessage(content: string, html: string): boolean {
  return content.startsWith('/me ') && html.startsWith('<p>/me ') && html.endsWith('</p>') && html.indexOf('</p>') === html.length - 4;
}
