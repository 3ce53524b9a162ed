import { indexOf } from '../../store/indexes.js';
import type { Tx } from '../../store/store.js';
import type { ChannelRow, SubscriptionRow, UserRow } from '../../store/state.js';
import {
  emitChannelIntroduction,
  emitPeers,
  emitStreamDelete,
  emitSubscriptionAdd,
  emitSubscriptionRemove,
  metadataAudience,
  type EmitContext,
} from '../channels/events.js';
import { emitDefaultStreams } from '../channels/update.js';
import { markRead } from '../messages/flags.js';
import { defaultColor, newSubscriptionRow } from './principals.js';

/**
 * Adding and removing subscriptions, with their events, for one channel at a time. Shared by subscribe,
 * unsubscribe and channel creation. Access can change with a subscription (a private channel), so the
 * audience is taken before and after: whoever gains sight of the channel gets `stream` / `create`,
 * whoever loses it `stream` / `delete`.
 */

/**
 * At least the newest message's ID and below any future one: the message sequence's last issued ID
 * (IDs only grow), read without a scan of the realm's messages.
 */
function newestMessageId(tx: Tx): number {
  return (tx.tables.counters.counters.messages ?? 1) - 1;
}

/** Subscribes `users` (none already subscribed) to `channel`; `created` when the channel is new. */
export function addSubscribers(ctx: EmitContext, channel: ChannelRow, users: UserRow[], created: boolean): void {
  const { tx } = ctx;
  if (users.length === 0 && !created) return;
  const seenBefore = new Set(created ? [] : metadataAudience(tx, channel).map((u) => u.user_id));
  const after = newestMessageId(tx);
  const rows: [UserRow, SubscriptionRow][] = [];
  for (const user of users) {
    const key = `${user.user_id}:${channel.stream_id}`;
    const old = tx.tables.subscriptions[key];
    // A returning subscriber keeps their personal settings (colour, muting) from before.
    const row: SubscriptionRow = old
      ? { ...old, active: true, subscribed_after_message_id: after }
      : newSubscriptionRow(user.user_id, channel.stream_id, defaultColor(channel.stream_id), after);
    tx.put('subscriptions', key, row);
    rows.push([user, row]);
  }
  const gained = metadataAudience(tx, channel)
    .map((u) => u.user_id)
    .filter((id) => !seenBefore.has(id));
  const added = rows.map(([u]) => u.user_id);
  emitChannelIntroduction(ctx, channel, gained, added);
  followDefaultStreams(ctx, channel, gained);
  for (const [user, row] of rows) emitSubscriptionAdd(ctx, user, row, channel);
  // Everyone else who may know the subscribers hears of the new ones; newcomers already know them all.
  emitPeers(ctx, 'peer_add', channel, added, new Set(gained));
}

/**
 * Unsubscribes `users` (all currently subscribed). The channel's messages become read for them (the
 * reference server marks them read on unsubscribing, so no unread count is left behind that a client
 * could not clear), then `subscription` / `remove`, `stream` / `delete` for those who lost sight of a
 * private channel, and `peer_remove` to whoever may still know its subscribers.
 */
export function removeSubscribers(ctx: EmitContext, channel: ChannelRow, users: UserRow[]): void {
  const { tx } = ctx;
  if (users.length === 0) return;
  const seenBefore = metadataAudience(tx, channel).map((u) => u.user_id);
  for (const user of users) {
    const key = `${user.user_id}:${channel.stream_id}`;
    tx.put('subscriptions', key, { ...tx.tables.subscriptions[key]!, active: false });
  }
  const seenAfter = new Set(metadataAudience(tx, channel).map((u) => u.user_id));
  const index = indexOf(tx.tables);
  for (const user of users) {
    // Only the user's unread messages can change: walk those of the channel (a copy, as marking changes the index).
    const unread = index.receipts.of(user.user_id).unread.toArray();
    markRead(
      tx,
      user.user_id,
      unread.filter((id) => tx.tables.messages[String(id)]?.stream_id === channel.stream_id),
    );
    emitSubscriptionRemove(ctx, user.user_id, channel);
  }
  const lost = seenBefore.filter((id) => !seenAfter.has(id));
  if (lost.length > 0) emitStreamDelete(ctx, channel, lost);
  followDefaultStreams(ctx, channel, lost);
  emitPeers(
    ctx,
    'peer_remove',
    channel,
    users.map((u) => u.user_id),
  );
}

/** Users who gain or lose sight of a default channel see their default-channel list change. */
function followDefaultStreams(ctx: EmitContext, channel: ChannelRow, userIds: number[]): void {
  if (userIds.length === 0 || !ctx.tx.tables.realm.realm.default_stream_ids.includes(channel.stream_id)) return;
  emitDefaultStreams(
    ctx,
    userIds.map((id) => ctx.tx.tables.users[String(id)]!),
  );
}
