import type { Features } from '../config/features.js';
import { SERVICE_VERSION, compatibilityKeys } from '../config/version.js';
import type { Hangup } from '../contract/hangup.js';
import type { ParamsOf } from '../contract/operation-types.js';
import { badRequest, tooManyNarrowTerms } from '../domain/errors.js';
import { MAX_NARROW_TERMS } from '../domain/messages/narrow.js';
import { mayRegisterForAllPublicChannels } from '../domain/permissions.js';
import type { RealmRow, RealmState, UserRow } from '../store/state.js';
import type { Store } from '../store/store.js';
import { clientView } from '../contract/client-view.js';
import type { QueueDescriptor } from './queue.js';
import { registerSnapshot } from './register-state.js';
import type { QueueRegistry } from './registry.js';

/**
 * The actions of the event operations (§4.21, §6): they change no table, only the event queues, but they
 * follow the `do<Operation>` convention of the domain's actions so that one grep lists every operation that
 * changes state.
 */
export interface QueueActor {
  queues: QueueRegistry;
  store: Pick<Store, 'appliedSeq'>;
  realmId: string;
  realm: RealmRow;
  tables: RealmState;
  /** null: an anonymous register (spectator, §5). */
  user: UserRow | null;
  features: Features;
  now: number;
  /** The server's upload limit, announced in the snapshot (area live). */
  maxFileUploadMib?: number;
}

/** The queue options every event operation that creates a queue shares with register. */
type QueueOptions = Pick<
  ParamsOf<'get-events'>,
  'event_types' | 'narrow' | 'all_public_streams' | 'client_capabilities' | 'apply_markdown'
>;

const typeSet = (types: string[] | undefined) => (types === undefined ? null : new Set(types));

/** §4.21 parameters → what the queue receives and how it is shaped. */
function descriptorFrom(params: QueueOptions, clientGravatar: boolean): QueueDescriptor {
  // The queue keeps its narrow and checks every term against every message event: bounded as GET /messages bounds it.
  if ((params.narrow?.length ?? 0) > MAX_NARROW_TERMS) throw tooManyNarrowTerms(MAX_NARROW_TERMS);
  return {
    eventTypes: typeSet(params.event_types),
    narrow: params.narrow ?? [],
    allPublicStreams: params.all_public_streams === true,
    client: clientView(params.client_capabilities),
    applyMarkdown: params.apply_markdown === true,
    clientGravatar,
  };
}

/** POST /register (§4.21): a queue (none for a spectator) and the state it starts from. */
export function doRegisterQueue(actor: QueueActor, params: ParamsOf<'register-queue'>) {
  const { user, features } = actor;
  const includeSubscribers = params.include_subscribers;
  // `partial` exists from feature level 412 (§9); below it the value is unknown.
  if (includeSubscribers === 'partial' && !features.has('include_subscribers_partial')) throw badRequest('Invalid include_subscribers');
  if (!user) {
    if (params.client_gravatar === true) throw badRequest("Invalid 'client_gravatar' parameter for anonymous request");
    if (includeSubscribers === 'true') throw badRequest("Invalid 'include_subscribers' parameter for anonymous request");
  } else if (params.all_public_streams && !mayRegisterForAllPublicChannels(user)) {
    throw badRequest('User not authorized for this query');
  }
  // §4.21: client_gravatar defaults to true when authenticated, false otherwise.
  const clientGravatar = params.client_gravatar ?? user !== null;
  const descriptor = descriptorFrom(params, clientGravatar);
  const fetchEventTypes = params.fetch_event_types === undefined ? descriptor.eventTypes : typeSet(params.fetch_event_types);
  // Queue and snapshot in the same tick, from the same live state: the queue skips the events of every
  // transaction the snapshot already shows (even those still being written), so last_event_id is -1.
  const queue = user ? actor.queues.create(actor.realmId, user.user_id, descriptor, actor.store.appliedSeq) : null;
  const snapshot = registerSnapshot(actor.tables, user, {
    fetchEventTypes,
    eventTypes: descriptor.eventTypes,
    client: descriptor.client,
    applyMarkdown: descriptor.applyMarkdown,
    clientGravatar,
    includeSubscribers: includeSubscribers === 'partial' ? 'partial' : includeSubscribers === 'true',
    slimPresence: params.slim_presence,
    presenceHistoryLimitDays: params.presence_history_limit_days,
    ...(actor.maxFileUploadMib !== undefined ? { maxFileUploadMib: actor.maxFileUploadMib } : {}),
    now: actor.now,
    features,
  });
  return {
    queue_id: queue?.id ?? null,
    last_event_id: -1,
    service_feature_level: actor.realm.feature_level,
    service_version: SERVICE_VERSION,
    ...compatibilityKeys(actor.realm.feature_level),
    ...snapshot,
  };
}

/**
 * GET /events (§6, reference §6): long-polling. Events stay until acknowledged by a later last_event_id;
 * without a queue_id and with dont_block, the call registers a queue with default options.
 */
export async function doGetEvents(actor: QueueActor & { user: UserRow }, params: ParamsOf<'get-events'>, signal: Hangup) {
  const { queues, realmId, user } = actor;
  const queueId = params.queue_id;
  if (queueId === undefined) {
    if (!params.dont_block) throw badRequest("Missing 'queue_id' argument");
    const queue = queues.create(realmId, user.user_id, descriptorFrom(params, params.client_gravatar ?? true), actor.store.appliedSeq);
    return { events: [], queue_id: queue.id };
  }
  if (params.last_event_id === undefined) throw badRequest("Missing 'last_event_id' argument");
  const queue = queues.get(queueId, realmId, user.user_id);
  queue.acknowledge(params.last_event_id);
  queues.touch(queue);
  // In a silence (control API) a long-poll waits even with events queued: they go out when it ends.
  if ((queue.events.length === 0 || queues.silenced(queue)) && !params.dont_block) {
    await queues.wait(queue, signal);
    // The queue may have ended while we waited: a restart answers with what it held (the next poll is
    // BAD_EVENT_QUEUE_ID); a realm reset or a deactivated user ends it with BAD_EVENT_QUEUE_ID now.
    if (queue.answeredAtEnd) return { events: queue.pending() };
    queues.resume(queue);
    // Ended by a newer poll of the queue during a silence: nothing gets through, not even the queued events.
    if (queues.silenced(queue)) return { events: [] };
  }
  return { events: queue.pending() };
}

/** DELETE /events (§6). */
export function doDeleteQueue(actor: QueueActor & { user: UserRow }, params: ParamsOf<'delete-queue'>): void {
  actor.queues.delete(actor.queues.get(params.queue_id, actor.realmId, actor.user.user_id));
}
