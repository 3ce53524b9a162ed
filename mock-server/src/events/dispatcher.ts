import type { PendingEvent } from '../store/store.js';
import type { RealmState } from '../store/state.js';
import { Fanout } from './fanout.js';
import { accepts } from './filters.js';
import type { EventQueue } from './queue.js';
import type { QueueRegistry } from './registry.js';

/**
 * Delivers a committed transaction's events (the store calls this only once the change is durable)
 * to every queue of every user who may see them, filtered and shaped per queue (spec §6).
 *
 * The recipients come from the registry's indexes (the audience's queues, then the realm's
 * all_public_streams queues), never from a walk over every queue of the realm; what shaping makes is made
 * once per class of alike queues (events/fanout.ts). Every event is queued before this returns; the
 * waiting polls are woken in batches (registry.ts `wake`), so a fan-out to thousands does not hold the
 * loop for all of their answers at once.
 */
export function dispatch(
  registry: QueueRegistry,
  tables: RealmState | undefined,
  realmId: string,
  pending: readonly PendingEvent[],
  seq: number,
): void {
  // No queue in the realm: nothing to shape or wake (a realm's empty user map is removed with its last queue).
  if (!registry.hasQueues(realmId)) return;
  const woken = new Set<EventQueue>();
  for (const { event, userIds, shape } of pending) {
    const fanout = new Fanout(event, shape);
    const deliver = (queue: EventQueue) => {
      // Registered while this change was being written: its snapshot already shows the change.
      if (queue.snapshotSeq >= seq) return;
      if (!accepts(queue.descriptor, event, tables)) return;
      const { events, heads } = fanout.for(queue.descriptor, tables?.users[String(queue.userId)] ?? null);
      for (let i = 0; i < events.length; i++) queue.append(events[i]!, heads[i]);
      if (events.length > 0) woken.add(queue);
    };
    const audience = new Set(userIds);
    for (const queue of registry.queuesOfUsers(realmId, audience)) deliver(queue);
    if (toPublicChannel(event)) {
      for (const queue of registry.publicWatchersOf(realmId)) {
        if (!audience.has(queue.userId) && !isBot(queue, tables)) deliver(queue);
      }
    }
  }
  registry.wake(woken);
}

/**
 * §4.17: a deactivated account's event queues end with the deactivation (its long-polls are answered;
 * later fetches get BAD_EVENT_QUEUE_ID), after the events that announce it have been delivered. The
 * deactivation event (`realm_user` / update with is_active false, reference §4.17) marks whom.
 */
export function endQueuesOfDeactivated(registry: QueueRegistry, realmId: string, pending: readonly PendingEvent[]): void {
  if (!registry.hasQueues(realmId)) return;
  const ended = new Set<number>();
  for (const { event } of pending) {
    if (event.type !== 'realm_user' || event.op !== 'update') continue;
    // `person` may be missing from an event injected through the control API.
    const person: Partial<typeof event.person> | undefined = event.person;
    if (person?.is_active === false && person.user_id !== undefined) ended.add(person.user_id);
  }
  for (const userId of ended) registry.dropUser(realmId, userId);
}

/**
 * all_public_streams (§4.21) queues get message events of every public channel, subscribed or not.
 * Whether the channel was public is decided when the event is emitted (`_public_channel`), never here:
 * by dispatch time a later transaction may have changed the channel's privacy.
 */
const toPublicChannel = (event: PendingEvent['event']) => event.type === 'message' && event._public_channel === true;

/** Bots are left out: a bot receives channel messages only when subscribed (§6.6); so is a user no longer there. */
function isBot(queue: EventQueue, tables: RealmState | undefined): boolean {
  const viewer = tables?.users[String(queue.userId)];
  return !viewer || viewer.is_bot;
}
