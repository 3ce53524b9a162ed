import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ChannelRow, UserRow } from '../../store/state.js';
import { CHANNEL_GROUP_SETTINGS } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { channelMetadataAccess } from '../access.js';
import { renderMarkdown } from '../markdown.js';
import { presentChannel, streamPostPolicy } from '../present/channels.js';
import {
  emitArchiveChange,
  emitChannelIntroduction,
  emitStreamDelete,
  emitStreamUpdate,
  metadataAudience,
  type EmitContext,
} from './events.js';
import { planChannelUpdate, type UpdateChannelParams } from './update-plan.js';

/** PATCH /streams/{stream_id} (§4.16): the permission settings arrive one field each and change as one set. */
export function doUpdateStream(tx: Tx, actor: ActorContext, params: ParamsOf<'update-stream'>): void {
  const groups: UpdateChannelParams['groups'] = {};
  for (const setting of CHANNEL_GROUP_SETTINGS) {
    const update = params[setting];
    if (update !== undefined) groups[setting] = update;
  }
  updateChannel(tx, actor, { ...params, groups });
}

/**
 * PATCH /streams/{stream_id} (spec §4.16), applying half: the plan is checked in full first (nothing is
 * applied unless every check passes), then one row replacement and the events the reference doc lists
 * (`stream` / `update` per property; privacy changes also move the channel in or out of people's view).
 */
export function updateChannel(tx: Tx, actor: ActorContext, params: UpdateChannelParams): void {
  const plan = planChannelUpdate(tx.tables, actor.realm, actor.user, params, actor.features);
  const before = plan.channel;
  const next: ChannelRow = { ...before, ...plan.fields, ...plan.groups };
  if (plan.fields.description !== undefined)
    next.rendered_description = renderMarkdown(plan.fields.description, { tables: tx.tables, author: actor.user });
  if (plan.privacy) Object.assign(next, plan.privacy);
  if (plan.retention) next.message_retention_days = plan.retention.value;
  if (plan.unarchive) next.is_archived = false;

  const ctx: EmitContext = { tx, features: actor.features, now: actor.now };
  const ids = (users: UserRow[]) => users.map((u) => u.user_id);
  const seenBefore = new Set(ids(metadataAudience(tx, before)));
  tx.put('channels', next.stream_id, next);
  if (plan.isDefault !== null) setDefault(tx, ctx, next, plan.isDefault);
  const seenAfter = ids(metadataAudience(tx, next));
  const both = seenAfter.filter((id) => seenBefore.has(id));

  if (plan.unarchive) emitArchiveChange(ctx, next, seenAfter);
  // A rename's event carries the old name in `name` (reference "Events").
  if (plan.fields.name !== undefined) emitStreamUpdate(ctx, before, both, 'name', next.name);
  if (plan.fields.description !== undefined) {
    emitStreamUpdate(ctx, next, both, 'description', next.description, { rendered_description: next.rendered_description });
  }
  if (plan.privacy) emitPrivacyChange(ctx, before, next, seenBefore, seenAfter);
  if (plan.retention) emitStreamUpdate(ctx, next, both, 'message_retention_days', next.message_retention_days);
  if (plan.fields.folder_id !== undefined) emitStreamUpdate(ctx, next, both, 'folder_id', next.folder_id);
  if (plan.fields.topics_policy !== undefined) emitStreamUpdate(ctx, next, both, 'topics_policy', next.topics_policy);
  for (const setting of CHANNEL_GROUP_SETTINGS) {
    if (plan.groups[setting] !== undefined) emitStreamUpdate(ctx, next, both, setting, next[setting]);
  }
  // The deprecated fields derived from can_send_message_group (§2.2, level 333) follow it, so a client
  // that reads them never disagrees with one that reads the replacement.
  if (plan.groups.can_send_message_group !== undefined) {
    const was = streamPostPolicy(tx.tables, before.can_send_message_group);
    const now = streamPostPolicy(tx.tables, next.can_send_message_group);
    if (was !== now) {
      emitStreamUpdate(ctx, next, both, 'stream_post_policy', now);
      if ((was === 2) !== (now === 2)) emitStreamUpdate(ctx, next, both, 'is_announcement_only', now === 2);
    }
  }
}

/**
 * One `stream` / `update` of `invite_only` carrying the other two privacy fields (reference "Events") to
 * those who see the channel before and after; `delete` to those who lose sight of it; an introduction
 * (`create` + `peer_add`) to those who gain it.
 */
function emitPrivacyChange(ctx: EmitContext, before: ChannelRow, next: ChannelRow, seenBefore: Set<number>, seenAfter: number[]): void {
  const after = new Set(seenAfter);
  const keep = seenAfter.filter((id) => seenBefore.has(id));
  const lost = [...seenBefore].filter((id) => !after.has(id));
  const gained = seenAfter.filter((id) => !seenBefore.has(id));
  emitStreamUpdate(ctx, next, keep, 'invite_only', next.invite_only, {
    history_public_to_subscribers: next.history_public_to_subscribers,
    is_web_public: next.is_web_public,
  });
  if (lost.length > 0) emitStreamDelete(ctx, before, lost);
  emitChannelIntroduction(ctx, next, gained);
}

/** is_default_stream (§4.16): the realm's list changes; everyone gets their view of the new list. */
export function setDefault(tx: Tx, ctx: EmitContext, channel: ChannelRow, isDefault: boolean): void {
  const realm = tx.tables.realm.realm;
  const others = realm.default_stream_ids.filter((id) => id !== channel.stream_id);
  const ids = isDefault ? [...others, channel.stream_id].sort((a, b) => a - b) : others;
  tx.put('realm', 'realm', { ...realm, default_stream_ids: ids });
  emitDefaultStreams(
    ctx,
    Object.values(tx.tables.users).filter((u) => u.is_active && !u.is_system_bot),
  );
}

/**
 * `default_streams` (reference "Event payloads") with the default channels each user may know, as the
 * register snapshot lists them; also sent when a user gains or loses sight of a default channel.
 */
export function emitDefaultStreams(ctx: EmitContext, users: UserRow[]): void {
  const { tx } = ctx;
  const defaults = tx.tables.realm.realm.default_stream_ids
    .map((id) => tx.tables.channels[String(id)])
    .filter((c): c is ChannelRow => c !== undefined && !c.is_archived);
  const groups = new Map<string, { ids: number[]; channels: ChannelRow[] }>();
  for (const user of users) {
    const visible = defaults.filter((c) => channelMetadataAccess(tx.tables, user, c));
    const key = visible.map((c) => c.stream_id).join(',');
    const group = groups.get(key) ?? { ids: [], channels: visible };
    group.ids.push(user.user_id);
    groups.set(key, group);
  }
  for (const { ids, channels } of groups.values()) {
    tx.emit(
      {
        type: 'default_streams',
        default_streams: channels.map((c) => presentChannel(tx.tables, c, { now: ctx.now })),
      },
      ids,
    );
  }
}
