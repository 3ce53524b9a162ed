import type { MockServer } from '../../src/app.js';
import { error } from '../helpers/harness.js';
import { call, type Reply, type Who } from '../helpers/test-server.js';

/**
 * Helpers of the subscription, topic and sending tests: the demo realm's channels and users
 * these tests name, and the subscription operations the Python client's way. The harness every area
 * shares (realms, answers, event queues) is test/helpers/harness.ts.
 */

/** Users of the demo realm without a world-file role (role 400, see fixtures/world.demo.json). */
export const ASHTON = 17; // subscribed to 51 home, 52 alarm, 56 old matrix
export const KIRA = 18; // subscribed to 51 home, 59 array tickets
export const BOT = 21; // owned by member_3 (16), subscribed to 51 only

/** Demo channel names by ID (fixtures/world.demo.json). */
export const NAMES: Record<number, string> = {
  51: 'home',
  52: 'alarm',
  53: 'directives leads',
  54: 'models team',
  55: 'computers announcements',
  56: 'old matrix',
  57: 'port moderation',
  58: 'majestic chatter',
  59: 'array tickets',
};

export const streamMissing = (name: string) => error(`Channel '${name}' does not exist`, 'STREAM_DOES_NOT_EXIST', { stream: name });
export const INVALID_CHANNEL = error('Invalid channel ID');

/** DELETE /users/me/subscriptions the Python client's way: JSON lists in a form body. */
export function unsubscribe(server: MockServer, as: Who, subscriptions: string[], principals?: (number | string)[]): Promise<Reply> {
  const form: Record<string, string> = { subscriptions: JSON.stringify(subscriptions) };
  if (principals !== undefined) form.principals = JSON.stringify(principals);
  return call(server, 'DELETE', '/api/v1/users/me/subscriptions', { as, form });
}

export function subscribe(server: MockServer, as: Who, names: string[], extra: Record<string, string> = {}): Promise<Reply> {
  const form = { subscriptions: JSON.stringify(names.map((name) => ({ name }))), ...extra };
  return call(server, 'POST', '/api/v1/users/me/subscriptions', { as, form });
}

export function markTopic(server: MockServer, as: Who, streamId: number | string, topicName: string): Promise<Reply> {
  return call(server, 'POST', '/api/v1/mark_topic_as_read', { as, form: { stream_id: String(streamId), topic_name: topicName } });
}

export function topics(server: MockServer, as: Who, streamId: number | string, query: Record<string, string> = {}): Promise<Reply> {
  return call(server, 'GET', `/api/v1/users/me/${streamId}/topics`, { as, query });
}

export function updateProperties(server: MockServer, as: Who, changes: unknown[]): Promise<Reply> {
  return call(server, 'POST', '/api/v1/users/me/subscriptions/properties', { as, form: { subscription_data: JSON.stringify(changes) } });
}
