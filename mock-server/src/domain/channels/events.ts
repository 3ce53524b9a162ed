import type { Features } from '../../config/features.js';
import type { ClientView } from '../../contract/client-view.js';
import type { PendingEvent, Tx } from '../../store/store.js';
import type { ChannelRow, SubscriptionRow, UserRow } from '../../store/state.js';
import { canKnowSubscribers, channelMetadataAccess } from '../access.js';
import { presentChannel } from '../present/channels.js';
import { presentSubscription } from '../present/subscriptions.js';
import { activeSubscriberIds } from './subscribers.js';

/**
 * Channel and subscription events (spec §6.4 `stream`, `subscription`, `peer_add`, `peer_remove`; payloads
 * from the reference doc's "Event payloads"). Every payload is computed when emitted, inside the
 * transaction, so a later change cannot leak into an earlier event. Audiences follow access.ts: nobody
 * hears of a channel they may not know (the no-leak rule).
 */

type Event = PendingEvent['event'];

export interface EmitContext {
  tx: Tx;
  features: Features;
  now: number;
}

/** Active accounts (bots included, the system bot not) with metadata access to the channel. */
export function metadataAudience(tx: Tx, channel: ChannelRow): UserRow[] {
  return Object.values(tx.tables.users).filter((u) => u.is_active && !u.is_system_bot && channelMetadataAccess(tx.tables, u, channel));
}

/** §4.21: archived-channel data reaches only clients declaring archived_channels, from level 315. */
function seesArchived(client: ClientView, features: Features): boolean {
  return client.archived_channels && features.has('archived_channels');
}

/** Emits an event about a channel, dropped for clients that must not see it while it is archived. */
function emitAbout(ctx: EmitContext, channel: ChannelRow, event: Event, userIds: number[]): void {
  if (userIds.length === 0) return;
  const archived = channel.is_archived;
  ctx.tx.emit(event, userIds, (client) => (archived && !seesArchived(client, ctx.features) ? null : event));
}

/**
 * `stream` / `create`. `subscriberCount` 0 is for audiences that learn the subscribers from the
 * `peer_add` (or `subscription` / `add`) that follows, so a client never counts anyone twice.
 */
export function emitStreamCreate(ctx: EmitContext, channel: ChannelRow, userIds: number[], subscriberCount?: number): void {
  const stream = presentChannel(ctx.tx.tables, channel, { now: ctx.now });
  if (subscriberCount !== undefined) stream.subscriber_count = subscriberCount;
  emitAbout(ctx, channel, { type: 'stream', op: 'create', streams: [stream] }, userIds);
}

const streamDeleteEvent = (channel: ChannelRow): Event => ({
  type: 'stream',
  op: 'delete',
  streams: [{ stream_id: channel.stream_id }],
  stream_ids: [channel.stream_id],
});

/**
 * Introduces a channel to users who just gained sight of it: `stream` / `create` with no subscribers
 * yet known, then one `peer_add` of every current subscriber, except to `newSubscribers`, whose own
 * `subscription` / `add` carries the list. So each ends up knowing what a fresh register would show.
 */
export function emitChannelIntroduction(
  ctx: EmitContext,
  channel: ChannelRow,
  userIds: number[],
  newSubscribers: readonly number[] = [],
): void {
  if (userIds.length === 0) return;
  emitStreamCreate(ctx, channel, userIds, 0);
  const quiet = userIds.filter((id) => !newSubscribers.includes(id));
  const subscribers = activeSubscriberIds(ctx.tx.tables, channel.stream_id);
  if (quiet.length > 0 && subscribers.length > 0)
    emitAbout(ctx, channel, { type: 'subscription', op: 'peer_add', stream_ids: [channel.stream_id], user_ids: subscribers }, quiet);
}

export function emitStreamDelete(ctx: EmitContext, channel: ChannelRow, userIds: number[]): void {
  emitAbout(ctx, channel, streamDeleteEvent(channel), userIds);
}

/** `stream` / `update`: `name` is the channel's name before the change (a rename's old name). */
export function emitStreamUpdate(
  ctx: EmitContext,
  channel: ChannelRow,
  userIds: number[],
  property: string,
  value: unknown,
  extra: Record<string, unknown> = {},
): void {
  emitAbout(
    ctx,
    channel,
    { type: 'stream', op: 'update', stream_id: channel.stream_id, name: channel.name, property, value, ...extra },
    userIds,
  );
}

