import { inferKind, kindOfFlags, listed, type MentionKind } from './mentions.js';
import { ascending, byText, markUnknown, rows, type Row, type Snapshot } from './rows.js';

/**
 * A client's unread state (register's `unread_msgs`, spec §2.13), kept the way a fresh register lists it:
 * channel messages only while the user is subscribed (reference get_raw_unread_data leaves out inactive
 * subscriptions), `count` without muted channels, `mentions` as mentions.ts says; every list ascending.
 *
 * Unread messages of a channel the user left are not lost: subscribing again shows them again. A client
 * keeps them aside, here under REDUCER_STATE (comparable() leaves it out), and brings them back on
 * `subscription` / `add` (or when a move brings them into a channel the user is subscribed to). What it
 * cannot know (the unread messages of a channel it did not watch the user leave, a mention's kind that
 * decides whether it is listed) makes unread_msgs unknown from there on.
 */
export interface Unread {
  count: number;
  pms: Row[];
  streams: Row[];
  huddles: Row[];
  mentions: number[];
}

/** The snapshot key of what the reducers keep beside the register's keys: a name no server's register uses. */
export const REDUCER_STATE = '_reducer_state';

interface Parked {
  stream_id: number;
  topic: string;
  unread_message_ids: number[];
}

interface ReducerState {
  /** Unread messages of channels the user is not subscribed to. */
  parked: Parked[];
  /** Channels the user left while this client watched: their parked rows are all their unread messages. */
  left: number[];
  /** Channels this client learnt of from `stream` / `create`: their past is unknown to it. */
  introduced: number[];
  /** The mention kind of messages, by ID, as events told or places showed it. */
  kinds: Record<string, MentionKind>;
  /** Rows of channels gone from view (`stream` / `delete`) the user was not subscribed to, by channel ID, for their return. */
  hidden: Record<string, { list: 'unsubscribed' | 'never_subscribed'; row: Row }>;
}

export const unreadOf = (s: Snapshot): Unread | undefined => s.unread_msgs as Unread | undefined;
export const reducerState = (s: Snapshot): ReducerState =>
  (s[REDUCER_STATE] ??= { parked: [], left: [], introduced: [], kinds: {}, hidden: {} }) as ReducerState;

function subscription(s: Snapshot, streamId: unknown): Row | undefined {
  return rows(s.subscriptions).find((r) => r.stream_id === streamId);
}

/** Without a `subscriptions` key (not fetched) a client cannot tell: it keeps everything it is told. */
export const subscribed = (s: Snapshot, streamId: unknown): boolean => !('subscriptions' in s) || subscription(s, streamId) !== undefined;
export const channelMuted = (s: Snapshot, streamId: unknown): boolean => subscription(s, streamId)?.is_muted === true;

function insert(list: Row[], match: (r: Row) => boolean, fresh: Row, id: number): void {
  const row = list.find(match);
  if (row) row.unread_message_ids = ascending([...(row.unread_message_ids as number[]), id]);
  else list.push({ ...fresh, unread_message_ids: [id] });
}

/** Lists `id` in mentions as its kind says for a channel muted or not; false when that cannot be known (unread_msgs is then unknown). */
function mention(s: Snapshot, id: number, kind: MentionKind, muted: boolean): boolean {
  const unread = unreadOf(s)!;
  reducerState(s).kinds[String(id)] = kind;
  const shown = listed(kind, muted);
  if (shown === undefined) {
    markUnknown(s, 'unread_msgs');
    return false;
  }
  unread.mentions = unread.mentions.filter((m) => m !== id);
  if (shown) unread.mentions.push(id);
  return true;
}

/** `count` and the lists' order, as a fresh register gives them. */
export function settle(s: Snapshot): void {
  const unread = unreadOf(s);
  if (!unread) return;
  unread.streams.sort((a, b) => (a.stream_id as number) - (b.stream_id as number) || byText(a.topic, b.topic));
  unread.pms.sort((a, b) => (a.other_user_id as number) - (b.other_user_id as number));
  unread.huddles.sort((a, b) => byText(a.user_ids_string, b.user_ids_string));
  unread.mentions = ascending(unread.mentions);
  unread.count = countedUnread(s)!;
}

