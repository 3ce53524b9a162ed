import type { ExploreActor } from '../actors.js';
import type { Knowledge } from '../knowledge.js';
import type { PolledEvent, Snapshot } from '../reducers/index.js';
import { EXPLORE_RULES, Violation } from '../types.js';
import { maySeeMessage, subscribedTo } from '../visibility.js';

/** The message IDs an event is about. */
function messageIdsOf(e: PolledEvent): number[] {
  if (e.type === 'message') return [Number((e.message as { id?: unknown } | undefined)?.id)];
  if (Array.isArray(e.message_ids)) return e.message_ids as number[];
  if (Array.isArray(e.messages)) return e.messages as number[];
  if (typeof e.message_id === 'number') return [e.message_id];
  return [];
}

/**
 * No leaks: an event about a message of the sequence goes only to an actor who may see that message,
 * before the step (in the channel it was in then) or after it (one who just lost access is told the
 * message is gone). Judged by the actor's own register state before and after the step's events.
 */
export function checkLeaks(
  k: Knowledge,
  actor: ExploreActor,
  events: readonly PolledEvent[],
  /** Each message's channel key before the step (moves change it). */
  prior: ReadonlyMap<number, string | null>,
  before: Snapshot,
  after: Snapshot,
): void {
  const now = subscribedTo({ state: after } as ExploreActor);
  const then = subscribedTo({ state: before } as ExploreActor);
  for (const e of events) {
    for (const id of messageIdsOf(e)) {
      const m = k.messageById(id);
      if (!m) continue;
      const was = prior.has(id) ? { ...m, channel: prior.get(id)! } : null;
      const seen = [maySeeMessage(actor, m, k, now), was ? maySeeMessage(actor, was, k, then) : maySeeMessage(actor, m, k, then)];
      if (seen.every((s) => s === false))
        throw new Violation(
          EXPLORE_RULES.noLeaks,
          `${actor.name} received a ${e.type} event about message ${m.key}, which it may not see`,
          actor.name,
          { event: e, subscribedBefore: [...then], subscribedAfter: [...now], channel: k.channel(m.channel ?? '')?.id ?? null },
        );
    }
  }
}
