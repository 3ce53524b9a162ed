import { channelById, visibleChannelByName } from '../domain/channels/lookup.js';
import { badRequest } from '../domain/errors.js';
import { archiveChannel } from '../domain/channels/archive.js';
import { listChannels, type ChannelListFlags } from '../domain/channels/list.js';
import { updateChannel } from '../domain/channels/update.js';
import type { UpdateChannelParams } from '../domain/channels/update-plan.js';
import { channelTopics } from '../domain/messages/topic-ops.js';
import { presentChannel } from '../domain/present/channels.js';
import { CHANNEL_GROUP_SETTINGS } from '../store/state.js';
import { defineRoutes, transactAs } from '../http/define-routes.js';

/** Channels: §4.11, §4.15, §4.16 and the companions get-stream and archive-stream. */
export default defineRoutes([
  {
    operationId: 'get-streams',
    handle: ({ tables, realm, actor, params, features, now }) => {
      // Parameters newer than the realm's level are absent: their defaults apply (§9 levels 315, 356).
      const flags = { exclude_archived: true, include_all: false, ...params } as unknown as ChannelListFlags;
      return { streams: listChannels(tables, realm, actor!.user, flags, features, now) };
    },
  },
  {
    operationId: 'get-stream',
    handle: ({ tables, actor, params, features, now }) => {
      const channel = channelById(tables, actor!.user, params.stream_id as number, { access: 'metadata', archived: features.has('archived_channels') });
      return { stream: presentChannel(tables, channel, features, { now }) };
    },
  },
  {
    operationId: 'get-stream-id',
    handle: ({ tables, actor, params }) => {
      const name = String(params.stream).trim();
      const channel = visibleChannelByName(tables, actor!.user, name, false);
      if (!channel) throw badRequest(`Invalid channel name '${name}'`);
      return { stream_id: channel.stream_id };
    },
  },
  {
    operationId: 'update-stream',
    handle: async (ctx) => {
      const { params } = ctx;
      const groups: UpdateChannelParams['groups'] = {};
      for (const setting of CHANNEL_GROUP_SETTINGS) if (params[setting] !== undefined) groups[setting] = params[setting] as never;
      await transactAs(ctx, (tx, actor) => updateChannel(tx, actor, { ...(params as unknown as UpdateChannelParams), groups }));
      return {};
    },
  },
  {
    operationId: 'archive-stream',
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => archiveChannel(tx, actor, ctx.params.stream_id as number));
      return {};
    },
  },
  {
    operationId: 'get-stream-topics',
    handle: ({ tables, actor, params }) => ({
      topics: channelTopics(tables, actor!.user, params.stream_id as number, params.allow_empty_topic_name === true),
    }),
  },
]);
