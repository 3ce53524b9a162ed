import type { AppContext } from '../app-context.js';
import type { EmittedEvent } from '../contract/event-types.js';
import { badRequest, jsonTooDeep } from '../domain/errors.js';
import { BODY_LIMIT_BYTES } from '../http/body.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../contract/json-depth.js';
import type { RealmState } from '../store/state.js';

/** An injected event's JSON text at most: the API's request body limit. */
const MAX_EVENT_CHARS = BODY_LIMIT_BYTES;

/**
 * Sends an event to users' queues through the same path as every committed change (after
 * durability, filtered and shaped per queue): lets client developers exercise their event handlers.
 */
export async function injectEvent(
  app: AppContext,
  tables: RealmState,
  realmId: string,
  event: unknown,
  userIds: unknown,
): Promise<{ user_ids: number[] }> {
  if (!event || typeof event !== 'object' || Array.isArray(event) || typeof (event as { type?: unknown }).type !== 'string') {
    throw badRequest('event must be an object with a string type.');
  }
  // Here too, not only on the wire: the programmatic API reaches queues the same way.
  if (nestedDeeperThan(event)) throw jsonTooDeep('event', MAX_JSON_DEPTH);
  // Every user's queue holds it until acknowledged: no bigger than an API request body may be.
  if (JSON.stringify(event).length > MAX_EVENT_CHARS)
    throw badRequest(`event is too large (limit: ${MAX_EVENT_CHARS} characters of JSON).`);
  const everyone = Object.values(tables.users)
    .filter((u) => u.is_active && !u.is_system_bot)
    .map((u) => u.user_id);
  if (userIds !== undefined && (!Array.isArray(userIds) || !userIds.every((id) => Number.isInteger(id) && tables.users[String(id)]))) {
    throw badRequest('user_ids must be a list of user IDs of the realm.');
  }
  const audience = (userIds as number[] | undefined) ?? everyone;
  const { id: _ignored, ...body } = event as Record<string, unknown> & { type: string };
  // The one event that is not built by the server: a test's payload, described by the document or not,
  // delivered as given. Shaping and filtering read every field of an event as possibly absent for it.
  const injected = body as EmittedEvent;
  await app.store.transact(realmId, (tx) => tx.emit(injected, audience));
  return { user_ids: audience };
}