/** What unread_msgs.count must be: the messages its lists hold, muted channels left out (spec §2.13). */
export function countedUnread(s: Snapshot): number | undefined {
  const unread = unreadOf(s);
  if (!unread) return undefined;
  const size = (list: Row[]) => list.reduce((n, r) => n + ((r.unread_message_ids as unknown[] | undefined)?.length ?? 0), 0);
  return size(unread.pms) + size(unread.huddles) + size(unread.streams.filter((r) => !channelMuted(s, r.stream_id)));
}

/** A channel message becomes unread (new, marked unread, moved); parked when the user is not subscribed. */
export function addChannelUnread(s: Snapshot, streamId: number, topic: string, id: number, kind: MentionKind): void {
  const unread = unreadOf(s);
  if (!unread) return;
  if (!subscribed(s, streamId)) {
    reducerState(s).kinds[String(id)] = kind;
    const parked = reducerState(s).parked;
    const row = parked.find((r) => r.stream_id === streamId && r.topic === topic);
    if (row) row.unread_message_ids = ascending([...row.unread_message_ids, id]);
    else parked.push({ stream_id: streamId, topic, unread_message_ids: [id] });
    return;
  }
  insert(unread.streams, (r) => r.stream_id === streamId && r.topic === topic, { stream_id: streamId, topic }, id);
  mention(s, id, kind, channelMuted(s, streamId));
}

/** A direct message becomes unread: `others` are the participants besides the user. */
export function addDirectUnread(s: Snapshot, others: readonly number[], id: number, kind: MentionKind): void {
  const unread = unreadOf(s);
  if (!unread) return;
  const me = s.user_id as number;
  if (others.length <= 1) {
    const other = others[0] ?? me;
    insert(unread.pms, (r) => r.other_user_id === other, { other_user_id: other, sender_id: other }, id);
  } else {
    const key = ascending([...others, me]).join(',');
    insert(unread.huddles, (r) => r.user_ids_string === key, { user_ids_string: key }, id);
  }
  mention(s, id, kind, false);
}

/** The listed messages (or every one, `all`) leave the unread state: read, or deleted. */
export function removeUnread(s: Snapshot, ids: ReadonlySet<number> | 'all'): void {
  const unread = unreadOf(s);
  if (!unread) return;
  const keep = (id: number) => ids !== 'all' && !ids.has(id);
  for (const key of ['pms', 'streams', 'huddles'] as const) {
    for (const row of unread[key]) row.unread_message_ids = (row.unread_message_ids as number[]).filter(keep);
    unread[key] = unread[key].filter((row) => (row.unread_message_ids as number[]).length > 0);
  }
  unread.mentions = unread.mentions.filter(keep);
  const state = reducerState(s);
  for (const row of state.parked) row.unread_message_ids = row.unread_message_ids.filter(keep);
  state.parked = state.parked.filter((row) => row.unread_message_ids.length > 0);
}

interface Taken {
  id: number;
  stream_id: number;
  topic: string;
  kind: MentionKind;
}

/** Takes the listed channel messages out of the unread state, each with where it was and its mention kind. */
function takeChannelUnread(s: Snapshot, ids: ReadonlySet<number>): Taken[] {
  const unread = unreadOf(s);
  if (!unread) return [];
  const state = reducerState(s);
  const out: Taken[] = [];
  const mentions = new Set(unread.mentions);
  const kindOf = (id: number, guess: () => MentionKind) => state.kinds[String(id)] ?? guess();
  for (const row of unread.streams) {
    const muted = channelMuted(s, row.stream_id);
    for (const id of row.unread_message_ids as number[])
      if (ids.has(id))
        out.push({
          id,
          stream_id: row.stream_id as number,
          topic: row.topic as string,
          kind: kindOf(id, () => inferKind(mentions.has(id), muted)),
        });
  }
  // A parked message's kind was recorded when it was parked.
  for (const row of state.parked)
    for (const id of row.unread_message_ids)
      if (ids.has(id)) out.push({ id, stream_id: row.stream_id, topic: row.topic, kind: kindOf(id, () => 'some') });
  removeUnread(s, new Set(out.map((m) => m.id)));
  return out;
}

