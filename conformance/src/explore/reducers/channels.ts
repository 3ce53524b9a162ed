import {
  ascending,
  byKey,
  idsOf,
  numbers,
  removeOne,
  rows,
  unhandled,
  upsertAll,
  type PolledEvent,
  type ReduceContext,
  type Reducers,
  type Row,
  type Snapshot,
} from './rows.js';
import { channelMuted, parkChannel, reducerState, remute, settle, unparkChannel } from './unread.js';

/**
 * Channels and subscriptions (zulip.yaml `stream`, `subscription`, `default_streams`), in both shapes a
 * server sends: peer events with `stream_ids` / `user_ids` or, at old levels, one `stream_id` / `user_id`;
 * `stream` / `delete` with `stream_ids` or only `streams`. A client keeps one record per channel, so a
 * change reaches every list that holds the channel.
 */

/** Every list of channel objects in a snapshot. */
export const CHANNEL_LISTS = ['streams', 'subscriptions', 'unsubscribed', 'never_subscribed', 'realm_default_streams'];

function channelRows(s: Snapshot, streamId: unknown): Row[] {
  return CHANNEL_LISTS.flatMap((key) => rows(s[key]).filter((row) => row.stream_id === streamId));
}

function peer(row: Row, op: string, userIds: number[]): void {
  const ids = new Set(numbers(row.subscribers));
  const before = ids.size;
  for (const id of userIds) {
    if (op === 'peer_add') ids.add(id);
    else ids.delete(id);
  }
  if (Array.isArray(row.subscribers)) {
    row.subscribers = ascending(ids);
    // With the list known, the count follows it (an event naming someone already counted changes nothing).
    if (typeof row.subscriber_count === 'number') row.subscriber_count += ids.size - before;
  } else if (typeof row.subscriber_count === 'number') {
    row.subscriber_count += (op === 'peer_add' ? 1 : -1) * userIds.length;
  }
}

/** The subscription properties that come in pairs: the legacy `in_home_view` is `is_muted` negated. */
function setProperty(sub: Row, property: string, value: unknown): void {
  sub[property] = value;
  if (property === 'in_home_view' && 'is_muted' in sub) sub.is_muted = value !== true;
  if (property === 'is_muted' && 'in_home_view' in sub) sub.in_home_view = value !== true;
}

function onSubscription(s: Snapshot, e: PolledEvent, ctx: ReduceContext): void {
  if (e.op === 'peer_add' || e.op === 'peer_remove') {
    const users = idsOf(e, 'user_ids', 'user_id');
    for (const id of idsOf(e, 'stream_ids', 'stream_id')) for (const row of channelRows(s, id)) peer(row, e.op, users);
  } else if (e.op === 'update') {
    const sub = byKey(s.subscriptions, 'stream_id').get(e.stream_id);
    const wasMuted = channelMuted(s, e.stream_id);
    if (sub) setProperty(sub, e.property as string, e.value);
    remute(s, e.stream_id as number, wasMuted);
    settle(s);
  } else if (e.op === 'add') {
    for (const added of rows(e.subscriptions)) {
      const sub = structuredClone(added);
      if (!ctx.includeSubscribers) delete sub.subscribers;
      const neverSubscribed = rows(s.never_subscribed).some((r) => r.stream_id === sub.stream_id);
      const wasSubscribed = rows(s.subscriptions).some((r) => r.stream_id === sub.stream_id);
      removeOne(s, 'never_subscribed', 'stream_id', sub.stream_id);
      removeOne(s, 'unsubscribed', 'stream_id', sub.stream_id);
      if ('subscriptions' in s) upsertAll(s, 'subscriptions', 'stream_id', [sub]);
      // One record per channel in a client: the channel list follows the subscription's count.
      for (const row of channelRows(s, sub.stream_id)) row.subscriber_count = sub.subscriber_count;
      if (!wasSubscribed) unparkChannel(s, sub.stream_id as number, { empty: sub.first_message_id === null, neverSubscribed });
    }
    settle(s);
  } else if (e.op === 'remove') {
    const me = s.user_id as number;
    for (const { stream_id: id } of rows(e.subscriptions)) {
      const sub = byKey(s.subscriptions, 'stream_id').get(id);
      removeOne(s, 'subscriptions', 'stream_id', id);
      if (sub && 'unsubscribed' in s) upsertAll(s, 'unsubscribed', 'stream_id', [sub]);
      for (const row of channelRows(s, id)) peer(row, 'peer_remove', [me]);
      parkChannel(s, id as number);
    }
    settle(s);
  } else unhandled(e);
}

/** Fields of a channel that a `stream` / `update` may carry beside its property (reference: rendered_description, …). */
const UPDATE_EXTRAS = ['rendered_description', 'history_public_to_subscribers', 'is_web_public'] as const;

function onStream(s: Snapshot, e: PolledEvent, ctx: ReduceContext): void {
  if (e.op === 'create') {
    for (const stream of rows(e.streams)) {
      if ('streams' in s) upsertAll(s, 'streams', 'stream_id', [structuredClone(stream)]);
      // A channel back in view (unarchived, for a client without archived_channels): the user's row of it
      // returns to the list it left, with the channel as it is now.
      const hidden = reducerState(s).hidden[String(stream.stream_id)];
      if (hidden) {
        delete reducerState(s).hidden[String(stream.stream_id)];
        // A create counting no subscribers announces them with peer_add events, as for a channel the client
        // never knew (made public again): the list kept from before would count them twice. One that counts
        // them (unarchived) keeps the list.
        const fresh = structuredClone(stream);
        const restart = ctx.includeSubscribers && fresh.subscriber_count === 0;
        const row = { ...hidden.row, ...fresh, ...(restart ? { subscribers: [] } : {}) };
        if (hidden.list in s) upsertAll(s, hidden.list, 'stream_id', [row]);
        continue;
      }
      const known = [...rows(s.subscriptions), ...rows(s.unsubscribed)].some((r) => r.stream_id === stream.stream_id);
      // A client cannot know the subscribers of a channel it just learnt of: peer_add events follow.
      if (!known && !rows(s.never_subscribed).some((r) => r.stream_id === stream.stream_id))
        reducerState(s).introduced.push(stream.stream_id as number);
      if (!known && 'never_subscribed' in s)
        upsertAll(s, 'never_subscribed', 'stream_id', [
          { ...structuredClone(stream), ...(ctx.includeSubscribers ? { subscribers: [] } : {}) },
        ]);
    }
  } else if (e.op === 'delete') {
    // A channel gone from a client's view (deleted, or archived for a client without archived_channels):
    // gone from every list; its unread messages are kept aside in case it comes back.
    const ids = e.stream_ids !== undefined ? numbers(e.stream_ids) : rows(e.streams).map((r) => r.stream_id as number);
    for (const id of ids) {
      parkChannel(s, id);
      for (const list of ['unsubscribed', 'never_subscribed'] as const) {
        const row = rows(s[list]).find((r) => r.stream_id === id);
        if (row) reducerState(s).hidden[String(id)] = { list, row };
      }
      for (const key of CHANNEL_LISTS) removeOne(s, key, 'stream_id', id);
    }
    settle(s);
  } else if (e.op === 'update') {
    for (const row of channelRows(s, e.stream_id)) {
      row[e.property as string] = e.value;
      for (const extra of UPDATE_EXTRAS) if (extra in e) row[extra] = e[extra];
    }
  } else unhandled(e);
}

export const channelReducers: Reducers = {
  subscription: onSubscription,
  stream: onStream,
  default_streams: (s, e) => {
    s.realm_default_streams = structuredClone(e.default_streams);
  },
};
