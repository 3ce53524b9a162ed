import type { StateInline } from 'markdown-it';
import type { ChannelRow } from '../../store/state.js';
import type { RenderEnv } from './env.js';
import { escapeAttribute, escapeText, wellFormed } from './escape.js';

/**
 * Channel and topic links (reference §4.20), as a markdown-it inline rule at `#`:
 *
 * - `#**name**` → `<a class="stream" data-stream-id="ID" href="/#narrow/channel/ID-name">#name</a>`
 * - `#**name>topic**` → `<a class="stream-topic" data-stream-id="ID"
 *   href="/#narrow/channel/ID-name/topic/TOPIC/with/LATEST">#name &gt; topic</a>`, LATEST being the
 *   newest message ID of that topic in that channel among the messages the author may read
 *   (RenderEnv.latestInTopic); without such messages the `/with/…` part is left out, as the reference
 *   server does for topics without messages, so an unreadable topic looks exactly like a made-up one.
 *
 * The name must be a channel the author may know (RenderEnv.channelByName); an unknown or invisible
 * channel is left to the rest of Markdown: `#**secret**` → `#<strong>secret</strong>` (reference,
 * "likely"). A link to the empty topic shows the realm's display name for it, `general chat`, in the
 * `empty-topic-display` span of the reference web app (unconfirmed for the server). The `#` must follow
 * a start of text, whitespace or one of `'"(,:<`, like the reference server's pattern.
 */

const LINK = /#\*\*([^*]+)\*\*/y;
const ALLOWED_BEFORE = /[\s'"(,:<]/;
const EMPTY_TOPIC_DISPLAY_NAME = 'general chat';

/**
 * A narrow hash component as the reference web app encodes it: encodeURIComponent, then `.` → `%2E`,
 * then `%` → `.` (`some topic` → `some.20topic`).
 */
export function encodeHashComponent(s: string): string {
  return encodeURIComponent(wellFormed(s)).replace(/\./g, '%2E').replace(/%/g, '.');
}

/** `ID-name`, spaces in the name written as `-` (reference web app's channel slug). */
export function channelSlug(channel: Pick<ChannelRow, 'stream_id' | 'name'>): string {
  return `${channel.stream_id}-${encodeHashComponent(channel.name.replace(/ /g, '-'))}`;
}

export function channelLinkRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x23 /* # */) return false;
  const env = state.env as RenderEnv;
  if (!env.ctx) return false;
  if (state.pos > 0 && !ALLOWED_BEFORE.test(state.src[state.pos - 1]!)) return false;
  LINK.lastIndex = state.pos;
  const m = LINK.exec(state.src);
  if (!m || m.index + m[0].length > state.posMax) return false;
  const html = linkHtml(env, m[1]!);
  if (html === null) return false;
  if (!silent) state.push('service_html', '', 0).content = html;
  state.pos += m[0].length;
  return true;
}

function linkHtml(env: RenderEnv, text: string): string | null {
  const split = text.indexOf('>');
  if (split > 0) {
    const channel = env.channelByName(text.slice(0, split));
    if (channel) return topicLink(env, channel, text.slice(split + 1));
  }
  const channel = env.channelByName(text);
  if (!channel) return null;
  const href = `/#narrow/channel/${channelSlug(channel)}`;
  return `<a class="stream" data-stream-id="${channel.stream_id}" href="${escapeAttribute(href)}">#${escapeText(channel.name)}</a>`;
}

function topicLink(env: RenderEnv, channel: ChannelRow, topic: string): string {
  const latest = env.latestInTopic(channel, topic);
  const href = `/#narrow/channel/${channelSlug(channel)}/topic/${encodeHashComponent(topic)}${latest === undefined ? '' : `/with/${latest}`}`;
  const shown = topic === '' ? `<span class="empty-topic-display">${EMPTY_TOPIC_DISPLAY_NAME}</span>` : escapeText(topic);
  return `<a class="stream-topic" data-stream-id="${channel.stream_id}" href="${escapeAttribute(href)}">#${escapeText(channel.name)} &gt; ${shown}</a>`;
}
