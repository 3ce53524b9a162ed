import {
  eventsOf,
  registerAnswer,
  sequenceFault,
  withEvents,
  type Answer,
  type Event,
  type Fault,
  type Seen,
  type Sent,
} from './faulty-proxy.js';

/**
 * Sequence bugs planted in front of the correct mock: each shows only after a particular sequence of
 * operations (a move, then a send; a move, then a mark-as-read; …), as a server's real bugs do, so that
 * no scripted scenario, each checking one rule on a fresh state, meets it. `teamchat conform --explore`
 * must find each. A fault follows what passes through the proxy (faulty-proxy.ts `Seen`) and remembers
 * what it must: the factory makes a fresh one per proxy.
 */
export interface SequenceBug {
  name: string;
  /** The explore rule that must report it. */
  rule: string;
  /** Explore operation templates a sequence needs to meet it (the test is skipped until they exist). */
  needs: string[];
  fault: () => Fault;
}

type Row = Record<string, unknown>;
const numbers = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : []);
const topicKey = (streamId: number, topic: string) => `${streamId}\u0000${topic.toLowerCase()}`;
const MESSAGE_PATH = /^\/api\/v1\/messages\/(\d+)$/;
const ok = (answer: Answer) => answer.status === 200 && answer.body.result === 'success';

function setOf<T>(map: Map<string, Set<T>>, key: string): Set<T> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}

/** A changed register answer, the other exchanges as they were. */
function rewriteRegister(answer: Answer, sent: Sent, change: (body: Row) => Row | null): Answer {
  const body = registerAnswer(sent, answer);
  const changed = body && change(body);
  return changed ? { ...answer, body: changed } : answer;
}

/** Message events of a topic that received moved messages are lost (an index of a topic's listeners not rebuilt on a move). */
const lostAfterMove = (): Fault =>
  sequenceFault((seen) => {
    const movedInto = new Set<string>();
    return (answer, sent) => {
      const edit = sent.method === 'PATCH' ? MESSAGE_PATH.exec(sent.path) : null;
      const topic = sent.params.get('topic');
      const channel = sent.params.get('stream_id');
      if (edit && ok(answer) && (topic !== null || channel !== null)) {
        const from = seen.where.get(Number(edit[1]));
        if (from) movedInto.add(topicKey(channel === null ? from.streamId : Number(channel), topic ?? from.topic));
      }
      const events = eventsOf(sent, answer);
      const kept = events.filter((e) => {
        const m = (e.type === 'message' ? e.message : null) as Row | null;
        const t = m && typeof m.subject === 'string' ? m.subject : '';
        return !(m && typeof m.stream_id === 'number' && movedInto.has(topicKey(m.stream_id, t)));
      });
      return kept.length === events.length ? answer : withEvents(answer, kept);
    };
  });

/** A moved message marked as read stays in register's unread_msgs (the unread index keyed by the old topic). */
const unreadAfterMovedRead = (): Fault =>
  sequenceFault((seen) => {
    const moved = new Set<number>();
    const stuck = new Map<string, Set<number>>();
    return (answer, sent) => {
      for (const e of eventsOf(sent, answer)) {
        if (e.type === 'update_message' && (e.orig_subject !== undefined || e.new_stream_id !== undefined))
          for (const id of numbers(e.message_ids)) moved.add(id);
        if (e.type === 'update_message_flags' && e.flag === 'read') {
          const mine = setOf(stuck, sent.email);
          for (const id of numbers(e.messages))
            if ((e.op ?? e.operation) === 'remove') mine.delete(id);
            else if (moved.has(id)) mine.add(id);
        }
        if (e.type === 'delete_message') for (const id of [...numbers(e.message_ids), ...numbers([e.message_id])]) moved.delete(id);
      }
      return rewriteRegister(answer, sent, (body) => {
        const unread = body.unread_msgs as { count: number; streams: Row[] } | undefined;
        // Only in channels the user still reads: an archived or left channel's unread messages are not listed.
        const live = new Set(((body.subscriptions ?? []) as Row[]).filter((r) => r.is_archived !== true).map((r) => r.stream_id));
        const ids = [...(stuck.get(sent.email) ?? [])].filter((id) => moved.has(id) && live.has(seen.where.get(id)?.streamId));
        if (!unread || !Array.isArray(unread.streams) || ids.length === 0) return null;
        const streams: (Row & { unread_message_ids: number[] })[] = unread.streams.map((r) => ({
          ...r,
          unread_message_ids: [...numbers(r.unread_message_ids)],
        }));
        let count = unread.count;
        for (const id of ids) {
          const { streamId, topic } = seen.where.get(id)!;
          if (streams.some((r) => r.unread_message_ids.includes(id))) continue;
          const row =
            streams.find((r) => r.stream_id === streamId && String(r.topic).toLowerCase() === topic.toLowerCase()) ??
            streams[streams.push({ stream_id: streamId, topic, unread_message_ids: [] }) - 1]!;
          row.unread_message_ids = [...row.unread_message_ids, id].sort((a, b) => a - b);
          count += 1;
        }
        // In the order the server lists them: by each topic's oldest unread message.
        streams.sort((a, b) => a.unread_message_ids[0]! - b.unread_message_ids[0]!);
        return { ...body, unread_msgs: { ...unread, count, streams } };
      });
    };
  });

/**
 * register's subscriber_count still counts those who left a private channel (the cached counter is
 * decremented on the public channels' path only).
 */
