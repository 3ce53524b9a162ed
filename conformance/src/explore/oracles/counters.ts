import type { ExploreActor } from '../actors.js';
import type { Knowledge } from '../knowledge.js';
import { countedUnread } from '../reducers/index.js';
import type { SequenceEnv } from '../env.js';
import { EXPLORE_RULES, Violation, type Step } from '../types.js';

type Row = Record<string, unknown>;

/**
 * Counters agree with what they count, in the (verified) state of every actor judged this step and in reads:
 * unread_msgs.count with its lists (muted channels left out, spec §2.13), a subscription's subscriber_count with
 * its subscribers, max_message_id with the newest message the actor can read (`newestDue`: the actors a step
 * since their last check may have moved it for; each judged one is checked and leaves the set), a channel's
 * topic list with the messages in it (after `stepped`, by its actor).
 */
export async function checkCounters(
  env: Pick<SequenceEnv, 'tally'>,
  k: Knowledge,
  judged: readonly ExploreActor[],
  newestDue: Set<string>,
  stepped?: { step: Step; actor: ExploreActor },
): Promise<void> {
  for (const actor of judged) {
    const fail = (message: string, details?: unknown): never => {
      throw new Violation(EXPLORE_RULES.counters, `${actor.name}: ${message}`, actor.name, details);
    };
    const s = actor.state;
    const unread = s.unread_msgs as { count?: unknown } | undefined;
    const counted = countedUnread(s);
    if (unread && counted !== undefined && unread.count !== counted)
      fail(`unread_msgs.count is ${String(unread.count)}, its lists hold ${counted} unread messages`, unread);
    for (const sub of (s.subscriptions ?? []) as Row[]) {
      if (!Array.isArray(sub.subscribers) || typeof sub.subscriber_count !== 'number') continue;
      if (sub.subscriber_count !== sub.subscribers.length)
        fail(
          `channel ${String(sub.stream_id)} has subscriber_count ${sub.subscriber_count} and ${sub.subscribers.length} subscribers`,
          sub,
        );
    }
    env.tally(EXPLORE_RULES.counters);
  }
  const newest = judged.filter((a) => newestDue.has(a.name));
  if (newest.length > 0) {
    await Promise.all(newest.map((a) => checkNewest(a)));
    for (const a of newest) newestDue.delete(a.name);
    env.tally(EXPLORE_RULES.counters, newest.length);
  }
  const touched = stepped && touchedChannel(k, stepped.step);
  if (stepped && touched) {
    await checkTopics(k, stepped.actor, touched);
    env.tally(EXPLORE_RULES.counters);
  }
}

/** Whether a step may move max_message_id for any actor (NEWEST_CHANGERS). */
export function movesNewest(step: Step): boolean {
  return NEWEST_CHANGERS.has(step.operation);
}

/**
 * Operations after which max_message_id may change: sends, and without a message event deletions, moves and the
 * receipts reacting or flagging makes (the events oracle leaves max_message_id to this check).
 */
const NEWEST_CHANGERS = new Set([
  'send-message',
  'delete-message',
  'update-message',
  'add-reaction',
  'remove-reaction',
  'update-message-flags',
  'update-message-flags-for-narrow',
]);

/** register's max_message_id is the newest message the actor can read (GET /messages, newest anchor). */
async function checkNewest(actor: ExploreActor): Promise<void> {
  const max = actor.state.max_message_id;
  if (typeof max !== 'number') return;
  const res = await actor.call('GET', '/api/v1/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [] });
  const messages = res.body.messages as Row[] | undefined;
  if (res.status !== 200 || !Array.isArray(messages)) return;
  const newest = messages.length === 0 ? -1 : Number(messages[messages.length - 1]!.id);
  if (newest !== max)
    throw new Violation(
      EXPLORE_RULES.counters,
      `${actor.name}: max_message_id is ${max}, the newest message it can read is ${newest}`,
      actor.name,
    );
}

/** Every topic with messages in the channel is listed, with the newest message's ID as its max_id. */
async function checkTopics(k: Knowledge, actor: ExploreActor, channelKey: string): Promise<void> {
  const channel = k.channel(channelKey)!;
  const subscribed = ((actor.state.subscriptions ?? []) as Row[]).some((r) => r.stream_id === channel.id);
  if (!subscribed || channel.archived) return;
  const res = await actor.call('GET', `/api/v1/users/me/${channel.id}/topics`);
  const topics = res.body.topics as Row[] | undefined;
  if (res.status !== 200 || !Array.isArray(topics)) return;
  const listed = new Map(topics.map((t) => [String(t.name).toLowerCase(), Number(t.max_id)]));
  for (const m of k.liveMessages()) {
    if (m.channel !== channelKey) continue;
    const newest = Math.max(
      ...k
        .liveMessages()
        .filter((x) => x.channel === channelKey && x.topic === m.topic)
        .map((x) => x.id),
    );
    const max = listed.get(m.topic.toLowerCase());
    if (max !== newest)
      throw new Violation(
        EXPLORE_RULES.counters,
        `${actor.name}: topic "${m.topic}" of channel ${channelKey} lists max_id ${String(max)}, its newest message is ${newest}`,
        actor.name,
        { topics },
      );
  }
}

/** The channel of the sequence whose topics a step changed: the one it sent to, or the one its message is in now. */
function touchedChannel(k: Knowledge, step: Step): string | null {
  if (step.operation !== 'send-message' && step.operation !== 'update-message' && step.operation !== 'delete-message') return null;
  const to = step.params.to;
  if (to && typeof to === 'object' && '$ref' in to) return String((to as { $ref: string }).$ref);
  const key = /\{(m\d+)\}/.exec(step.path)?.[1];
  return key ? (k.message(key)?.channel ?? null) : null;
}