/** Unread messages follow a move (update_message with a new channel or topic): parked or shown as the user is subscribed. */
export function moveUnread(s: Snapshot, ids: readonly number[], to: { streamId?: number; topic?: string }): void {
  for (const m of takeChannelUnread(s, new Set(ids))) addChannelUnread(s, to.streamId ?? m.stream_id, to.topic ?? m.topic, m.id, m.kind);
}

/** The user left a channel (or it vanished from their view): its unread messages are parked. */
export function parkChannel(s: Snapshot, streamId: number): void {
  const unread = unreadOf(s);
  if (!unread) return;
  const ids = unread.streams.filter((r) => r.stream_id === streamId).flatMap((r) => r.unread_message_ids as number[]);
  const taken = takeChannelUnread(s, new Set(ids));
  const state = reducerState(s);
  state.left.push(streamId);
  for (const m of taken) {
    state.kinds[String(m.id)] = m.kind;
    const row = state.parked.find((r) => r.stream_id === m.stream_id && r.topic === m.topic);
    if (row) row.unread_message_ids = ascending([...row.unread_message_ids, m.id]);
    else state.parked.push({ stream_id: m.stream_id, topic: m.topic, unread_message_ids: [m.id] });
  }
}

/**
 * The user is subscribed (again): the channel's unread messages show. The client knows them when it saw
 * the user leave, when the channel has no message (`first_message_id` null), or when the user never was
 * subscribed to a channel the register listed (then the only unread messages are those moves brought,
 * parked as they came); otherwise unread_msgs is unknown from here on.
 */
export function unparkChannel(s: Snapshot, streamId: number, options: { empty: boolean; neverSubscribed: boolean }): void {
  if (!unreadOf(s)) return;
  const state = reducerState(s);
  const known = state.left.includes(streamId) || options.empty || (options.neverSubscribed && !state.introduced.includes(streamId));
  if (!known) return markUnknown(s, 'unread_msgs');
  const back = state.parked.filter((r) => r.stream_id === streamId);
  state.parked = state.parked.filter((r) => r.stream_id !== streamId);
  state.left = state.left.filter((id) => id !== streamId);
  for (const row of back)
    for (const id of row.unread_message_ids) addChannelUnread(s, streamId, row.topic, id, state.kinds[String(id)] ?? 'some');
}

/** An edit's flags (the user's flags after it) say the message's mention kind anew. */
export function remention(s: Snapshot, id: number, flags: readonly string[]): void {
  const unread = unreadOf(s);
  if (!unread) return;
  const kind = kindOfFlags(flags);
  const channel = unread.streams.find((r) => (r.unread_message_ids as number[]).includes(id));
  const direct = [...unread.pms, ...unread.huddles].some((r) => (r.unread_message_ids as number[]).includes(id));
  if (channel || direct) mention(s, id, kind, channel ? channelMuted(s, channel.stream_id) : false);
  else reducerState(s).kinds[String(id)] = kind;
}

/**
 * A channel was muted or unmuted (subscription / update, after the property changed): its unread wildcard
 * mentions leave or join the list. `wasMuted` is the state before the change, for what must be inferred.
 */
export function remute(s: Snapshot, streamId: number, wasMuted: boolean): void {
  const unread = unreadOf(s);
  const muted = channelMuted(s, streamId);
  if (!unread || muted === wasMuted) return;
  const mentions = new Set(unread.mentions);
  const kinds = reducerState(s).kinds;
  for (const row of unread.streams.filter((r) => r.stream_id === streamId))
    for (const id of row.unread_message_ids as number[])
      if (!mention(s, id, kinds[String(id)] ?? inferKind(mentions.has(id), wasMuted), muted)) return;
}
