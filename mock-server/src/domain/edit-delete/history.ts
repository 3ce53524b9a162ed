import type { EditHistoryEntry, MessageRow, RealmState, UserRow } from '../../store/state.js';
import { editHistoryDisabled, invalidMessage } from '../errors.js';
import { accessibleMessage } from '../messages/visibility.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../topics.js';
import { htmlDiff } from './html-diff.js';
import { historyVisibility } from './settings.js';

/**
 * GET /messages/{message_id}/history (companion tier, area edit-delete; reference get-message-history):
 * the versions of a message, oldest first. The stored edit_history (newest first, §2.5) holds only what
 * each edit changed, so the versions are rebuilt backwards from the message as it is now: each snapshot
 * is the message just after that edit, with prev_* for what the edit replaced.
 */

export interface Snapshot {
  topic: string;
  prev_topic?: string;
  stream?: number;
  prev_stream?: number;
  content: string;
  rendered_content: string;
  prev_content?: string;
  prev_rendered_content?: string;
  content_html_diff?: string;
  timestamp: number;
  user_id: number | null;
}

export function messageHistory(
  tables: RealmState,
  viewer: UserRow,
  messageId: number,
  allowEmptyTopicName: boolean,
): { message_history: Snapshot[] } {
  const policy = historyVisibility(tables.realm.realm);
  if (policy === 'none') throw editHistoryDisabled();
  const message = accessibleMessage(tables, viewer, messageId);
  if (!message) throw invalidMessage();
  let snapshots = versions(message);
  if (policy === 'moves') snapshots = movesOnly(snapshots, message);
  if (!allowEmptyTopicName)
    for (const s of snapshots) {
      if (s.topic === '') s.topic = EMPTY_TOPIC_DISPLAY_NAME;
      if (s.prev_topic === '') s.prev_topic = EMPTY_TOPIC_DISPLAY_NAME;
    }
  return { message_history: snapshots };
}

function versions(message: MessageRow): Snapshot[] {
  let topic = message.subject;
  let content = message.content;
  let rendered = message.rendered_content;
  const out: Snapshot[] = [];
  for (const entry of message.edit_history) {
    const snapshot: Snapshot = { topic, content, rendered_content: rendered, timestamp: entry.timestamp, user_id: entry.user_id };
    if (entry.prev_topic !== undefined) {
      snapshot.prev_topic = entry.prev_topic;
      topic = entry.prev_topic;
    }
    if (entry.prev_stream !== undefined) Object.assign(snapshot, streams(entry));
    if (entry.prev_content !== undefined) {
      const prevRendered = entry.prev_rendered_content ?? '';
      Object.assign(snapshot, {
        prev_content: entry.prev_content,
        prev_rendered_content: prevRendered,
        content_html_diff: htmlDiff(prevRendered, rendered),
      });
      content = entry.prev_content;
      rendered = prevRendered;
    }
    out.push(snapshot);
  }
  out.push({ topic, content, rendered_content: rendered, timestamp: message.timestamp, user_id: message.sender_id });
  return out.reverse();
}

const streams = (entry: EditHistoryEntry) => ({ stream: entry.stream, prev_stream: entry.prev_stream });

/**
 * Policy `moves` (our reading of the reference): only the original and the moves are listed, each with
 * the current content, so no earlier wording can be read from the history.
 */
function movesOnly(snapshots: Snapshot[], message: MessageRow): Snapshot[] {
  return snapshots
    .filter((s, i) => i === 0 || s.prev_topic !== undefined || s.prev_stream !== undefined)
    .map(({ prev_content: _c, prev_rendered_content: _r, content_html_diff: _d, ...rest }) => ({
      ...rest,
      content: message.content,
      rendered_content: message.rendered_content,
    }));
}
