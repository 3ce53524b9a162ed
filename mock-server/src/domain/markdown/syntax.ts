import type { ChannelRow, MessageRow, RealmState, UserRow } from '../../store/state.js';
import { channelSlug, encodeHashComponent } from './channel-links.js';

/**
 * Writing service-flavoured Markdown (the inverse of the renderer): the pieces the server's own posts
 * use — reports (§4.13), reminders (§4.19), failed-delivery notices (reference §4.1) — so that each is
 * written one way and renders as intended whatever the quoted text holds.
 */

/** The first `limit` characters (code points, as the spec's limits count them). */
export function truncate(text: string, limit: number): string {
  const chars = [...text];
  return chars.length > limit ? chars.slice(0, limit).join('') : text;
}

/** A silent mention (notifies nobody); `|ID` keeps it unambiguous when two users share a name. */
export function silentMention(user: Pick<UserRow, 'full_name' | 'user_id'>): string {
  return `@_**${user.full_name}|${user.user_id}**`;
}

/** A link to a conversation: the channel alone for the empty topic, else channel and topic. */
export function conversationLink(channel: Pick<ChannelRow, 'name'>, topic: string): string {
  return topic === '' ? `#**${channel.name}**` : `#**${channel.name}>${topic}**`;
}

/** A `>` quote of a text, line by line, so nothing inside it (a fence, a heading) can end it early. */
export function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
}

/**
 * A fenced block (`spoiler Header`, `quote`) around any text. Its fence is longer than any backtick run
 * inside, and fences the text leaves open are closed first: an unclosed fence inside a container block
 * would otherwise run past the container's end and swallow what follows.
 */
export function fenced(info: string, text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const closers = openFences(text).reverse();
  return [`${fence}${info}`, text, ...closers, fence].join('\n');
}

/**
 * Fences still open at the end of a text. As the renderer reads them: inside a code fence only its
 * closing line counts; `quote` and `spoiler` fences are containers in which fences nest.
 */
function openFences(text: string): string[] {
  const stack: { run: string; container: boolean }[] = [];
  for (const line of text.split('\n')) {
    const match = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!match) continue;
    const [, run, info] = match as unknown as [string, string, string];
    const top = stack[stack.length - 1];
    if (top && run[0] === top.run[0] && run.length >= top.run.length && info.trim() === '') stack.pop();
    else if (!top || top.container) stack.push({ run, container: /^(quote|spoiler)\b/.test(info.trim()) });
  }
  return stack.map((f) => f.run);
}

/** The web app's link to a message in its conversation (`#narrow/…/near/{id}`). */
export function messageLink(
  tables: Pick<RealmState, 'channels'>,
  message: Pick<MessageRow, 'id' | 'stream_id' | 'subject' | 'dm_user_ids'>,
): string {
  const channel = message.stream_id === null ? undefined : tables.channels[String(message.stream_id)];
  if (channel) return `#narrow/channel/${channelSlug(channel)}/topic/${encodeHashComponent(message.subject)}/near/${message.id}`;
  return `#narrow/dm/${(message.dm_user_ids ?? []).join(',')}/near/${message.id}`;
}
