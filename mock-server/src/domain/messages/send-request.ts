import type { Features } from '../../config/features.js';
import type { ChannelRow, RealmState, UserRow } from '../../store/state.js';
import { mayReachChannelForSending } from '../permissions.js';
import { channelMetadataAccess } from '../access.js';
import { channelByName } from '../channels/lookup.js';
import { badRequest, missingArgument, streamIdDoesNotExist, streamNameDoesNotExist } from '../errors.js';
import { userByEmail } from '../subscriptions/principals.js';
import { readTopic } from '../topics.js';
import type { Recipient } from './send.js';

/**
 * Reading send-message's `type`, `to` and `topic` the way the reference server does (companion; the spec
 * does not show sending). `to` is JSON when it parses and raw text otherwise, because the stock clients
 * send `to=Denmark`.
 */

type Tables = Pick<RealmState, 'channels' | 'users' | 'user_groups' | 'subscriptions' | 'messages' | 'user_messages'>;

function parseTo(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * Whether a sender may know the channel exists (send-message, scheduled messages): metadata access, or a
 * bot acting for an owner who does. A channel they may not know answers like a missing one.
 */
export function senderKnowsChannel(tables: Tables, sender: UserRow, channel: ChannelRow): boolean {
  return channelMetadataAccess(tables, sender, channel) || mayReachChannelForSending(tables, sender, channel);
}

export function readRecipient(
  tables: Tables,
  sender: UserRow,
  type: string,
  toRaw: string,
  topicRaw: string | undefined,
  features: Features,
): Recipient {
  const to = parseTo(toRaw);
  if (type === 'stream' || type === 'channel') {
    let channel;
    if (typeof to === 'number' && Number.isInteger(to)) {
      channel = tables.channels[String(to)];
      // A channel the sender may not know answers like a missing one (no leak of its name).
      if (!channel || !senderKnowsChannel(tables, sender, channel)) throw streamIdDoesNotExist(to);
    } else if (typeof to === 'string' || (Array.isArray(to) && to.length === 1 && typeof to[0] === 'string')) {
      const name = (typeof to === 'string' ? to : (to[0] as string)).trim();
      channel = channelByName(tables, name);
      if (!channel || !senderKnowsChannel(tables, sender, channel)) throw streamNameDoesNotExist(name);
    } else throw badRequest('Invalid data type for channel ID');
    if (topicRaw === undefined) throw badRequest('Missing topic');
    return { type: 'stream', channel, topic: readTopic(topicRaw, features) };
  }
  // Direct: a list of user IDs or emails, a single ID, or comma-separated emails.
  const list: unknown[] = Array.isArray(to)
    ? to
    : typeof to === 'number'
      ? [to]
      : String(to)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  if (list.length === 0) throw missingArgument('to');
  const users: UserRow[] = [];
  for (const item of list) {
    let user: UserRow | undefined;
    if (typeof item === 'number' && Number.isInteger(item)) {
      user = tables.users[String(item)];
      if (!user) throw badRequest(`Invalid user ID ${item}`);
    } else if (typeof item === 'string') {
      user = userByEmail(tables, item);
      if (!user) throw badRequest(`Invalid email '${item}'`);
    } else throw badRequest('Invalid data type for recipients');
    if (!user.is_active && !user.is_system_bot) throw badRequest(`'${user.email}' is no longer using Zulip.`);
    if (!users.includes(user)) users.push(user);
  }
  return { type: 'private', users };
}

/** `client` of §2.5: the product token of the User-Agent (`ZulipPython/0.9.1 (…)` → `ZulipPython`). */
export function clientName(userAgent: string): string {
  const token = userAgent.trim().split(/[/\s]/)[0] ?? '';
  return token === '' ? 'API' : token.slice(0, 30);
}

/**
 * read_by_sender when the request does not say (reference §4.1): true only for the interactive clients
 * (web, mobile, desktop, terminal), never for the stock API libraries; and never for a message to oneself.
 */
const INTERACTIVE =
  /^(website|zulipandroid|zulipios|zulipdesktop|zulipmobile|zulipelectron|zulipterminal|teamchatweb|teamchatmobile|teamchatdesktop)$/i;
export function defaultReadBySender(client: string, sender: UserRow, recipient: Recipient): boolean {
  const toSelf = recipient.type === 'private' && recipient.users.every((u) => u.user_id === sender.user_id);
  return INTERACTIVE.test(client) && !toSelf;
}
