import type { StateInline } from 'markdown-it';
import { escapeText } from './escape.js';
import type { RenderEnv } from './env.js';

/**
 * User, wildcard and user group mentions (reference §4.20), as a markdown-it inline rule at `@`:
 *
 * | Syntax | HTML |
 * |---|---|
 * | `@**Full Name**`, `@**Full Name\|ID**`, `@**\|ID**` | `<span class="user-mention" data-user-id="ID">@Full Name</span>` |
 * | `@_**Full Name**` (silent) | `<span class="user-mention silent" data-user-id="ID">Full Name</span>` |
 * | `@**all**` (`everyone`, `channel`, `stream`) | `<span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span>` |
 * | `@**topic**` | `<span class="topic-mention">@topic</span>` |
 * | `@*group*` | `<span class="user-group-mention" data-user-group-id="ID">@group</span>` |
 * | `@_*group*` (silent) | `<span class="user-group-mention silent" data-user-group-id="ID">group</span>` |
 *
 * Silent wildcards carry the class `silent` and no `@`. The shown name is the user's or group's own
 * (names match case-insensitively). Inside a quote every mention is silent, as on the reference server,
 * which does not notify people quoted from another message. A name that resolves to nobody is left to
 * the rest of Markdown: `@**Nobody**` → `@<strong>Nobody</strong>` (reference §4.20, "likely").
 * Like the reference server, a mention needs a start of text, whitespace or one of `'"({[/<` before the
 * `@` (so `me@**x**` is not one). Without a rendering context nothing resolves.
 */

const MENTION = /@(_?)(?:\*\*([^*]+)\*\*|\*([^*]+)\*)/y;
const ALLOWED_BEFORE = /[\s'"({[/<]/;
const CHANNEL_WILDCARDS = new Set(['all', 'everyone', 'channel', 'stream']);

export function mentionRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */) return false;
  const env = state.env as RenderEnv;
  if (!env.ctx) return false;
  if (state.pos > 0 && !ALLOWED_BEFORE.test(state.src[state.pos - 1]!)) return false;
  MENTION.lastIndex = state.pos;
  const m = MENTION.exec(state.src);
  if (!m || m.index + m[0].length > state.posMax) return false;
  const isSilent = m[1] === '_' || env.inQuote;
  const html = m[2] !== undefined ? userMention(env, m[2], isSilent, silent) : groupMention(env, m[3]!, isSilent, silent);
  if (html === null) return false;
  if (!silent) state.push('service_html', '', 0).content = html;
  state.pos += m[0].length;
  return true;
}

/** Records the mention unless `dryRun` (markdown-it's validation mode must not change state). */
function userMention(env: RenderEnv, text: string, isSilent: boolean, dryRun: boolean): string | null {
  const silentClass = isSilent ? ' silent' : '';
  const shown = (name: string) => escapeText(isSilent ? name : `@${name}`);
  if (CHANNEL_WILDCARDS.has(text)) {
    if (!isSilent && !dryRun) env.channelWildcard = true;
    return `<span class="user-mention channel-wildcard-mention${silentClass}" data-user-id="*">${shown(text)}</span>`;
  }
  if (text === 'topic') {
    if (!isSilent && !dryRun) env.topicWildcard = true;
    return `<span class="topic-mention${silentClass}">${shown(text)}</span>`;
  }
  const byId = /^(.*)\|([0-9]+)$/s.exec(text);
  let user = byId ? env.userById(Number(byId[2])) : env.userByName(text);
  if (user && byId && byId[1] !== '' && byId[1]!.toLowerCase() !== user.full_name.toLowerCase()) user = undefined;
  if (!user) return null;
  if (!isSilent && !dryRun) env.userMentions.add(user.user_id);
  return `<span class="user-mention${silentClass}" data-user-id="${user.user_id}">${shown(user.full_name)}</span>`;
}

function groupMention(env: RenderEnv, name: string, isSilent: boolean, dryRun: boolean): string | null {
  const group = env.groupByName(name);
  if (!group) return null;
  if (!isSilent && !dryRun) env.groupMentions.add(group.id);
  const shown = escapeText(isSilent ? group.name : `@${group.name}`);
  return `<span class="user-group-mention${isSilent ? ' silent' : ''}" data-user-group-id="${group.id}">${shown}</span>`;
}
