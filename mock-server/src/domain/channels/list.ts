import type { SchemaOf } from '../../contract/operation-types.js';
import type { Features } from '../../config/features.js';
import { indexOf } from '../../store/indexes.js';
import type { ChannelRow, RealmRow, RealmState, UserRow } from '../../store/state.js';
import { channelContentAccess, channelMetadataAccess, isGuest, isSubscribed } from '../access.js';
import { badRequest } from '../errors.js';
import { mayUseIncludeAllActive } from '../permissions.js';
import { presentChannel } from '../present/channels.js';

/** The nine flags of spec §4.15, after defaults. */
export interface ChannelListFlags {
  include_public: boolean;
  include_web_public: boolean;
  include_subscribed: boolean;
  exclude_archived: boolean;
  include_all: boolean;
  include_default: boolean;
  include_owner_subscribed: boolean;
  include_can_access_content: boolean;
  include_all_active: boolean;
}

/**
 * GET /streams (spec §4.15, reference §4.15): the union of the groups the flags select, each limited to
 * what the caller may know, then archived channels dropped unless asked for (and always before level
 * 315, when archived channels did not appear in listings, §9). Sorted by name, as the reference does.
 */
export function listChannels(
  tables: RealmState,
  realm: RealmRow,
  user: UserRow,
  flags: ChannelListFlags,
  features: Features,
  now: number,
): SchemaOf<'Channel'>[] {
  // C16: administrators only; for them it means include_all.
  if (flags.include_all_active && !mayUseIncludeAllActive(user)) throw badRequest('User not authorized for this query');
  const includeAll = flags.include_all || flags.include_all_active;
  const owner = user.is_bot && user.bot_owner_id !== null ? tables.users[String(user.bot_owner_id)] : undefined;
  const defaults = new Set(realm.default_stream_ids);

  const selected = (c: ChannelRow): boolean => {
    if (includeAll && channelMetadataAccess(tables, user, c)) return true;
    if (flags.include_can_access_content && channelContentAccess(tables, user, c)) return true;
    if (flags.include_subscribed && isSubscribed(tables, user.user_id, c.stream_id)) return true;
    // Guests see no public channel they are not subscribed to (reference §4.15).
    if (flags.include_public && !c.invite_only && !isGuest(user)) return true;
    if (flags.include_web_public && c.is_web_public) return true;
    if (flags.include_default && defaults.has(c.stream_id) && channelContentAccess(tables, user, c)) return true;
    return flags.include_owner_subscribed && owner !== undefined && isSubscribed(tables, owner.user_id, c.stream_id);
  };
  const showArchived = !flags.exclude_archived && features.has('archived_channels');
  const channels = candidates(tables, user, flags, includeAll, owner, defaults)
    .filter((c) => (!c.is_archived || showArchived) && selected(c))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.stream_id - b.stream_id));
  return channels.map((c) => presentChannel(tables, c, { now }));
}

/**
 * The channels `selected` may pick. Flags that select by subscription or default only (the usual
 * `include_public=false` of a client listing its own channels) start from the subscriptions index, so
 * the cost follows the answer, not the realm's channel count; any other flag needs them all.
 */
function candidates(
  tables: RealmState,
  user: UserRow,
  flags: ChannelListFlags,
  includeAll: boolean,
  owner: UserRow | undefined,
  defaults: ReadonlySet<number>,
): ChannelRow[] {
  if (includeAll || flags.include_can_access_content || flags.include_public || flags.include_web_public)
    return Object.values(tables.channels);
  const people = indexOf(tables).people;
  const ids = new Set<number>(flags.include_subscribed ? people.subscribedChannels(user.user_id) : []);
  if (flags.include_owner_subscribed && owner) for (const id of people.subscribedChannels(owner.user_id)) ids.add(id);
  if (flags.include_default) for (const id of defaults) ids.add(id);
  return [...ids].map((id) => tables.channels[String(id)]).filter((c): c is ChannelRow => c !== undefined);
}
