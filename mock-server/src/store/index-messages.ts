import { SortedList } from './sorted-ids.js';
import type { MessageRow, RealmState } from './state.js';

/**
 * Facts of the `messages` table, kept by store/indexes.ts: per channel its message IDs, their
 * timestamps (activity and traffic windows) and its topics; per user the direct-message conversations
 * they take part in and the messages they sent (the `sender` narrow of GET /messages). Only positions
 * are kept (IDs, times), never copies of rows.
 */

/** Topics compare case-insensitively, as on the reference server ("Castle" and "castle" are one topic). */
export const topicKey = (topic: string): string => topic.toLowerCase();

export interface ChannelMessages {
  /** Message IDs, ascending: count, first, last. */
  readonly ids: SortedList;
  /** Message timestamps, ascending (not in ID order: a moved message keeps its time). */
  readonly timestamps: SortedList;
  /** Topic key → message IDs, ascending. */
  readonly topics: Map<string, SortedList>;
}

export class MessageFacts {
  readonly #channels = new Map<number, ChannelMessages>();
  /** User → key of the other participants (sorted, comma-joined) → direct message IDs, ascending. */
  readonly #conversations = new Map<number, Map<string, SortedList>>();
  /** Sender → IDs of the messages they sent, ascending. */
  readonly #senders = new Map<number, SortedList>();

  constructor(tables: Pick<RealmState, 'messages'>) {
    for (const row of Object.values(tables.messages)) this.#add(row);
  }

  channel(streamId: number): ChannelMessages | undefined {
    return this.#channels.get(streamId);
  }

  topic(streamId: number, topic: string): SortedList | undefined {
    return this.#channels.get(streamId)?.topics.get(topicKey(topic));
  }

  /** The direct-message conversations of a user: other participants' key → message IDs. */
  conversations(userId: number): ReadonlyMap<string, SortedList> {
    return this.#conversations.get(userId) ?? new Map();
  }

  /** IDs of the messages a user sent, ascending (undefined when none). */
  sentBy(userId: number): SortedList | undefined {
    return this.#senders.get(userId);
  }

  /** Everything this facet holds, as plain sorted data (the property test compares it with a recomputation). */
  describe(): {
    channels: Record<number, unknown>;
    conversations: Record<number, Record<string, number[]>>;
    senders: Record<number, number[]>;
  } {
    const channels: Record<number, unknown> = {};
    for (const [id, c] of [...this.#channels].sort(([a], [b]) => a - b)) {
      const topics = Object.fromEntries([...c.topics].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, ids]) => [k, ids.toArray()]));
      channels[id] = { ids: c.ids.toArray(), timestamps: c.timestamps.toArray(), topics };
    }
    const conversations: Record<number, Record<string, number[]>> = {};
    for (const [user, mine] of [...this.#conversations].sort(([a], [b]) => a - b)) {
      conversations[user] = Object.fromEntries([...mine].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, ids]) => [k, ids.toArray()]));
    }
    const senders: Record<number, number[]> = {};
    for (const [user, ids] of [...this.#senders].sort(([a], [b]) => a - b)) senders[user] = ids.toArray();
    return { channels, conversations, senders };
  }

  update(previous: MessageRow | undefined, next: MessageRow | null): void {
    // An edit of content, flags or reactions moves nothing: skip the removal and re-insertion.
    if (previous && next && sameplace(previous, next)) return;
    if (previous) this.#remove(previous);
    if (next) this.#add(next);
  }

  #add(m: MessageRow): void {
    let sent = this.#senders.get(m.sender_id);
    if (!sent) this.#senders.set(m.sender_id, (sent = new SortedList()));
    sent.insert(m.id);
    if (m.stream_id !== null) {
      let channel = this.#channels.get(m.stream_id);
      if (!channel)
        this.#channels.set(m.stream_id, (channel = { ids: new SortedList(), timestamps: new SortedList('float64'), topics: new Map() }));
      channel.ids.insert(m.id);
      channel.timestamps.insert(m.timestamp);
      const key = topicKey(m.subject);
      let topic = channel.topics.get(key);
      if (!topic) channel.topics.set(key, (topic = new SortedList()));
      topic.insert(m.id);
    }
    if (m.type === 'private' && m.dm_user_ids !== null) {
      for (const userId of m.dm_user_ids) {
        let mine = this.#conversations.get(userId);
        if (!mine) this.#conversations.set(userId, (mine = new Map()));
        const key = othersKey(m.dm_user_ids, userId);
        let list = mine.get(key);
        if (!list) mine.set(key, (list = new SortedList()));
        list.insert(m.id);
      }
    }
  }

  #remove(m: MessageRow): void {
    const sent = this.#senders.get(m.sender_id);
    if (sent?.remove(m.id) && sent.size === 0) this.#senders.delete(m.sender_id);
    if (m.stream_id !== null) {
      const channel = this.#channels.get(m.stream_id);
      if (channel) {
        channel.ids.remove(m.id);
        channel.timestamps.remove(m.timestamp);
        const key = topicKey(m.subject);
        const topic = channel.topics.get(key);
        if (topic?.remove(m.id) && topic.size === 0) channel.topics.delete(key);
        if (channel.ids.size === 0) this.#channels.delete(m.stream_id);
      }
    }
    if (m.type === 'private' && m.dm_user_ids !== null) {
      for (const userId of m.dm_user_ids) {
        const mine = this.#conversations.get(userId);
        const key = othersKey(m.dm_user_ids, userId);
        const list = mine?.get(key);
        if (list?.remove(m.id) && list.size === 0) mine!.delete(key);
        if (mine?.size === 0) this.#conversations.delete(userId);
      }
    }
  }
}

/** The other participants of a direct message, ascending and comma-joined ("" for a self-conversation). */
export function othersKey(dmUserIds: readonly number[], userId: number): string {
  return dmUserIds
    .filter((u) => u !== userId)
    .sort((a, b) => a - b)
    .join(',');
}

function sameplace(a: MessageRow, b: MessageRow): boolean {
  return (
    a.id === b.id &&
    a.sender_id === b.sender_id &&
    a.stream_id === b.stream_id &&
    a.subject === b.subject &&
    a.timestamp === b.timestamp &&
    (a.dm_user_ids === b.dm_user_ids || String(a.dm_user_ids) === String(b.dm_user_ids))
  );
}
