/**
 * Test-only: applies delivered events to a register snapshot, the way a client keeps its state
 * (ARCHITECTURE "invariant test"). If the server's events are complete and right, applying them to
 * the snapshot taken before a change gives the snapshot taken after it. An event type this reducer does
 * not know fails loudly: whoever adds an event type adds its reducer here (the user events: apply-people-events.ts).
 */
type EventType = string;
import { byKey, removeOne, unhandled, upsertAll, type Reducers, type Row, type Snapshot } from './snapshot-rows.js';
import { peopleReducers } from './apply-people-events.js';
import { flagReducers } from './apply-flag-events.js';

const reducers: Reducers = {
  ...peopleReducers,
  heartbeat: () => {},
  saved_snippets: (s, e) => {
    if (e.op === 'remove') removeOne(s, 'saved_snippets', 'id', e.saved_snippet_id);
    else upsertAll(s, 'saved_snippets', 'id', [e.saved_snippet as Row]);
  },
  // Clients keep drafts as the snapshot lists them: newest first, ties by ID, newest first.
  drafts: (s, e) => {
    if (e.op === 'remove') removeOne(s, 'drafts', 'id', e.draft_id);
    else if (e.op === 'add' || e.op === 'update') upsertAll(s, 'drafts', 'id', e.op === 'add' ? (e.drafts as Row[]) : [e.draft as Row]);
    else unhandled(e);
    (s.drafts as Row[]).sort((a, b) => (b.timestamp as number) - (a.timestamp as number) || (b.id as number) - (a.id as number));
  },
  navigation_view: (s, e) => {
    if (e.op === 'remove') removeOne(s, 'navigation_views', 'fragment', e.fragment);
    else if (e.op === 'add') {
      upsertAll(s, 'navigation_views', 'fragment', [e.navigation_view as Row]);
      // The server lists views by fragment (domain/navigation-views.ts), so a client keeps that order.
      ((s.navigation_views ?? []) as Row[]).sort((a, b) =>
        String(a.fragment) < String(b.fragment) ? -1 : String(a.fragment) > String(b.fragment) ? 1 : 0,
      );
    } else {
      const view = byKey(s.navigation_views, 'fragment').get(e.fragment);
      if (view) Object.assign(view, e.data);
    }
  },
  // Clients keep both lists in delivery order (reference §2), ties by ID.
  scheduled_messages: (s, e) => {
    if (e.op === 'remove') removeOne(s, 'scheduled_messages', 'scheduled_message_id', e.scheduled_message_id);
    else if (e.op === 'add' || e.op === 'update')
      upsertAll(
        s,
        'scheduled_messages',
        'scheduled_message_id',
        e.op === 'add' ? (e.scheduled_messages as Row[]) : [e.scheduled_message as Row],
      );
    else unhandled(e);
    sortByDelivery(s, 'scheduled_messages', 'scheduled_message_id');
  },
  reminders: (s, e) => {
    if (e.op === 'remove') removeOne(s, 'reminders', 'reminder_id', e.reminder_id);
    else if (e.op === 'add') upsertAll(s, 'reminders', 'reminder_id', e.reminders as Row[]);
    else unhandled(e);
    sortByDelivery(s, 'reminders', 'reminder_id');
  },
  realm_linkifiers: (s, e) => {
    s.realm_linkifiers = e.realm_linkifiers;
  },
  subscription: (s, e) => {
    if (e.op === 'peer_add' || e.op === 'peer_remove') {
      for (const id of e.stream_ids as number[]) for (const row of channelRows(s, id)) peer(row, e.op, e.user_ids as number[]);
    } else if (e.op === 'update') {
      const sub = byKey(s.subscriptions, 'stream_id').get(e.stream_id);
      if (sub) sub[e.property as string] = e.value;
      recountUnread(s);
    } else if (e.op === 'add') {
      for (const sub of e.subscriptions as Row[]) {
        removeOne(s, 'never_subscribed', 'stream_id', sub.stream_id);
        removeOne(s, 'unsubscribed', 'stream_id', sub.stream_id);
        upsertAll(s, 'subscriptions', 'stream_id', [structuredClone(sub)]);
        // One record per channel in a client: the channel list follows the subscription's count.
        for (const row of channelRows(s, sub.stream_id as number)) row.subscriber_count = sub.subscriber_count;
      }
    } else if (e.op === 'remove') {
      const me = s.user_id as number;
      for (const { stream_id: id } of e.subscriptions as Row[]) {
        const sub = byKey(s.subscriptions, 'stream_id').get(id);
        removeOne(s, 'subscriptions', 'stream_id', id);
        if (sub) upsertAll(s, 'unsubscribed', 'stream_id', [sub]);
        for (const row of channelRows(s, id as number)) peer(row, 'peer_remove', [me]);
        dropUnreadOf(s, id as number);
      }
    } else unhandled(e);
  },
  stream: (s, e) => {
    if (e.op === 'create') {
      for (const stream of e.streams as Row[]) {
        upsertAll(s, 'streams', 'stream_id', [structuredClone(stream)]);
        const known = [...((s.subscriptions ?? []) as Row[]), ...((s.unsubscribed ?? []) as Row[])].some(
          (r) => r.stream_id === stream.stream_id,
        );
        // A client cannot know the subscribers of a channel it just learnt of: peer_add events follow.
        if (!known) upsertAll(s, 'never_subscribed', 'stream_id', [{ ...structuredClone(stream), subscribers: [] }]);
      }
    } else if (e.op === 'delete') {
      for (const id of e.stream_ids as number[]) {
        removeOne(s, 'streams', 'stream_id', id);
        removeOne(s, 'never_subscribed', 'stream_id', id);
        removeOne(s, 'unsubscribed', 'stream_id', id);
        removeOne(s, 'realm_default_streams', 'stream_id', id);
      }
    } else if (e.op === 'update') {
      for (const row of channelRows(s, e.stream_id as number)) {
        row[e.property as string] = e.value;
        for (const extra of ['rendered_description', 'history_public_to_subscribers', 'is_web_public'] as const)
          if (extra in e) row[extra] = e[extra];
      }
    } else unhandled(e);
  },
  default_streams: (s, e) => {
    s.realm_default_streams = e.default_streams;
  },
  message: (s, e) => {
    const m = e.message as Row;
    const flags = e.flags as string[];
    s.max_message_id = Math.max(s.max_message_id as number, m.id as number);
    if (m.type === 'private') updateRecentConversations(s, m);
    if (!flags.includes('read')) addUnread(s, m, flags);
  },
  // Companion tier, area flags-reactions: update_message_flags (read, unread, all) and reaction.
  ...flagReducers(recountUnread),
};

