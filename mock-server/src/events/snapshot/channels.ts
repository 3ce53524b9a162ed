import { channelMetadataAccess } from '../../domain/access.js';
import { presentChannel, presentFolder } from '../../domain/present/channels.js';
import { presentSubscription, subscriberKeys } from '../../domain/present/subscriptions.js';
import type { ChannelRow } from '../../store/state.js';
import { visibleChannel } from './context.js';
import type { SnapshotContext } from './context.js';

/** Channels in ID order, archived ones dropped when the client may not see them (§4.21). */
function channels(ctx: SnapshotContext): ChannelRow[] {
  return Object.values(ctx.tables.channels)
    .filter((c) => visibleChannel(ctx, c))
    .sort((a, b) => a.stream_id - b.stream_id);
}

/**
 * Type `subscription` (§4.21): `subscriptions` (active rows, §2.3), `unsubscribed` (rows the viewer
 * left, while they still may know the channel) and `never_subscribed` (channels the viewer can see, §2.2 metadata access, without any row).
 * A spectator has no subscriptions; it sees the web-public channels as never subscribed.
 */
export function subscriptionKeys(ctx: SnapshotContext): Record<string, unknown> {
  const { tables, viewer, options } = ctx;
  const subOpts = {
    features: options.features,
    client: options.client,
    includeSubscribers: options.includeSubscribers,
    now: options.now,
  };
  const subscriptions: unknown[] = [];
  const unsubscribed: unknown[] = [];
  const never: unknown[] = [];
  for (const channel of channels(ctx)) {
    const row = viewer ? tables.subscriptions[`${viewer.user_id}:${channel.stream_id}`] : undefined;
    if (row?.active) subscriptions.push(presentSubscription(tables, row, channel, viewer, subOpts));
    else if (!channelMetadataAccess(tables, viewer, channel)) continue;
    // A former subscriber of a private channel who no longer has access no longer sees it at all.
    else if (row) unsubscribed.push(presentSubscription(tables, row, channel, viewer, subOpts));
    else {
      // §2.3 subscribers on never-subscribed channels follow the same include_subscribers rules.
      never.push(presentChannelWithSubscribers(ctx, channel));
    }
  }
  return { subscriptions, unsubscribed, never_subscribed: never };
}

function presentChannelWithSubscribers(ctx: SnapshotContext, channel: ChannelRow): Record<string, unknown> {
  const { tables, viewer, options } = ctx;
  const out = presentChannel(tables, channel, { now: options.now });
  return Object.assign(out, subscriberKeys(tables, channel, viewer, options));
}

/** Type `stream` (§4.21): every channel the viewer has metadata access to (spectators: web-public). */
export function streamKeys(ctx: SnapshotContext): Record<string, unknown> {
  const { tables, viewer, options } = ctx;
  return {
    streams: channels(ctx)
      .filter((c) => channelMetadataAccess(tables, viewer, c))
      .map((c) => presentChannel(tables, c, { now: options.now })),
  };
}

/** Type `channel_folders` (§4.21): spectators see only folders holding a web-public channel they can see. */
export function folderKeys(ctx: SnapshotContext): Record<string, unknown> {
  const { tables, viewer } = ctx;
  let folders = Object.values(tables.channel_folders).sort((a, b) => a.id - b.id);
  if (viewer === null) {
    const shown = new Set(
      channels(ctx)
        .filter((c) => c.is_web_public && c.folder_id !== null)
        .map((c) => c.folder_id),
    );
    folders = folders.filter((f) => shown.has(f.id));
  }
  return { channel_folders: folders.map(presentFolder) };
}

/**
 * Type `default_streams` (reference "keys per fetched type"): the realm's default channels as channel
 * objects, those the viewer may know. Default channels are never private (§4.16), so everyone sees them.
 */
export function defaultStreamKeys(ctx: SnapshotContext): Record<string, unknown> {
  const { tables, viewer, options } = ctx;
  const ids = new Set(tables.realm.realm.default_stream_ids);
  return {
    realm_default_streams: channels(ctx)
      .filter((c) => ids.has(c.stream_id) && channelMetadataAccess(tables, viewer, c))
      .map((c) => presentChannel(tables, c, { now: options.now })),
  };
}
