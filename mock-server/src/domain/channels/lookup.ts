import type { ChannelRow, RealmState, UserRow } from '../../store/state.js';
import { channelContentAccess, channelMetadataAccess } from '../access.js';
import { badRequest } from '../errors.js';

/**
 * The shared channel checks of the reference doc ("Shared access checks"): one text for a missing
 * channel, one in another realm and one the caller may not see, so an error never tells them apart.
 */

type Tables = Pick<RealmState, 'channels' | 'users' | 'user_groups' | 'subscriptions'>;

export interface ChannelLookup {
  /** Content access (reading messages) or metadata access (knowing the channel, administering it). */
  access: 'content' | 'metadata';
  /** Whether the operation takes archived channels (§4.16 and, from level 362, §4.8). */
  archived: boolean;
}

export const invalidChannelId = () => badRequest('Invalid channel ID');

export function channelById(tables: Tables, user: UserRow, id: number, how: ChannelLookup): ChannelRow {
  const channel = tables.channels[String(id)];
  if (!channel || (channel.is_archived && !how.archived)) throw invalidChannelId();
  const access = how.access === 'content' ? channelContentAccess(tables, user, channel) : channelMetadataAccess(tables, user, channel);
  if (!access) throw invalidChannelId();
  return channel;
}

/** Channel names match case-insensitively, as on the reference server. */
export function channelByName(tables: Pick<RealmState, 'channels'>, name: string): ChannelRow | undefined {
  const wanted = name.toLowerCase();
  return Object.values(tables.channels).find((c) => c.name.toLowerCase() === wanted);
}

/**
 * A channel by name as the caller may know it: one they may not know, and an archived one unless the
 * operation takes archived channels, is simply not found (the no-leak rule of "Shared access checks").
 */
export function visibleChannelByName(tables: Tables, user: UserRow, name: string, archived: boolean): ChannelRow | undefined {
  const channel = channelByName(tables, name);
  if (!channel || (channel.is_archived && !archived)) return undefined;
  return channelMetadataAccess(tables, user, channel) ? channel : undefined;
}

/** Reference §8 and §1 "Channel names". */
export const MAX_CHANNEL_NAME_LENGTH = 60;
export const MAX_CHANNEL_DESCRIPTION_LENGTH = 1024;

/**
 * A channel description as stored (reference §4.16: newlines become spaces), within the §8 limit. The
 * update operation's limit is a parse error from the OpenAPI document already; subscribe's nested
 * descriptions are checked here.
 */
export function readChannelDescription(raw: string): string {
  const description = raw.replace(/\r?\n/g, ' ');
  if ([...description].length > MAX_CHANNEL_DESCRIPTION_LENGTH)
    throw badRequest(`description is too long (limit: ${MAX_CHANNEL_DESCRIPTION_LENGTH} characters)`);
  return description;
}

/** Channel-name checks of the reference doc §1 (texts marked likely there). */
export function checkChannelName(name: string): void {
  if (name === '') throw badRequest("Channel name can't be empty.");
  if ([...name].length > MAX_CHANNEL_NAME_LENGTH) throw badRequest(`Channel name too long (limit: ${MAX_CHANNEL_NAME_LENGTH} characters).`);
  const chars = [...name];
  for (let i = 0; i < chars.length; i++) {
    const code = chars[i]!.codePointAt(0)!;
    // Control characters and the Unicode non-characters are refused, as the reference server does; so are
    // lone surrogates (JSON can carry them, but they are no character and no URL can encode them).
    if (
      (code >= 0xd800 && code <= 0xdfff) ||
      code < 0x20 ||
      code === 0x7f ||
      (code >= 0x80 && code < 0xa0) ||
      (code >= 0xfdd0 && code <= 0xfdef) ||
      (code & 0xfffe) === 0xfffe
    ) {
      throw badRequest(`Invalid character in channel name, at position ${i + 1}.`);
    }
  }
}
