import { doUpdateStream } from '../domain/channels/update.js';
import { doArchiveStream } from '../domain/channels/archive.js';
import { channelById, visibleChannelByName } from '../domain/channels/lookup.js';
import { badRequest } from '../domain/errors.js';
import { listChannels } from '../domain/channels/list.js';
import { channelTopics } from '../domain/messages/topic-ops.js';
import { presentChannel } from '../domain/present/channels.js';
import { defineAction, defineRoute, type RouteSpec } from '../http/define-routes.js';

/** Channels: §4.11, §4.15, §4.16 and the companions get-stream and archive-stream. */
const routes: RouteSpec[] = [
  defineRoute('get-streams', {
    // Per caller (subscriptions, role, bot owner); is_recently_active and the weekly traffic follow the time.
    cache: { caller: 'user', time: true },
    handle: ({ tables, realm, actor, params, features, now }) => {
      // Parameters newer than the realm's level are absent: their defaults apply (§9 levels 315, 356).
      const flags = { ...params, exclude_archived: params.exclude_archived ?? true, include_all: params.include_all ?? false };
      return { streams: listChannels(tables, realm, actor.user, flags, features, now) };
    },
  }),
  defineRoute('get-stream', {
    handle: ({ tables, actor, params, features, now }) => {
      const channel = channelById(tables, actor.user, params.stream_id, {
        access: 'metadata',
        archived: features.has('archived_channels'),
      });
      return { stream: presentChannel(tables, channel, { now }) };
    },
  }),
  defineRoute('get-stream-id', {
    handle: ({ tables, actor, params }) => {
      const name = params.stream.trim();
      const channel = visibleChannelByName(tables, actor.user, name, false);
      if (!channel) throw badRequest(`Invalid channel name '${name}'`);
      return { stream_id: channel.stream_id };
    },
  }),
  defineAction('update-stream', doUpdateStream),
  defineAction('archive-stream', doArchiveStream),
  defineRoute('get-stream-topics', {
    handle: ({ tables, actor, params }) => ({
      topics: channelTopics(tables, actor.user, params.stream_id, params.allow_empty_topic_name === true),
    }),
  }),
];

export default routes;
