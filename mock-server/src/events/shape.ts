import { viewMessage } from '../domain/present/messages.js';
import { viewPerson } from '../domain/present/users.js';
import { unshaped } from '../domain/present/shaping.js';
import type { UserRow } from '../store/state.js';
import { presentTopic } from '../domain/topics.js';
import type { ClientView } from '../contract/client-view.js';
import type { EmittedEvent, EventOf, WireEvent, WireEventOf } from '../contract/event-types.js';
import type { QueueDescriptor } from './queue.js';

/** Topic-bearing keys of events; "" is the empty topic (spec §1, §4.21 empty_topic_name). */
const TOPIC_KEYS = ['subject', 'topic', 'orig_subject', 'orig_topic', 'prev_topic'] as const;

/**
 * Shapes one event for one queue, by the capabilities its client declared (spec §4.21 "Client
 * capability effects") and its register options. Returns the events to queue: none, one or several.
 * Convention for emitters: message events carry `message.content` (Markdown) and
 * `message.rendered_content` (HTML); the queue's apply_markdown picks one. Keys starting with `_`
 * are for shaping only and never reach clients.
 */
export function shapeFor(event: EmittedEvent, descriptor: QueueDescriptor, viewer: UserRow | null = null): WireEvent[] {
  const client = descriptor.client;
  const userView = { viewer, clientGravatar: descriptor.clientGravatar };
  switch (event.type) {
    case 'realm_linkifiers':
      return client.linkifier_url_template ? [event] : [];
    case 'delete_message':
      return splitDeletion(event, client);
    case 'user_settings':
      return [unshaped(event), ...(client.user_settings_object ? [] : legacySettingsEvents(event))];
    case 'user_group':
      // `data` may be missing from an event injected through the control API.
      if (event.op === 'update' && event.data?.deactivated === true && !client.include_deactivated_groups) {
        return [{ type: 'user_group', op: 'remove', group_id: event.group_id }];
      }
      return [event];
    case 'message':
      return [unshaped(presentMessage(event, descriptor, viewer))];
    case 'realm_user':
      // delivery_email and avatar_url depend on who reads (domain/present/users.ts); an injected event may have no person.
      if (event.person === undefined) return [unshaped(event)];
      // One line per op: narrowed first, each op's person keeps its own schema (one line over the union would not).
      if (event.op === 'add') return [unshaped({ ...event, person: viewPerson(event.person, userView) })];
      if (event.op === 'update') return [unshaped({ ...event, person: viewPerson(event.person, userView) })];
      return [unshaped({ ...event, person: viewPerson(event.person, userView) })];
    default:
      return [unshaped(withTopics(event, client))];
  }
}

function splitDeletion(event: EventOf<'delete_message'>, client: ClientView): WireEventOf<'delete_message'>[] {
  const ids = event.message_ids ?? (event.message_id !== undefined ? [event.message_id] : []);
  const { message_ids: _ids, message_id: _id, ...base } = withTopics(event, client);
  if (client.bulk_message_deletion) return [{ ...base, message_ids: [...ids].sort((a, b) => a - b) }];
  return ids.map((id) => ({ ...base, message_id: id }));
}

/** Clients without user_settings_object also get the legacy events (spec §4.21). */
const NOTIFICATION_SETTINGS = /notif|presence_enabled|sound|email|push|wildcard_mentions|desktop|audible|digest/;
function legacySettingsEvents(
  event: EventOf<'user_settings'>,
): (WireEventOf<'update_global_notifications'> | WireEventOf<'update_display_settings'>)[] {
  if (event.op !== 'update' || typeof event.property !== 'string') return [];
  // `_user_email`: the user's API email, which the legacy forms name (users/status.ts sets it).
  const user = typeof event._user_email === 'string' ? event._user_email : '';
  return NOTIFICATION_SETTINGS.test(event.property)
    ? [{ type: 'update_global_notifications', notification_name: event.property, setting: event.value, user }]
    : [{ type: 'update_display_settings', setting_name: event.property, setting: event.value, user }];
}

function presentMessage(event: EventOf<'message'>, descriptor: QueueDescriptor, viewer: UserRow | null) {
  const view = {
    applyMarkdown: descriptor.applyMarkdown,
    clientGravatar: descriptor.clientGravatar,
    emptyTopicName: descriptor.client.empty_topic_name,
    viewer,
  };
  return withTopics({ ...event, message: viewMessage(event.message, view) }, descriptor.client);
}

/** A copy of the event with the empty topic under its display name, for clients without empty_topic_name. */
function withTopics<E extends object>(event: E, client: ClientView): E {
  const out = { ...event };
  if (client.empty_topic_name) return out;
  // Any event type may carry these keys: read and written by name, whatever the event's type.
  for (const key of TOPIC_KEYS) if (Reflect.get(out, key) === '') Reflect.set(out, key, presentTopic('', client));
  return out;
}