function sortByDelivery(s: Snapshot, field: string, key: string): void {
  const rows = (s[field] ?? []) as Row[];
  rows.sort(
    (a, b) =>
      (a.scheduled_delivery_timestamp as number) - (b.scheduled_delivery_timestamp as number) || (a[key] as number) - (b[key] as number),
  );
}

/** Every list of channel objects in a snapshot, and in each the row of one channel. */
const CHANNEL_LISTS = ['streams', 'subscriptions', 'unsubscribed', 'never_subscribed', 'realm_default_streams'];
function channelRows(s: Snapshot, streamId: number): Row[] {
  return CHANNEL_LISTS.flatMap((key) => ((s[key] ?? []) as Row[]).filter((row) => row.stream_id === streamId));
}

function peer(row: Row, op: string, userIds: number[]): void {
  const ids = new Set((row.subscribers ?? []) as number[]);
  for (const id of userIds) {
    if (op === 'peer_add') ids.add(id);
    else ids.delete(id);
  }
  if (row.subscribers) row.subscribers = [...ids].sort((a, b) => a - b);
  row.subscriber_count = (row.subscriber_count as number) + (op === 'peer_add' ? 1 : -1) * userIds.length;
}

type Unread = { count: number; pms: Row[]; streams: Row[]; huddles: Row[]; mentions: number[] };

/** count: direct messages plus channel messages outside muted channels (§2.13). */
function recountUnread(s: Snapshot): void {
  const unread = s.unread_msgs as Unread | undefined;
  if (!unread) return;
  const muted = new Set(((s.subscriptions ?? []) as Row[]).filter((r) => r.is_muted).map((r) => r.stream_id));
  const size = (rows: Row[]) => rows.reduce((n, r) => n + (r.unread_message_ids as number[]).length, 0);
  unread.count = size(unread.pms) + size(unread.huddles) + size(unread.streams.filter((r) => !muted.has(r.stream_id)));
}

