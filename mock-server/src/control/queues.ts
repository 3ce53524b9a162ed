import { realmTables } from './checks.js';
import type { AppContext } from '../app-context.js';

/**
 * GET /__mock/realms/:realm/queues (the inspector's "event queues with pending events"): a
 * realm's live event queues, whose they are, what they were registered for, and the events they hold that their
 * client has not acknowledged yet. The spec is silent on any such listing; it is a mock-only view for watching
 * a client's event loop.
 *
 * At most PENDING_SHOWN events per queue are listed (the oldest, which the client fetches next); `pending`
 * counts them all, so a queue a client stopped reading cannot make one answer grow without bound.
 */
export const PENDING_SHOWN = 20;

export interface QueueSummary {
  queue_id: string;
  user_id: number;
  email: string | null;
  /** null: every type. */
  event_types: string[] | null;
  /** Events queued and not yet acknowledged. */
  pending: number;
  /** The oldest PENDING_SHOWN of them. */
  events: Record<string, unknown>[];
  last_event_id: number;
  /** A long-poll (GET /events) is waiting on this queue now. */
  waiting: boolean;
  /** Realm time of the last fetch or poll end (the 10-minute idle rule counts from here). */
  last_activity: number;
}

export function listQueues(app: AppContext, realmId: string): QueueSummary[] {
  const tables = realmTables(app.store, realmId);
  return [...app.queues.queuesOf(realmId)].map((queue) => ({
    queue_id: queue.id,
    user_id: queue.userId,
    email: tables.users[String(queue.userId)]?.email ?? null,
    event_types: queue.descriptor.eventTypes ? [...queue.descriptor.eventTypes] : null,
    pending: queue.events.length,
    events: queue.events.slice(0, PENDING_SHOWN),
    last_event_id: queue.nextId - 1,
    waiting: queue.waiter !== null,
    last_activity: queue.lastActivity,
  }));
}
