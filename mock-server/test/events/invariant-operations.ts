import type { MockServer } from '../../src/app.js';
import { call, type Reply, type Who } from '../helpers/test-server.js';

/**
 * The state-changing operations the register/events invariant runs, in this order, on one demo realm
 * (each starts from the state the previous left). Each must succeed: a refused request proves nothing.
 */
export interface Operation {
  name: string;
  run(server: MockServer, who: Record<string, Who & { user_id: number }>): Promise<unknown>;
}

async function ok(reply: Promise<Reply>): Promise<Reply> {
  const res = await reply;
  if (res.body.result !== 'success') throw new Error(`operation refused: ${res.text}`);
  return res;
}

const patch = (server: MockServer, as: Who, id: number, form: Record<string, string>) => ok(call(server, 'PATCH', `/api/v1/streams/${id}`, { as, form }));
const send = (server: MockServer, as: Who, form: Record<string, string>) => ok(call(server, 'POST', '/api/v1/messages', { as, form }));

export const CHANNEL_OPERATIONS: Operation[] = [
  { name: 'update-stream: description', run: (s, w) => patch(s, w.administrator!, 51, { description: 'Now **bold**\nand one line' }) },
  { name: 'update-stream: rename', run: (s, w) => patch(s, w.administrator!, 52, { new_name: 'renamed channel' }) },
  { name: 'update-stream: make a public channel private', run: (s, w) => patch(s, w.administrator!, 52, { is_private: 'true', is_default_stream: 'false' }) },
  { name: 'update-stream: make a private channel public', run: (s, w) => patch(s, w.administrator!, 53, { is_private: 'false', history_public_to_subscribers: 'true' }) },
  { name: 'update-stream: can_send_message_group', run: (s, w) => patch(s, w.administrator!, 51, { can_send_message_group: JSON.stringify({ new: 3 }) }) },
  { name: 'update-stream: topics_policy and retention', run: (s, w) => patch(s, w.owner!, 51, { topics_policy: 'disable_empty_topic', message_retention_days: '90' }) },
  { name: 'update-stream: make default', run: (s, w) => patch(s, w.administrator!, 59, { is_default_stream: 'true' }) },
  { name: 'archive-stream', run: (s, w) => ok(call(s, 'DELETE', '/api/v1/streams/59', { as: w.administrator! })) },
  { name: 'update-stream: unarchive', run: (s, w) => patch(s, w.administrator!, 59, { is_archived: 'false' }) },
  {
    name: 'subscribe: create a private channel with another member',
    run: (s, w) =>
      ok(call(s, 'POST', '/api/v1/users/me/subscriptions', { as: w.member!, form: { subscriptions: JSON.stringify([{ name: 'invariant secret' }]), principals: JSON.stringify([w.member!.user_id, w.member_2!.user_id]), invite_only: 'true' } })),
  },
  {
    name: 'subscribe: create a public channel',
    run: (s, w) => ok(call(s, 'POST', '/api/v1/users/me/subscriptions', { as: w.member_2!, form: { subscriptions: JSON.stringify([{ name: 'invariant open', description: 'Hi' }]) } })),
  },
  {
    name: 'subscribe: add a bot and the guest to a private channel',
    run: (s, w) => ok(call(s, 'POST', '/api/v1/users/me/subscriptions', { as: w.owner!, form: { subscriptions: JSON.stringify([{ name: 'models team' }]), principals: JSON.stringify([w.bot!.user_id, w.member_2!.user_id]) } })),
  },
  { name: 'unsubscribe: self from a private channel', run: (s, w) => ok(call(s, 'DELETE', '/api/v1/users/me/subscriptions', { as: w.member!, form: { subscriptions: JSON.stringify(['models team']) } })) },
  {
    name: 'unsubscribe: others from a public channel',
    run: (s, w) => ok(call(s, 'DELETE', '/api/v1/users/me/subscriptions', { as: w.administrator!, form: { subscriptions: JSON.stringify(['home']), principals: JSON.stringify([w.member_2!.user_id, w.guest!.user_id]) } })),
  },
  {
    name: 'update-subscription-settings: mute, colour, notifications',
    run: (s, w) =>
      ok(call(s, 'POST', '/api/v1/users/me/subscriptions/properties', {
        as: w.member!,
        form: { subscription_data: JSON.stringify([{ stream_id: 51, property: 'in_home_view', value: false }, { stream_id: 51, property: 'color', value: '#123456' }, { stream_id: 51, property: 'push_notifications', value: true }]) },
      })),
  },
  { name: 'send-message: channel message with a mention', run: (s, w) => send(s, w.owner!, { type: 'stream', to: '51', topic: 'invariant', content: 'Hello @**everyone**' }) },
  { name: 'send-message: to a channel by name, empty topic', run: (s, w) => send(s, w.moderator!, { type: 'channel', to: 'majestic chatter', topic: '', content: 'Quiet here' }) },
  { name: 'send-message: direct message', run: (s, w) => send(s, w.member_2!, { type: 'direct', to: JSON.stringify([w.member!.user_id]), content: 'Psst' }) },
  { name: 'send-message: group direct message', run: (s, w) => send(s, w.guest!, { type: 'private', to: JSON.stringify([w.member!.user_id, w.owner!.user_id]), content: 'All three of us' }) },
  { name: 'send-message: first message of a new channel', run: (s, w) => send(s, w.member_2!, { type: 'stream', to: 'invariant open', topic: 'first', content: 'First!' }) },
  {
    name: 'mark-topic-as-read',
    run: async (s, w) => {
      const topics = await ok(call(s, 'GET', '/api/v1/users/me/51/topics', { as: w.member!, query: { allow_empty_topic_name: 'true' } }));
      const topic = (topics.body.topics as { name: string }[])[0]!.name;
      return ok(call(s, 'POST', '/api/v1/mark_topic_as_read', { as: w.member!, form: { stream_id: '51', topic_name: topic } }));
    },
  },
];