function dropUnreadOf(s: Snapshot, streamId: number): void {
  const unread = s.unread_msgs as Unread | undefined;
  if (!unread) return;
  const gone = new Set(unread.streams.filter((r) => r.stream_id === streamId).flatMap((r) => r.unread_message_ids as number[]));
  unread.streams = unread.streams.filter((r) => r.stream_id !== streamId);
  unread.mentions = unread.mentions.filter((id) => !gone.has(id));
  recountUnread(s);
}

function addUnread(s: Snapshot, m: Row, flags: string[]): void {
  const unread = s.unread_msgs as Unread | undefined;
  if (!unread) return;
  const id = m.id as number;
  const me = s.user_id as number;
  const push = (rows: Row[], match: (r: Row) => boolean, fresh: Row) => {
    const row = rows.find(match);
    if (row) row.unread_message_ids = [...(row.unread_message_ids as number[]), id];
    else rows.push({ ...fresh, unread_message_ids: [id] });
  };
  let muted = false;
  if (m.type === 'stream') {
    muted = ((s.subscriptions ?? []) as Row[]).some((r) => r.stream_id === m.stream_id && r.is_muted);
    push(unread.streams, (r) => r.stream_id === m.stream_id && r.topic === m.subject, { stream_id: m.stream_id, topic: m.subject });
    unread.streams.sort((a, b) => (a.stream_id as number) - (b.stream_id as number) || String(a.topic).localeCompare(String(b.topic)));
  } else {
    const users = (m.display_recipient as Row[]).map((u) => u.id as number).sort((a, b) => a - b);
    if (users.length <= 2) {
      const other = users.find((u) => u !== me) ?? me;
      push(unread.pms, (r) => r.other_user_id === other, { other_user_id: other, sender_id: other });
      unread.pms.sort((a, b) => (a.other_user_id as number) - (b.other_user_id as number));
    } else push(unread.huddles, (r) => r.user_ids_string === users.join(','), { user_ids_string: users.join(',') });
  }
  const wildcard = flags.some((f) => f.endsWith('wildcard_mentioned'));
  if (flags.includes('mentioned') || (wildcard && !muted)) unread.mentions.push(id);
  recountUnread(s);
}

function updateRecentConversations(s: Snapshot, m: Row): void {
  const list = s.recent_private_conversations as Row[] | undefined;
  if (!list) return;
  const me = s.user_id as number;
  const others = (m.display_recipient as Row[])
    .map((u) => u.id as number)
    .filter((id) => id !== me)
    .sort((a, b) => a - b);
  const entry = list.find((r) => String(r.user_ids) === String(others));
  if (entry) entry.max_message_id = Math.max(entry.max_message_id as number, m.id as number);
  else list.push({ max_message_id: m.id, user_ids: others });
  list.sort((a, b) => (b.max_message_id as number) - (a.max_message_id as number));
}

/** An event as GET /events' JSON gives it. */
type PolledEvent = Record<string, unknown> & { type: string };

export function applyEvents(snapshot: Snapshot, events: readonly PolledEvent[]): Snapshot {
  const state = structuredClone(snapshot);
  for (const event of events) {
    // Parsed JSON, so its type is decided here, once: each event goes to the reducer of its type, and
    // the response validation (test/http/response-schemas.test.ts) holds the server to the document.
    const reducer = reducers[event.type as EventType] as ((s: Snapshot, e: PolledEvent) => void) | undefined;
    if (!reducer) throw new Error(`apply-events does not know the event type '${event.type}'; add its reducer`);
    reducer(state, event);
  }
  return state;
}

/**
 * Keys that differ between two registers for reasons other than state (a new queue, the time), and a
 * stable order for lists a client keeps as sets. is_recently_active and stream_weekly_traffic are traffic
 * statistics that the reference server refreshes by a periodic job, not by events, so no client can
 * follow them from events alone. presence_last_update_id is a polling cursor, like server_timestamp: no
 * presence event carries it (clients read it from update-presence answers).
 */
export function comparable(snapshot: Snapshot): Snapshot {
  const {
    queue_id: _q,
    last_event_id: _l,
    server_timestamp: _t,
    presence_last_update_id: _p,
    result: _r,
    msg: _m,
    ...rest
  } = structuredClone(snapshot);
  for (const key of CHANNEL_LISTS) {
    const rows = rest[key] as Row[] | undefined;
    if (!rows) continue;
    for (const row of rows) {
      delete row.is_recently_active;
      delete row.stream_weekly_traffic;
    }
    rows.sort((a, b) => (a.stream_id as number) - (b.stream_id as number));
  }
  return rest;
}
