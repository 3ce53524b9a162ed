import { SERVICE_VERSION } from '../config/version.js';
import { badRequest } from '../domain/errors.js';
import { clientView } from '../contract/client-view.js';
import type { QueueDescriptor } from '../events/queue.js';
import { registerSnapshot } from '../events/register-state.js';
import { notLoggedIn } from '../http/auth.js';
import { defineRoutes, type RequestContext } from '../http/define-routes.js';
import { ROLE } from '../contract/roles.js';

const typeSet = (value: unknown) => (Array.isArray(value) ? new Set(value as string[]) : null);

/** §4.21 parameters → what the queue receives and how it is shaped. */
function descriptorFrom(params: Record<string, unknown>, clientGravatar: boolean): QueueDescriptor {
  return {
    eventTypes: typeSet(params.event_types),
    narrow: ((params.narrow as [string, string][] | undefined) ?? []).map(([o, v]) => [o, v] as const),
    allPublicStreams: params.all_public_streams === true,
    client: clientView(params.client_capabilities as Record<string, unknown> | undefined),
    applyMarkdown: params.apply_markdown === true,
    clientGravatar,
  };
}

function register({ app, actor, realm, realmId, tables, features, now, params }: RequestContext) {
  const includeSubscribers = params.include_subscribers as 'true' | 'false' | 'partial';
  // `partial` exists from feature level 412 (§9); below it the value is unknown.
  if (includeSubscribers === 'partial' && !features.has('include_subscribers_partial')) throw badRequest('Invalid include_subscribers');
  if (!actor) {
    if (params.client_gravatar === true) throw badRequest("Invalid 'client_gravatar' parameter for anonymous request");
    if (includeSubscribers === 'true') throw badRequest("Invalid 'include_subscribers' parameter for anonymous request");
  } else if (actor.user.role === ROLE.guest && params.all_public_streams === true) {
    throw badRequest('User not authorized for this query');
  }
  // §4.21: client_gravatar defaults to true when authenticated, false otherwise.
  const clientGravatar = (params.client_gravatar as boolean | undefined) ?? actor !== null;
  const descriptor = descriptorFrom(params, clientGravatar);
  const fetchEventTypes = params.fetch_event_types === undefined ? descriptor.eventTypes : typeSet(params.fetch_event_types);
  // Queue and snapshot in the same tick, from the same live state: the queue skips the events of every
  // transaction the snapshot already shows (even those still being written), so last_event_id is -1.
  const queue = actor ? app.queues.create(realmId, actor.user.user_id, descriptor, app.store.appliedSeq) : null;
  const snapshot = registerSnapshot(tables, actor?.user ?? null, {
    fetchEventTypes,
    eventTypes: descriptor.eventTypes,
    client: descriptor.client,
    applyMarkdown: descriptor.applyMarkdown,
    clientGravatar,
    includeSubscribers: includeSubscribers === 'partial' ? 'partial' : includeSubscribers === 'true',
    slimPresence: params.slim_presence === true,
    presenceHistoryLimitDays: params.presence_history_limit_days as number,
    now,
    features,
  });
  return {
    queue_id: queue?.id ?? null,
    last_event_id: -1,
    service_feature_level: realm.feature_level,
    service_version: SERVICE_VERSION,
    ...snapshot,
  };
}

export default defineRoutes([
  {
    operationId: 'register-queue',
    // §5, C21: anonymous register only where the realm allows public access (then without a queue).
    // An authentication answer, so it comes before any parameter is read.
    gate: ({ actor, realm }) => {
      if (!actor && !realm.enable_spectator_access) throw notLoggedIn();
    },
    handle: register,
  },
  {
    // §6 (reference §6): long-polling. Events stay until acknowledged by a later last_event_id.
    operationId: 'get-events',
    async handle({ app, actor, realmId, params, signal }) {
      const user = actor!.user;
      const queueId = params.queue_id as string | undefined;
      const dontBlock = params.dont_block === true;
      if (queueId === undefined) {
        if (!dontBlock) throw badRequest("Missing 'queue_id' argument");
        // Without a queue_id and with dont_block, the call registers a queue with default options.
        const queue = app.queues.create(realmId, user.user_id, descriptorFrom(params, (params.client_gravatar as boolean | undefined) ?? true), app.store.appliedSeq);
        return { events: [], queue_id: queue.id };
      }
      if (params.last_event_id === undefined) throw badRequest("Missing 'last_event_id' argument");
      const queue = app.queues.get(queueId, realmId, user.user_id);
      queue.acknowledge(params.last_event_id as number);
      app.queues.touch(queue);
      if (queue.events.length === 0 && !dontBlock) {
        await app.queues.wait(queue, signal);
        // The queue may have ended while we waited (realm reset, user deactivated).
        app.queues.get(queueId, realmId, user.user_id);
        app.queues.touch(queue);
      }
      return { events: [...queue.events] };
    },
  },
  {
    operationId: 'delete-queue',
    handle({ app, actor, realmId, params }) {
      app.queues.delete(app.queues.get(params.queue_id as string, realmId, actor!.user.user_id));
      return {};
    },
  },
]);