const staleSubscriberCount = (): Fault =>
  sequenceFault(() => {
    const privateChannels = new Set<number>();
    const gone = new Map<string, Set<number>>();
    return (answer, sent) => {
      for (const s of (registerAnswer(sent, answer)?.subscriptions ?? []) as Row[])
        if (s.invite_only === true) privateChannels.add(Number(s.stream_id));
      for (const e of eventsOf(sent, answer)) {
        if (e.type !== 'subscription' || (e.op !== 'peer_remove' && e.op !== 'peer_add')) continue;
        const channels = [...numbers(e.stream_ids), ...numbers([e.stream_id])].filter((c) => privateChannels.has(c));
        const users = [...numbers(e.user_ids), ...numbers([e.user_id])];
        for (const c of channels)
          for (const u of users)
            if (e.op === 'peer_remove') setOf(gone, String(c)).add(u);
            else gone.get(String(c))?.delete(u);
      }
      return rewriteRegister(answer, sent, (body) => {
        if (!Array.isArray(body.subscriptions)) return null;
        const subscriptions = (body.subscriptions as Row[]).map((s) => {
          const extra = gone.get(String(s.stream_id))?.size ?? 0;
          return typeof s.subscriber_count === 'number' && extra > 0 ? { ...s, subscriber_count: s.subscriber_count + extra } : s;
        });
        return { ...body, subscriptions };
      });
    };
  });

/**
 * Reaction events on a private channel's messages also go to those who left it (the audience kept from the
 * channel's subscribers of old). A former subscriber has no access to the channel's messages any more, not even
 * to those it received while subscribed (the reference's has_message_access), so each such event is a leak.
 */
const reactionAfterLeaving = (): Fault =>
  sequenceFault((seen) => {
    const privateChannels = new Set<number>();
    const pending = new Map<string, Event[]>();
    return (answer, sent) => {
      const body = registerAnswer(sent, answer);
      for (const s of (body?.subscriptions ?? []) as Row[]) if (s.invite_only === true) privateChannels.add(Number(s.stream_id));
      const reacted = sent.method === 'POST' ? /^\/api\/v1\/messages\/(\d+)\/reactions$/.exec(sent.path) : null;
      const where = reacted && ok(answer) ? seen.where.get(Number(reacted[1])) : undefined;
      if (reacted && where && privateChannels.has(where.streamId)) {
        const userId = seen.userIds.get(sent.email);
        const event: Event = {
          type: 'reaction',
          op: 'add',
          message_id: Number(reacted[1]),
          ...(userId === undefined ? {} : { user_id: userId, user: { user_id: userId, email: sent.email } }),
          emoji_name: sent.params.get('emoji_name') ?? '',
          emoji_code: sent.params.get('emoji_code') ?? '',
          reaction_type: sent.params.get('reaction_type') ?? 'unicode_emoji',
        };
        for (const [email, left] of seen.left)
          if (email !== sent.email && left.has(where.streamId)) pending.set(email, [...(pending.get(email) ?? []), event]);
      }
      const events = eventsOf(sent, answer);
      const extra = sent.path === '/api/v1/events' && sent.method === 'GET' ? pending.get(sent.email) : undefined;
      if (!extra?.length) return answer;
      pending.delete(sent.email);
      // The queue's newest ID again, so that the client's cursor does not skip an event it has not received.
      const id = Math.max(Number(sent.params.get('last_event_id') ?? -1), ...events.map((e) => Number(e.id)));
      return withEvents(answer, [...events, ...extra.map((e) => ({ ...e, id }))]);
    };
  });

/** register's max_message_id keeps a deleted newest message (the newest ID cached, not recomputed on a delete). */
const staleNewestAfterDelete = (): Fault =>
  sequenceFault((seen: Seen) => {
    const deleted = new Set<number>();
    return (answer, sent) => {
      const gone = sent.method === 'DELETE' ? MESSAGE_PATH.exec(sent.path) : null;
      if (gone && ok(answer)) deleted.add(Number(gone[1]));
      return rewriteRegister(answer, sent, (body) => {
        if (typeof body.max_message_id !== 'number') return null;
        const stale = [...(seen.received.get(sent.email) ?? [])].filter((id) => deleted.has(id) && id > (body.max_message_id as number));
        return stale.length === 0 ? null : { ...body, max_message_id: Math.max(...stale) };
      });
    };
  });

export const SEQUENCE_BUGS: readonly SequenceBug[] = [
  {
    name: 'a message event lost in a topic that received moved messages',
    rule: 'explore/events-snapshot',
    needs: ['send-channel-message', 'move-topic'],
    fault: lostAfterMove,
  },
  {
    name: "a moved message marked as read stays in register's unread_msgs",
    rule: 'explore/events-snapshot',
    needs: ['send-channel-message', 'move-topic', 'mark-topic-as-read'],
    fault: unreadAfterMovedRead,
  },
  {
    name: "register's subscriber_count not decremented when someone leaves a private channel",
    rule: 'explore/events-snapshot',
    needs: ['unsubscribe'],
    fault: staleSubscriberCount,
  },
  {
    name: 'a reaction event sent to a user who left the private channel',
    rule: 'explore/no-leaks',
    needs: ['unsubscribe', 'send-channel-message', 'add-reaction'],
    fault: reactionAfterLeaving,
  },
  {
    name: "register's max_message_id keeps the deleted newest message",
    rule: 'explore/counters',
    needs: ['send-channel-message', 'delete-message'],
    fault: staleNewestAfterDelete,
  },
];
