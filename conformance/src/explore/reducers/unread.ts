import { ascending, byText, markUnknown, rows, type Row, type Snapshot } from './rows.js';

/**
 * A client's unread state (register's `unread_msgs`, spec §2.13), kept the way a fresh register lists it:
 * channel messages only while the user is subscribed (reference get_raw_unread_data leaves out inactive
 * subscriptions), `count` without muted channels, `mentions` with direct mentions and wildcard mentions
 * outside muted channels; every list in ascending order.
 *
 * Unread messages of a channel the user left are not lost: subscribing again shows them again. A client
 * keeps them aside, here under REDUCER_STATE (comparable() leaves it out), and brings them back on
 * `subscription` / `add` (or when a move brings them into a channel the user is subscribed to). What it
 * cannot know (the unread messages of a channel it did not watch the user leave) makes unread_msgs unknown.
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
  mentions: number[];
}

interface ReducerState {
  /** Unread messages of channels the user is not subscribed to. */
  parked: Parked[];
  /** Channels the user left while this client watched: their parked rows are all their unread messages. */
  left: number[];
  /** Channels this client learnt of from `stream` / `create`: their past is unknown to it. */
  introduced: number[];
}

export const unreadOf = (s: Snapshot): Unread | undefined => s.unread_msgs as Unread | undefined;
export const reducerState = (s: Snapshot): ReducerState => (s[REDUCER_STATE] ??= { parked: [], left: [], introduced: [] }) as ReducerState;
const parkedOf = (s: Snapshot): Parked[] => reducerState(s).parked;

const WILDCARD_FLAGS = ['wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

/** Whether a message with these flags counts in `mentions`, in a channel muted or not. */
export const mentionedBy = (flags: readonly string[], muted: boolean): boolean =>
  flags.includes('mentioned') || (!muted && WILDCARD_FLAGS.some((f) => flags.includes(f)));

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

/** `count` and the lists' order, as a fresh register gives them. */
export function settle(s: Snapshot): void {
  const unread = unreadOf(s);
  if (!unread) return;
  unread.streams.sort((a, b) => (a.stream_id as number) - (b.stream_id as number) || byText(a.topic, b.topic));
  unread.pms.sort((a, b) => (a.other_user_id as number) - (b.other_user_id as number));
  unread.huddles.sort((a, b) => byText(a.user_ids_string, b.user_ids_string));
  unread.mentions = ascending(unread.mentions);
  const size = (list: Row[]) => list.reduce((n, r) => n + (r.unread_message_ids as number[]).length, 0);
  unread.count = size(unread.pms) + size(unread.huddles) + size(unread.streams.filter((r) => !channelMuted(s, r.stream_id)));
}

/** A channel message becomes unread (new, or marked unread); parked when the user is not subscribed. */
export function addChannelUnread(s: Snapshot, streamId: number, topic: string, id: number, mentioned: boolean): void {
  const unread = unreadOf(s);
  if (!unread) return;
  if (!subscribed(s, streamId)) {
    const parked = parkedOf(s);
    const row = parked.find((r) => r.stream_id === streamId && r.topic === topic);
    if (row) row.unread_message_ids = ascending([...row.unread_message_ids, id]);
    else parked.push({ stream_id: streamId, topic, unread_message_ids: [id], mentions: [] });
    const into = row ?? parked[parked.length - 1]!;
    if (mentioned) into.mentions = ascending([...into.mentions, id]);
    return;
  }
  insert(unread.streams, (r) => r.stream_id === streamId && r.topic === topic, { stream_id: streamId, topic }, id);
  if (mentioned) unread.mentions.push(id);
}

/** A direct message becomes unread: `others` are the participants besides the user. */
export function addDirectUnread(s: Snapshot, others: readonly number[], id: number, mentioned: boolean): void {
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
  if (mentioned) unread.mentions.push(id);
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
  for (const row of state.parked) {
    row.unread_message_ids = row.unread_message_ids.filter(keep);
    row.mentions = row.mentions.filter(keep);
  }
  state.parked = state.parked.filter((row) => row.unread_message_ids.length > 0);
}

/** Takes every unread message of the listed IDs out, with where it was and whether it counted as a mention. */
function takeChannelUnread(s: Snapshot, ids: ReadonlySet<number>): { id: number; stream_id: number; topic: string; mentioned: boolean }[] {
  const unread = unreadOf(s);
  if (!unread) return [];
  const out: { id: number; stream_id: number; topic: string; mentioned: boolean }[] = [];
  const mentions = new Set(unread.mentions);
  for (const row of unread.streams)
    for (const id of row.unread_message_ids as number[])
      if (ids.has(id)) out.push({ id, stream_id: row.stream_id as number, topic: row.topic as string, mentioned: mentions.has(id) });
  for (const row of parkedOf(s))
    for (const id of row.unread_message_ids)
      if (ids.has(id)) out.push({ id, stream_id: row.stream_id, topic: row.topic, mentioned: row.mentions.includes(id) });
  removeUnread(s, new Set(out.map((m) => m.id)));
  return out;
}

/** Unread messages follow a move (update_message with a new channel or topic): parked or shown as the user is subscribed. */
export function moveUnread(s: Snapshot, ids: readonly number[], to: { streamId?: number; topic?: string }): void {
  for (const m of takeChannelUnread(s, new Set(ids)))
    addChannelUnread(s, to.streamId ?? m.stream_id, to.topic ?? m.topic, m.id, m.mentioned);
}

/** The user left a channel (or it vanished from their view): its unread messages are parked. */
export function parkChannel(s: Snapshot, streamId: number): void {
  const unread = unreadOf(s);
  if (!unread) return;
  reducerState(s).left.push(streamId);
  const ids = unread.streams.filter((r) => r.stream_id === streamId).flatMap((r) => r.unread_message_ids as number[]);
  const taken = takeChannelUnread(s, new Set(ids));
  for (const m of taken) {
    const parked = parkedOf(s);
    const row = parked.find((r) => r.stream_id === m.stream_id && r.topic === m.topic);
    const into = row ?? { stream_id: m.stream_id, topic: m.topic, unread_message_ids: [], mentions: [] };
    if (!row) parked.push(into);
    into.unread_message_ids = ascending([...into.unread_message_ids, m.id]);
    if (m.mentioned) into.mentions = ascending([...into.mentions, m.id]);
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
  for (const row of back) for (const id of row.unread_message_ids) addChannelUnread(s, streamId, row.topic, id, row.mentions.includes(id));
}

/** An edit changed a message's flags: whether it counts as a mention follows them (while it is unread). */
export function remention(s: Snapshot, id: number, flags: readonly string[]): void {
  const unread = unreadOf(s);
  if (!unread) return;
  const channel = unread.streams.find((r) => (r.unread_message_ids as number[]).includes(id));
  const direct = [...unread.pms, ...unread.huddles].some((r) => (r.unread_message_ids as number[]).includes(id));
  if (channel || direct) {
    const mentioned = mentionedBy(flags, channel ? channelMuted(s, channel.stream_id) : false);
    unread.mentions = unread.mentions.filter((m) => m !== id);
    if (mentioned) unread.mentions.push(id);
    return;
  }
  const parked = parkedOf(s).find((r) => r.unread_message_ids.includes(id));
  if (parked) parked.mentions = mentionedBy(flags, false) ? ascending([...parked.mentions, id]) : parked.mentions.filter((m) => m !== id);
}
