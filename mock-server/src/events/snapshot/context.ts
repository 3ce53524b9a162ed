import type { Features } from '../../config/features.js';
import type { ClientView } from '../../contract/client-view.js';
import type { IncludeSubscribers } from '../../domain/present/subscriptions.js';
import type { ChannelRow, RealmState, UserRow } from '../../store/state.js';

/**
 * What register asked for (spec §4.21). It lives here, beside the context that carries it, so the
 * snapshot helpers need nothing from register-state.ts, which assembles them.
 */
export interface SnapshotOptions {
  fetchEventTypes: ReadonlySet<string> | null; // null = everything
  eventTypes: ReadonlySet<string> | null; // null = everything; decides unread_msgs (C22)
  client: ClientView;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  includeSubscribers: IncludeSubscribers;
  slimPresence: boolean;
  presenceHistoryLimitDays: number;
  /** The server's upload limit (register's max_file_upload_size_mib, area live); absent: the default configuration's. */
  maxFileUploadMib?: number;
  now: number;
  features: Features;
}

/** What every snapshot helper needs: the tables, the viewer (null for a spectator, C21) and the options. */
export interface SnapshotContext {
  tables: RealmState;
  viewer: UserRow | null;
  options: SnapshotOptions;
}

/**
 * Spec §4.21: without the archived_channels capability archived-channel data is left out; below
 * level 315 (§9) archived channels did not appear in listings at all.
 */
export function showsArchived(ctx: SnapshotContext): boolean {
  return ctx.options.client.archived_channels && ctx.options.features.has('archived_channels');
}

export function visibleChannel(ctx: SnapshotContext, channel: ChannelRow | undefined): channel is ChannelRow {
  return channel !== undefined && (!channel.is_archived || showsArchived(ctx));
}

export const byNumber = (a: number, b: number): number => a - b;
