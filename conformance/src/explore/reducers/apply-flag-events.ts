/**
 * Test-only reducers of the companion events of area flags-reactions (helpers/apply-events.ts spreads them
 * in): how a client follows `update_message_flags` in its unread state, and `reaction`, which touches no
 * register key (reactions live in message objects, which the register does not hold).
 */
import { unhandled, type Reducers, type Row, type Snapshot } from './snapshot-rows.js';

interface Unread {
  count: number;
  pms: Row[];
  streams: Row[];
  huddles: Row[];
  mentions: number[];
}

const ascending = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);

function insert(rows: Row[], match: (r: Row) => boolean, fresh: Row, id: number): void {
  const row = rows.find(match);
  if (row) row.unread_message_ids = ascending([...(row.unread_message_ids as number[]), id]);
  else rows.push({ ...fresh, unread_message_ids: [id] });
}

/** Marking unread: the event's message_details say where each message counts again. */
function markUnread(unread: Unread, me: number, details: Record<string, Row>): void {
  for (const [key, d] of Object.entries(details)) {
    const id = Number(key);
    if (d.type === 'stream') {
      insert(unread.streams, (r) => r.stream_id === d.stream_id && r.topic === d.topic, { stream_id: d.stream_id, topic: d.topic }, id);
    } else {
      const others = d.user_ids as number[];
      if (others.length <= 1) {
        const other = others[0] ?? me;
        insert(unread.pms, (r) => r.other_user_id === other, { other_user_id: other, sender_id: other }, id);
      } else {
        const key = ascending([...others, me]).join(',');
        insert(unread.huddles, (r) => r.user_ids_string === key, { user_ids_string: key }, id);
      }
    }
    if (d.mentioned === true) unread.mentions = ascending([...unread.mentions, id]);
  }
  unread.streams.sort((a, b) => (a.stream_id as number) - (b.stream_id as number) || (String(a.topic) < String(b.topic) ? -1 : 1));
  unread.pms.sort((a, b) => (a.other_user_id as number) - (b.other_user_id as number));
  unread.huddles.sort((a, b) => (String(a.user_ids_string) < String(b.user_ids_string) ? -1 : 1));
}

/** Marking read: the listed messages leave the unread state, or every message does with `all`. */
function markRead(unread: Unread, ids: Set<number> | 'all'): void {
  for (const key of ['pms', 'streams', 'huddles'] as const) {
    for (const row of unread[key])
      row.unread_message_ids = ids === 'all' ? [] : (row.unread_message_ids as number[]).filter((id) => !ids.has(id));
    unread[key] = unread[key].filter((row) => (row.unread_message_ids as number[]).length > 0);
  }
  unread.mentions = ids === 'all' ? [] : unread.mentions.filter((id) => !ids.has(id));
}

/** The reducers, given apply-events' recount of unread_msgs.count (muted channels left out). */
export function flagReducers(recountUnread: (s: Snapshot) => void): Reducers {
  return {
    reaction: () => {},
    update_message_flags: (s, e) => {
      if (e.flag === 'starred' && Array.isArray(s.starred_messages)) {
        const ids = e.messages as number[];
        const kept = (s.starred_messages as number[]).filter((id) => !ids.includes(id));
        s.starred_messages = e.op === 'add' ? ascending([...kept, ...ids]) : kept;
      }
      const unread = s.unread_msgs as Unread | undefined;
      // Only `read` changes unread_msgs; collapsed lives in message objects only.
      if (!unread || e.flag !== 'read') return;
      if (e.op === 'add') markRead(unread, e.all === true ? 'all' : new Set(e.messages as number[]));
      else if (e.op === 'remove') markUnread(unread, s.user_id as number, (e.message_details ?? {}) as Record<string, Row>);
      else unhandled(e);
      recountUnread(s);
    },
  };
}
