import {
  ascending,
  idsOf,
  markUnknown,
  numbers,
  rows,
  unhandled,
  type PolledEvent,
  type Reducers,
  type Row,
  type Snapshot,
} from './rows.js';
import {
  addChannelUnread,
  addDirectUnread,
  channelMuted,
  mentionedBy,
  moveUnread,
  remention,
  removeUnread,
  settle,
  subscribed,
  unreadOf,
} from './unread.js';

/**
 * Messages and their flags, as a client follows them in its register state (the register holds no message
 * objects: `max_message_id`, `unread_msgs`, `starred_messages`, `recent_private_conversations`). Semantics
 * of the reference's event descriptions (zulip.yaml `message`, `update_message`, `delete_message`,
 * `update_message_flags`).
 */

/** The topic of an event: `subject` (the reference's name), or `topic` where a server names it so. */
const topicOf = (e: Row, key: 'subject' | 'orig_subject'): string | undefined => {
  const value = e[key] ?? e[key === 'subject' ? 'topic' : 'orig_topic'];
  return typeof value === 'string' ? value : undefined;
};

function onMessage(s: Snapshot, e: PolledEvent): void {
  const m = e.message as Row;
  const flags = numbersOrStrings(e.flags);
  const id = m.id as number;
  const me = s.user_id as number;
  // A message the user holds no copy of (`historical`, or a channel they are not subscribed to, as an
  // all_public_streams queue hears of) does not move their newest received message.
  const held = !flags.includes('historical') && (m.type !== 'stream' || subscribed(s, m.stream_id));
  if (held && typeof s.max_message_id === 'number') s.max_message_id = Math.max(s.max_message_id, id);
  if (m.type === 'stream') {
    if (held && !flags.includes('read')) {
      const topic = topicOf(m, 'subject') ?? '';
      addChannelUnread(s, m.stream_id as number, topic, id, mentionedBy(flags, channelMuted(s, m.stream_id)));
    }
  } else {
    const others = rows(m.display_recipient)
      .map((u) => u.id as number)
      .filter((u) => u !== me);
    updateRecentConversations(s, ascending(others), id);
    if (!flags.includes('read')) addDirectUnread(s, ascending(others), id, mentionedBy(flags, false));
  }
  settle(s);
}

const numbersOrStrings = (value: unknown): string[] => (Array.isArray(value) ? (value as string[]) : []);

function updateRecentConversations(s: Snapshot, others: number[], id: number): void {
  const list = s.recent_private_conversations as Row[] | undefined;
  if (!Array.isArray(list)) return;
  const entry = list.find((r) => String(r.user_ids) === String(others));
  if (entry) entry.max_message_id = Math.max(entry.max_message_id as number, id);
  else list.push({ max_message_id: id, user_ids: others });
  list.sort((a, b) => (b.max_message_id as number) - (a.max_message_id as number));
}

/**
 * update_message: a content edit changes no register key but the edited message's mention (its `flags`
 * are the user's flags after the edit); a move (`new_stream_id`, a new `subject`) takes unread messages
 * along, `message_ids` naming every moved message the user may see. A message moved into a channel with
 * protected history gives its subscribers a copy the events do not say they got, so a move of a message
 * newer than `max_message_id` leaves that key unknown.
 */
function onUpdateMessage(s: Snapshot, e: PolledEvent): void {
  if (e.rendering_only === true) return;
  const ids = idsOf(e, 'message_ids', 'message_id');
  const messageId = e.message_id as number;
  const newStream = typeof e.new_stream_id === 'number' ? e.new_stream_id : undefined;
  const newTopic = 'orig_subject' in e || 'orig_topic' in e ? topicOf(e, 'subject') : undefined;
  if (newStream !== undefined || newTopic !== undefined) {
    moveUnread(s, ids, {
      ...(newStream !== undefined ? { streamId: newStream } : {}),
      ...(newTopic !== undefined ? { topic: newTopic } : {}),
    });
    if (newStream !== undefined && typeof s.max_message_id === 'number' && ids.some((id) => id > (s.max_message_id as number)))
      markUnknown(s, 'max_message_id');
  }
  if ('content' in e || 'rendered_content' in e) remention(s, messageId, numbersOrStrings(e.flags));
  settle(s);
}

/**
 * delete_message (`message_ids`, or one `message_id` per event without bulk_message_deletion): the messages
 * leave the unread state and the starred list. Which message becomes the newest the user has, overall or
 * in a direct conversation, no event says: the reference's own apply_event asks its database. So a deletion
 * of the newest one leaves `max_message_id` (or `recent_private_conversations`) unknown.
 */
function onDeleteMessage(s: Snapshot, e: PolledEvent): void {
  const ids = new Set(idsOf(e, 'message_ids', 'message_id'));
  removeUnread(s, ids);
  if (Array.isArray(s.starred_messages)) s.starred_messages = numbers(s.starred_messages).filter((id) => !ids.has(id));
  if (typeof s.max_message_id === 'number' && ids.has(s.max_message_id)) markUnknown(s, 'max_message_id');
  if (e.message_type === 'private' && rows(s.recent_private_conversations).some((r) => ids.has(r.max_message_id as number)))
    markUnknown(s, 'recent_private_conversations');
  settle(s);
}

/**
 * update_message_flags (`op`, or `operation` at old levels): `read` moves messages out of the unread state
 * (every message with `all`) or back in (their `message_details` say where); `starred` keeps
 * starred_messages; the other flags live in message objects only.
 */
function onFlags(s: Snapshot, e: PolledEvent): void {
  const op = e.op ?? e.operation;
  if (op !== 'add' && op !== 'remove') return unhandled(e);
  const ids = numbers(e.messages);
  if (e.flag === 'starred' && Array.isArray(s.starred_messages)) {
    const kept = numbers(s.starred_messages).filter((id) => !ids.includes(id));
    s.starred_messages = op === 'add' ? ascending([...kept, ...ids]) : kept;
  }
  if (e.flag !== 'read' || !unreadOf(s)) return;
  if (op === 'add') removeUnread(s, e.all === true ? 'all' : new Set(ids));
  else {
    const details = (e.message_details ?? {}) as Record<string, Row>;
    const me = s.user_id as number;
    for (const [key, d] of Object.entries(details)) {
      const id = Number(key);
      const mentioned = d.mentioned === true;
      if (d.type === 'stream') addChannelUnread(s, d.stream_id as number, String(d.topic ?? d.subject ?? ''), id, mentioned);
      else
        addDirectUnread(
          s,
          numbers(d.user_ids).filter((u) => u !== me),
          id,
          mentioned,
        );
    }
  }
  settle(s);
}

export const messageReducers: Reducers = {
  message: onMessage,
  update_message: onUpdateMessage,
  delete_message: onDeleteMessage,
  update_message_flags: onFlags,
  // Reactions, typing notifications and widget submessages live in message objects or nowhere: the
  // register holds no state for them, but a client must know them.
  reaction: (_s, e) => {
    if (e.op !== 'add' && e.op !== 'remove') unhandled(e);
  },
  typing: (_s, e) => {
    if (e.op !== 'start' && e.op !== 'stop') unhandled(e);
  },
  submessage: () => {},
};
