import type { ApiClient, Credentials, Params, Reply } from '../client.js';

/** An answer an oracle or the setup reads. */
export type Answer = { status: number; body: Record<string, unknown>; text: string };
import type { World, WorldRole } from '../world.js';
import type { Snapshot } from './reducers/index.js';

/**
 * The event types every explore queue asks for and the state it fetches with them (spec §4.21): what the
 * operations explore draws can change. Fewer than all, so that the events oracle's fresh registers stay cheap.
 */
export const EXPLORE_EVENT_TYPES = [
  'message',
  'update_message',
  'delete_message',
  'reaction',
  'update_message_flags',
  'subscription',
  'stream',
  'user_topic',
  'drafts',
  'scheduled_messages',
  'reminders',
  'saved_snippets',
  'navigation_view',
  // register fetches the views under this name (the event type is singular); without it the state has none.
  'navigation_views',
  'realm_linkifiers',
  'user_status',
  // register's starred_messages (starring is an update_message_flags event).
  'starred_messages',
];

/** What a modern client declares (spec §4.21): the events speak the current dialect. */
export const MODERN_CAPABILITIES = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: true,
  stream_typing_notifications: true,
  user_settings_object: true,
  linkifier_url_template: true,
  user_list_incomplete: true,
  include_deactivated_groups: true,
  archived_channels: true,
  empty_topic_name: true,
  simplified_presence_events: true,
};

/** Roles explore acts as, in this order; `--users K` takes the first K the world file has. */
export const ACTOR_ROLES: readonly WorldRole[] = ['administrator', 'member', 'member_2', 'guest', 'moderator', 'member_3', 'owner'];

/** One user explore acts as, with its event queue and the state it keeps from register + events. */
export class ExploreActor {
  queueId = '';
  lastEventId = -1;
  /** Register state with every event received so far applied (the events oracle keeps it). */
  state: Snapshot = {};
  /** Queue deletions under way (dropQueue). */
  readonly #dropping = new Set<Promise<unknown>>();

  constructor(
    private readonly client: ApiClient,
    readonly name: string,
    readonly credentials: Credentials,
    readonly userId: number,
    readonly isGuest: boolean,
    /** Registers without client capabilities: the legacy shapes of events and state. */
    readonly legacy: boolean,
  ) {}

  /** A request of a step: recorded (redacted, with its curl line) for the report. */
  send(method: string, path: string, params: Params = {}): Promise<Reply> {
    return this.client.call(method, path, params, this.credentials);
  }

  /** Any other request (setup, the oracles' reads): not recorded, so it costs only the request. */
  call(method: string, path: string, params: Params = {}): Promise<Answer> {
    return this.client.quiet(method, path, params, this.credentials);
  }

  /**
   * Deletes a queue without waiting for the answer (a fresh register's, which the oracle reads only once): the
   * next request need not wait for it. `settled` waits for every one; a failure is ignored (the queue expires).
   */
  dropQueue(queueId: string): void {
    const deleting: Promise<unknown> = this.call('DELETE', '/api/v1/events', { queue_id: queueId })
      .catch(() => undefined)
      .finally(() => this.#dropping.delete(deleting));
    this.#dropping.add(deleting);
  }

  /** Waits for the queues dropQueue is deleting. */
  async settled(): Promise<void> {
    await Promise.all(this.#dropping);
  }

  /** The register options of this actor's queue; a fresh register with the same options is the oracle's reference. */
  registerParams(): Params {
    return {
      event_types: EXPLORE_EVENT_TYPES,
      fetch_event_types: EXPLORE_EVENT_TYPES,
      include_subscribers: true,
      apply_markdown: true,
      ...(this.legacy ? {} : { client_capabilities: MODERN_CAPABILITIES }),
    };
  }
}

/** The first `count` roles of ACTOR_ROLES the world has; every third registers as a legacy client. */
export function actorsOf(world: World, client: ApiClient, count: number): ExploreActor[] {
  const roles = ACTOR_ROLES.filter((r) => world.credentials[r] !== undefined).slice(0, Math.max(2, count));
  return roles.map((role, i) => {
    const c = world.credentials[role]!;
    return new ExploreActor(client, role, { role, email: c.email, api_key: c.api_key! }, c.user_id!, role === 'guest', i % 3 === 2);
  });
}
