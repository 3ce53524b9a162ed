import type { SchemaOf } from '../../contract/operation-types.js';
import { CHANNEL_GROUP_SETTINGS } from '../../store/state.js';
import type { ChannelFolderRow, ChannelGroupSetting, ChannelRow, GroupSettingValue, RealmState } from '../../store/state.js';
import { indexOf } from '../../store/indexes.js';

/**
 * Channel and folder objects, spec §2.2 and §2.4 (fields of the OpenAPI `Channel` schema). Derived
 * fields (first message, activity, traffic, subscriber count) come from the store's indexes, so
 * presenting a channel costs the same whatever the number of messages.
 */

const DAY = 86_400;

/** Per-channel facts, read from the store's indexes (store/indexes.ts) instead of scanning messages. */
export interface ChannelStats {
  first_message_id: number | null;
  /** Messages whose timestamp lies in (`after`, `upTo`]: the activity and traffic windows. */
  messagesBetween(after: number, upTo: number): number;
  /** Active subscribers whose accounts are active, bots included, ascending (§2.3 subscriber_count). */
  readonly subscribers: number[];
  readonly subscriberCount: number;
}

type StatsTables = Pick<RealmState, 'messages' | 'user_messages' | 'subscriptions' | 'users'>;

export function channelStats(tables: StatsTables, channelId: number): ChannelStats {
  const index = indexOf(tables);
  const messages = index.messages.channel(channelId);
  return {
    first_message_id: messages?.ids.first ?? null,
    messagesBetween: (after, upTo) => messages?.timestamps.countIn(after, upTo) ?? 0,
    get subscribers() {
      return index.people.subscribers(channelId);
    },
    subscriberCount: index.people.subscriberCount(channelId),
  };
}

/** ID of a system group by name (reference §2: `role:administrators` and so on). */
export function systemGroupId(tables: Pick<RealmState, 'user_groups'>, name: string): number | null {
  for (const g of Object.values(tables.user_groups)) if (g.is_system_group && g.name === name) return g.id;
  return null;
}

/**
 * Spec §2.2 stream_post_policy (deprecated since level 333, replaced by can_send_message_group):
 * derived from the replacement so both never disagree: 2 administrators, 4 moderators, 3 full
 * members, 1 anything else.
 */
export function streamPostPolicy(tables: Pick<RealmState, 'user_groups'>, value: GroupSettingValue): 1 | 2 | 3 | 4 {
  if (typeof value !== 'number') return 1;
  // The group itself, rather than three scans of every group per channel presented (system group names
  // are unique in a realm, so this is the group systemGroupId would find).
  const group = tables.user_groups[String(value)];
  if (!group?.is_system_group) return 1;
  return POLICY_OF_SYSTEM_GROUP.get(group.name) ?? 1;
}

const POLICY_OF_SYSTEM_GROUP = new Map<string, 2 | 3 | 4>([
  ['role:administrators', 2],
  ['role:moderators', 4],
  ['role:fullmembers', 3],
]);

export interface PresentChannelContext {
  /** Server time (seconds) for the activity and traffic windows; never read from a clock here. */
  now: number;
}

/**
 * Spec §2.2 channel object. Group settings go out as stored (integer or anonymous group, §1).
 * - first_message_id: the lowest message ID of the channel, null without history.
 * - is_recently_active: a message in the 7 days before `now`.
 * - stream_weekly_traffic (§2.3): null while the channel is younger than a week ("insufficient
 *   data"), else the messages of the last 28 days divided by 4, rounded.
 * - subscriber_count (§2.3): non-deactivated subscribers, bots included.
 * Fields that came at a feature level (is_archived at 315, the delete groups at 407, …) are presented at every
 * level: the answer leaves them out for older realms, as the document marks them (http/level-fields.ts).
 */
export function presentChannel(
  tables: StatsTables & Pick<RealmState, 'user_groups'>,
  channel: ChannelRow,
  ctx: PresentChannelContext,
): SchemaOf<'Channel'> {
  const stats = channelStats(tables, channel.stream_id);
  const policy = streamPostPolicy(tables, channel.can_send_message_group);
  const groups: Partial<Pick<SchemaOf<'Channel'>, ChannelGroupSetting>> = {};
  for (const key of CHANNEL_GROUP_SETTINGS) groups[key] = channel[key];
  return {
    stream_id: channel.stream_id,
    name: channel.name,
    description: channel.description,
    rendered_description: channel.rendered_description,
    date_created: channel.date_created,
    creator_id: channel.creator_id,
    invite_only: channel.invite_only,
    is_web_public: channel.is_web_public,
    stream_post_policy: policy,
    is_announcement_only: policy === 2,
    message_retention_days: channel.message_retention_days,
    history_public_to_subscribers: channel.history_public_to_subscribers,
    topics_policy: channel.topics_policy,
    first_message_id: channel.first_message_id !== undefined ? channel.first_message_id : stats.first_message_id,
    folder_id: channel.folder_id,
    is_recently_active: stats.messagesBetween(ctx.now - 7 * DAY, ctx.now) > 0,
    stream_weekly_traffic:
      ctx.now - channel.date_created < 7 * DAY ? null : Math.round(stats.messagesBetween(ctx.now - 28 * DAY, ctx.now) / 4),
    subscriber_count: stats.subscriberCount,
    is_archived: channel.is_archived,
    ...groups,
    // Never gated, so already in `groups` at their place (a key keeps its first position): named again
    // so that the compiler sees the schema's required groups.
    can_add_subscribers_group: channel.can_add_subscribers_group,
    can_administer_channel_group: channel.can_administer_channel_group,
    can_move_messages_out_of_channel_group: channel.can_move_messages_out_of_channel_group,
    can_remove_subscribers_group: channel.can_remove_subscribers_group,
  };
}

/** Spec §2.4 channel folder: every field as stored. */
export function presentFolder(folder: ChannelFolderRow): SchemaOf<'ChannelFolder'> {
  return {
    id: folder.id,
    name: folder.name,
    order: folder.order,
    date_created: folder.date_created,
    creator_id: folder.creator_id,
    description: folder.description,
    rendered_description: folder.rendered_description,
    is_archived: folder.is_archived,
  };
}
