import type { ExploreActor } from '../actors.js';
import type { Knowledge } from '../knowledge.js';
import type { PolledEvent, Snapshot } from '../reducers/index.js';
import { EXPLORE_RULES, Violation } from '../types.js';
import { mayHoldMessage, maySeeMessage, subscribedTo } from '../visibility.js';

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
 * before the step (where it was then) or after it (one who just lost access is told the message is gone);
 * a flag event also to an actor that still holds its copy of it.
 * Judged by the actor's own register state before the step and with its events applied.
 */
export function checkLeaks(k: Knowledge, actor: ExploreActor, events: readonly PolledEvent[], before: Snapshot, after: Snapshot): void {
  const now = subscribedTo({ state: after } as ExploreActor);
  const then = subscribedTo({ state: before } as ExploreActor);
  for (const e of events) {
    for (const id of messageIdsOf(e)) {
      const m = k.messageById(id);
      if (!m) continue;
      // Flag events are about the actor's own copy, which outlives its access to the message.
      const may = e.type === 'update_message_flags' ? mayHoldMessage : maySeeMessage;
      const seen = [may(actor, m, k, now), may(actor, m, k, then, 'before')];
      if (seen.every((s) => s === false))
        throw new Violation(
          EXPLORE_RULES.noLeaks,
          `${actor.name} received a ${e.type} event about message ${m.key}, which it may not see`,
          actor.name,
          { event: e, subscribedBefore: [...then], subscribedAfter: [...now] },
        );
    }
  }
}
