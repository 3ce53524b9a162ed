import type { PendingEvent } from '../store/store.js';
import type { RealmState } from '../store/state.js';
import { accepts } from './filters.js';
import type { EventQueue } from './queue.js';
import type { QueueRegistry } from './registry.js';
import { shapeFor } from './shape.js';

/**
 * Delivers a committed transaction's events (the store calls this only once the change is durable)
 * to every queue of every user who may see them, filtered and shaped per queue (spec §6).
 */
export function dispatch(
  registry: QueueRegistry,
  tables: RealmState | undefined,
  realmId: string,
  pending: readonly PendingEvent[],
  seq: number,
): void {
  for (const { event, userIds, shape } of pending) {
    const audience = new Set(userIds);
    for (const queue of registry.queuesOf(realmId, null)) {
      // Registered while this change was being written: its snapshot already shows the change.
      if (queue.snapshotSeq >= seq) continue;
      if (!audience.has(queue.userId) && !watchesPublicChannels(queue, event, tables)) continue;
      if (!accepts(queue.descriptor, event, tables)) continue;
      // An emitter may shape per client itself (capability effects specific to one event kind).
      const own = shape ? shape(queue.descriptor.client) : event;
      const events = own === null ? [] : Array.isArray(own) ? own : [own];
      const viewer = tables?.users[String(queue.userId)] ?? null;
      for (const one of events) for (const shaped of shapeFor(one, queue.descriptor, viewer)) queue.push(shaped);
    }
  }
}

/**
 * §4.17: a deactivated account's event queues end with the deactivation (its long-polls are answered;
 * later fetches get BAD_EVENT_QUEUE_ID), after the events that announce it have been delivered. The
 * deactivation event (`realm_user` / update with is_active false, reference §4.17) marks whom.
 */
export function endQueuesOfDeactivated(registry: QueueRegistry, realmId: string, pending: readonly PendingEvent[]): void {
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
 * all_public_streams (§4.21): message events of every public channel, subscribed or not. Bots are
 * left out: a bot receives channel messages only when subscribed (§6.6).
 */
function watchesPublicChannels(queue: EventQueue, event: PendingEvent['event'], tables: RealmState | undefined): boolean {
  // Whether the channel was public is decided when the event is emitted (`_public_channel`), never here:
  // by dispatch time a later transaction may have changed the channel's privacy.
  if (!queue.descriptor.allPublicStreams || event.type !== 'message' || event._public_channel !== true) return false;
  const viewer = tables?.users[String(queue.userId)];
  return Boolean(viewer && !viewer.is_bot);
}
