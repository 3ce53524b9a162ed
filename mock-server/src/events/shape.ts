import { viewMessage } from '../domain/present/messages.js';
import { viewPerson } from '../domain/present/users.js';
import type { UserRow } from '../store/state.js';
import { presentTopic } from '../domain/topics.js';
import type { ClientView } from '../contract/client-view.js';
import type { QueueDescriptor } from './queue.js';

export type EventBody = Record<string, unknown> & { type: string };

/** Topic-bearing keys of events; "" is the empty topic (spec §1, §4.21 empty_topic_name). */
const TOPIC_KEYS = ['subject', 'topic', 'orig_subject', 'orig_topic', 'prev_topic'];

/**
 * Shapes one event for one queue, by the capabilities its client declared (spec §4.21 "Client
 * capability effects") and its register options. Returns the events to queue: none, one or several.
 * Convention for emitters: message events carry `message.content` (Markdown) and
 * `message.rendered_content` (HTML); the queue's apply_markdown picks one. Keys starting with `_`
 * are for shaping only and never reach clients.
 */
export function shapeFor(event: EventBody, descriptor: QueueDescriptor, viewer: UserRow | null = null): EventBody[] {
  const client = descriptor.client;
  switch (event.type) {
    case 'realm_linkifiers':
      return client.linkifier_url_template ? [event] : [];
    case 'delete_message':
      return splitDeletion(event, client);
    case 'user_settings':
      return [clean({ ...event }), ...(client.user_settings_object ? [] : legacySettingsEvents(event))];
    case 'user_group': {
      const data = event.data as Record<string, unknown> | undefined;
      if (event.op === 'update' && data?.deactivated === true && !client.include_deactivated_groups) {
        return [{ type: 'user_group', op: 'remove', group_id: event.group_id }];
      }
      return [event];
    }
    case 'message':
      return [clean(presentMessage(event, descriptor, viewer))];
    case 'realm_user':
      // delivery_email and avatar_url depend on who reads (domain/present/users.ts).
      if (event.person === undefined) return [clean({ ...event })];
      return [
        clean({
          ...event,
          person: viewPerson(event.person as Record<string, unknown>, { viewer, clientGravatar: descriptor.clientGravatar }),
        }),
      ];
    default:
      return [clean(withTopics(event, client))];
  }
}

function splitDeletion(event: EventBody, client: ClientView): EventBody[] {
  const ids = (event.message_ids as number[] | undefined) ?? (event.message_id !== undefined ? [event.message_id as number] : []);
  const base = withTopics(event, client);
  delete base.message_ids;
  delete base.message_id;
  if (client.bulk_message_deletion) return [{ ...base, message_ids: [...ids].sort((a, b) => a - b) }];
  return ids.map((id) => ({ ...base, message_id: id }));
}

/** Clients without user_settings_object also get the legacy events (spec §4.21). */
const NOTIFICATION_SETTINGS = /notif|presence_enabled|sound|email|push|wildcard_mentions|desktop|audible|digest/;
function legacySettingsEvents(event: EventBody): EventBody[] {
  if (event.op !== 'update' || typeof event.property !== 'string') return [];
  return NOTIFICATION_SETTINGS.test(event.property)
    ? [{ type: 'update_global_notifications', notification_name: event.property, setting: event.value, user: event._user_email ?? '' }]
    : [{ type: 'update_display_settings', setting_name: event.property, setting: event.value, user: event._user_email ?? '' }];
}

function presentMessage(event: EventBody, descriptor: QueueDescriptor, viewer: UserRow | null): EventBody {
  const view = {
    applyMarkdown: descriptor.applyMarkdown,
    clientGravatar: descriptor.clientGravatar,
    emptyTopicName: descriptor.client.empty_topic_name,
    viewer,
  };
  return withTopics({ ...event, message: viewMessage(event.message as Record<string, unknown>, view) }, descriptor.client);
}

function withTopics(event: EventBody, client: ClientView): EventBody {
  if (client.empty_topic_name) return { ...event };
  const out: EventBody = { ...event };
  for (const key of TOPIC_KEYS) if (out[key] === '') out[key] = presentTopic('', client);
  return out;
}

function clean<T extends Record<string, unknown>>(value: T): T {
  for (const key of Object.keys(value)) if (key.startsWith('_')) delete value[key];
  return value;
}