/**
 * Archiving and unarchiving (§3, reference §4.16): clients declaring archived_channels get an update of
 * is_archived; the others see the channel vanish (`delete`) or appear again (`create`, and for
 * subscribers their subscription back).
 */
export function emitArchiveChange(ctx: EmitContext, channel: ChannelRow, userIds: number[]): void {
  if (userIds.length === 0) return;
  const { features, tx } = ctx;
  const update: Event = {
    type: 'stream',
    op: 'update',
    stream_id: channel.stream_id,
    name: channel.name,
    property: 'is_archived',
    value: channel.is_archived,
  };
  const legacy: Event = channel.is_archived
    ? streamDeleteEvent(channel)
    : { type: 'stream', op: 'create', streams: [presentChannel(tx.tables, channel, { now: ctx.now })] };
  tx.emit(update, userIds, (client) => (seesArchived(client, features) ? update : legacy));
  if (channel.is_archived) return;
  for (const userId of userIds) {
    const sub = tx.tables.subscriptions[`${userId}:${channel.stream_id}`];
    const user = tx.tables.users[String(userId)];
    // Clients that saw the channel vanish get their subscription back; the others never lost it.
    if (sub?.active && user) emitSubscriptionAddTo(ctx, user, sub, channel, (client) => !seesArchived(client, features));
  }
}

/**
 * `subscription` / `add` with the full subscription object, subscribers included, in the client's
 * notification-setting dialect (§4.21 notification_settings_null), to the clients `wanted` accepts.
 */
function emitSubscriptionAddTo(
  ctx: EmitContext,
  user: UserRow,
  sub: SubscriptionRow,
  channel: ChannelRow,
  wanted: (client: ClientView) => boolean,
): void {
  const make = (notification_settings_null: boolean): Event => ({
    type: 'subscription',
    op: 'add',
    subscriptions: [
      presentSubscription(ctx.tx.tables, sub, channel, user, {
        features: ctx.features,
        client: { notification_settings_null },
        includeSubscribers: true,
        now: ctx.now,
      }),
    ],
  });
  const withNull = make(true);
  const inherited = make(false);
  ctx.tx.emit(withNull, [user.user_id], (client) => (!wanted(client) ? null : client.notification_settings_null ? withNull : inherited));
}

/** `subscription` / `add` to the subscribed user (dropped for clients that must not see an archived channel). */
export function emitSubscriptionAdd(ctx: EmitContext, user: UserRow, sub: SubscriptionRow, channel: ChannelRow): void {
  const archived = channel.is_archived;
  emitSubscriptionAddTo(ctx, user, sub, channel, (client) => !archived || seesArchived(client, ctx.features));
}

/** `subscription` / `remove` to the unsubscribed user. */
export function emitSubscriptionRemove(ctx: EmitContext, userId: number, channel: ChannelRow): void {
  emitAbout(ctx, channel, { type: 'subscription', op: 'remove', subscriptions: [{ name: channel.name, stream_id: channel.stream_id }] }, [
    userId,
  ]);
}

/**
 * `peer_add` / `peer_remove` (reference: ops of `subscription`) to everyone who may know the channel's
 * subscribers, except the users whose own subscription changed (they get `add` / `remove` instead) and
 * `exclude` (who just learnt every subscriber another way). A removed user who still may know the
 * subscribers hears of the others removed in the same request.
 */
export function emitPeers(
  ctx: EmitContext,
  op: 'peer_add' | 'peer_remove',
  channel: ChannelRow,
  changed: number[],
  exclude: ReadonlySet<number> = new Set(),
): void {
  if (changed.length === 0) return;
  const changedSet = new Set(changed);
  const byList = new Map<string, { userIds: number[]; users: number[] }>();
  for (const viewer of Object.values(ctx.tx.tables.users)) {
    if (!viewer.is_active || viewer.is_system_bot || !canKnowSubscribers(ctx.tx.tables, viewer, channel)) continue;
    if ((op === 'peer_add' && changedSet.has(viewer.user_id)) || exclude.has(viewer.user_id)) continue;
    const users = changed.filter((id) => id !== viewer.user_id);
    if (users.length === 0) continue;
    const key = users.join(',');
    const entry = byList.get(key) ?? { userIds: [], users };
    entry.userIds.push(viewer.user_id);
    byList.set(key, entry);
  }
  for (const { userIds, users } of byList.values()) {
    emitAbout(ctx, channel, { type: 'subscription', op, stream_ids: [channel.stream_id], user_ids: users }, userIds);
  }
}
