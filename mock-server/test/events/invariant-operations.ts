import type { MockServer } from '../../src/app.js';
import { call, callControl, type Reply, type Who } from '../helpers/test-server.js';

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

const patch = (server: MockServer, as: Who, id: number, form: Record<string, string>) =>
  ok(call(server, 'PATCH', `/api/v1/streams/${id}`, { as, form }));
const send = (server: MockServer, as: Who, form: Record<string, string>) => ok(call(server, 'POST', '/api/v1/messages', { as, form }));

export const CHANNEL_OPERATIONS: Operation[] = [
  { name: 'update-stream: description', run: (s, w) => patch(s, w.administrator!, 51, { description: 'Now **bold**\nand one line' }) },
  { name: 'update-stream: rename', run: (s, w) => patch(s, w.administrator!, 52, { new_name: 'renamed channel' }) },
  {
    name: 'update-stream: make a public channel private',
    run: (s, w) => patch(s, w.administrator!, 52, { is_private: 'true', is_default_stream: 'false' }),
  },
  {
    name: 'update-stream: make a private channel public',
    run: (s, w) => patch(s, w.administrator!, 53, { is_private: 'false', history_public_to_subscribers: 'true' }),
  },
  {
    name: 'update-stream: can_send_message_group',
    run: (s, w) => patch(s, w.administrator!, 51, { can_send_message_group: JSON.stringify({ new: 3 }) }),
  },
  {
    name: 'update-stream: topics_policy and retention',
    run: (s, w) => patch(s, w.owner!, 51, { topics_policy: 'disable_empty_topic', message_retention_days: '90' }),
  },
  { name: 'update-stream: make default', run: (s, w) => patch(s, w.administrator!, 59, { is_default_stream: 'true' }) },
  { name: 'archive-stream', run: (s, w) => ok(call(s, 'DELETE', '/api/v1/streams/59', { as: w.administrator! })) },
  { name: 'update-stream: unarchive', run: (s, w) => patch(s, w.administrator!, 59, { is_archived: 'false' }) },
  {
    name: 'subscribe: create a private channel with another member',
    run: (s, w) =>
      ok(
        call(s, 'POST', '/api/v1/users/me/subscriptions', {
          as: w.member!,
          form: {
            subscriptions: JSON.stringify([{ name: 'invariant secret' }]),
            principals: JSON.stringify([w.member!.user_id, w.member_2!.user_id]),
            invite_only: 'true',
          },
        }),
      ),
  },
  {
    name: 'subscribe: create a public channel',
    run: (s, w) =>
      ok(
        call(s, 'POST', '/api/v1/users/me/subscriptions', {
          as: w.member_2!,
          form: { subscriptions: JSON.stringify([{ name: 'invariant open', description: 'Hi' }]) },
        }),
      ),
  },
  {
    name: 'subscribe: add a bot and the guest to a private channel',
    run: (s, w) =>
      ok(
        call(s, 'POST', '/api/v1/users/me/subscriptions', {
          as: w.owner!,
          form: {
            subscriptions: JSON.stringify([{ name: 'models team' }]),
            principals: JSON.stringify([w.bot!.user_id, w.member_2!.user_id]),
          },
        }),
      ),
  },
  {
    name: 'unsubscribe: self from a private channel',
    run: (s, w) =>
      ok(call(s, 'DELETE', '/api/v1/users/me/subscriptions', { as: w.member!, form: { subscriptions: JSON.stringify(['models team']) } })),
  },
  {
    name: 'unsubscribe: others from a public channel',
    run: (s, w) =>
      ok(
        call(s, 'DELETE', '/api/v1/users/me/subscriptions', {
          as: w.administrator!,
          form: { subscriptions: JSON.stringify(['home']), principals: JSON.stringify([w.member_2!.user_id, w.guest!.user_id]) },
        }),
      ),
  },
  {
    name: 'update-subscription-settings: mute, colour, notifications',
    run: (s, w) =>
      ok(
        call(s, 'POST', '/api/v1/users/me/subscriptions/properties', {
          as: w.member!,
          form: {
            subscription_data: JSON.stringify([
              { stream_id: 51, property: 'in_home_view', value: false },
              { stream_id: 51, property: 'color', value: '#123456' },
              { stream_id: 51, property: 'push_notifications', value: true },
            ]),
          },
        }),
      ),
  },
  {
    name: 'send-message: channel message with a mention',
    run: (s, w) => send(s, w.owner!, { type: 'stream', to: '51', topic: 'invariant', content: 'Hello @**everyone**' }),
  },
  {
    name: 'send-message: to a channel by name, empty topic',
    run: (s, w) => send(s, w.moderator!, { type: 'channel', to: 'majestic chatter', topic: '', content: 'Quiet here' }),
  },
  {
    name: 'send-message: direct message',
    run: (s, w) => send(s, w.member_2!, { type: 'direct', to: JSON.stringify([w.member!.user_id]), content: 'Psst' }),
  },
  {
    name: 'send-message: group direct message',
    run: (s, w) =>
      send(s, w.guest!, { type: 'private', to: JSON.stringify([w.member!.user_id, w.owner!.user_id]), content: 'All three of us' }),
  },
  {
    name: 'send-message: first message of a new channel',
    run: (s, w) => send(s, w.member_2!, { type: 'stream', to: 'invariant open', topic: 'first', content: 'First!' }),
  },
  {
    name: 'mark-topic-as-read',
    run: async (s, w) => {
      const topics = await ok(call(s, 'GET', '/api/v1/users/me/51/topics', { as: w.member!, query: { allow_empty_topic_name: 'true' } }));
      const topic = (topics.body.topics as { name: string }[])[0]!.name;
      return ok(call(s, 'POST', '/api/v1/mark_topic_as_read', { as: w.member!, form: { stream_id: '51', topic_name: topic } }));
    },
  },
];

/** The demo realm's time now (operations schedule relative to it; nothing before the delivery step moves it). */
const demoNow = (s: MockServer) => (s.control.clock('demo') as { now: number }).now;
const schedule = (s: MockServer, as: Who, form: Record<string, string>) => ok(call(s, 'POST', '/api/v1/scheduled_messages', { as, form }));
const editScheduled = (s: MockServer, as: Who, id: number, form: Record<string, string>) =>
  ok(call(s, 'PATCH', `/api/v1/scheduled_messages/${id}`, { as, form }));

/** IDs the scheduled-message operations hand to the later ones (they run in order on one realm). */
const made: Record<string, number> = {};
/** Message operations: reports (a notification-bot post) and sends whose flags come from mentions. */
export const MESSAGE_OPERATIONS: Operation[] = [
  {
    name: 'send-message: user, group, silent and topic-wildcard mentions',
    run: (s, w) =>
      send(s, w.owner!, {
        type: 'stream',
        to: '51',
        topic: 'invariant',
        content: `@**${fullName(s, w.member!.user_id)}**, @*support*, @_*support* and @**topic**: ping`,
      }),
  },
  {
    name: 'report-message: a channel message',
    run: (s, w) =>
      ok(call(s, 'POST', `/api/v1/messages/${firstMessageIn(s, 51)}/report`, { as: w.administrator!, form: { report_type: 'spam' } })),
  },
  {
    name: 'report-message: a direct message, with an explanation',
    run: (s, w) =>
      ok(
        call(s, 'POST', `/api/v1/messages/${directMessageOf(s, w.member!.user_id)}/report`, {
          as: w.member!,
          form: { report_type: 'other', description: 'Not okay.' },
        }),
      ),
  },
];

const fullName = (server: MockServer, userId: number) => server.context.store.realm('demo')!.users[String(userId)]!.full_name;

/** The oldest message of a channel. */
function firstMessageIn(server: MockServer, streamId: number): number {
  return Math.min(
    ...Object.values(server.context.store.realm('demo')!.messages)
      .filter((m) => m.stream_id === streamId)
      .map((m) => m.id),
  );
}

/** A direct message the user received (from the store: the demo world's IDs are not pinned here). */
function directMessageOf(server: MockServer, userId: number): number {
  const realm = server.context.store.realm('demo')!;
  const found = Object.values(realm.messages).find(
    (m) => m.type === 'private' && m.sender_id !== userId && realm.user_messages[String(m.id)]?.flags[String(userId)] !== undefined,
  );
  if (!found) throw new Error('the demo realm has no direct message for this user');
  return found.id;
}

const keep = (name: string) => (res: Reply) => {
  made[name] = (res.body.scheduled_message_id ?? res.body.reminder_id) as number;
  return res;
};

/** The newest message a user received (for a reminder: visible to them whatever the operations before did). */
function newestReceived(s: MockServer, userId: number): number {
  const rows = Object.values(s.context.store.realm('demo')!.user_messages).filter((r) => r.flags[String(userId)] !== undefined);
  return Math.max(...rows.map((r) => r.message_id));
}

/**
 * Scheduled messages and reminders (§4.1, §4.2, §4.19 and companions), then their delivery by the clock
 * (reference §4.1 "Delivery"): message events, unread state, `remove` events, and a failure with the
 * Notification Bot's notice. Channel 58 (empty_topic_only) and channel 59 are left alone by the channel
 * operations' end state, so these run after them or on a fresh demo realm alike.
 */
export const SCHEDULED_OPERATIONS: Operation[] = [
  {
    name: 'create-scheduled-message: channel message in the empty topic',
    run: (s, w) =>
      schedule(s, w.member!, {
        type: 'channel',
        to: '58',
        topic: '',
        content: 'Later, **quietly**',
        scheduled_delivery_timestamp: String(demoNow(s) + 40),
      }).then(keep('channel')),
  },
  {
    name: 'create-scheduled-message: group direct message',
    run: (s, w) =>
      schedule(s, w.member_2!, {
        type: 'direct',
        to: JSON.stringify([w.guest!.user_id, w.member!.user_id, w.member!.user_id]),
        content: 'See you',
        scheduled_delivery_timestamp: String(demoNow(s) + 50),
        read_by_sender: 'true',
      }).then(keep('direct')),
  },
  {
    name: 'update-scheduled-message: content and time',
    run: (s, w) => editScheduled(s, w.member!, made.channel!, { content: 'Edited', scheduled_delivery_timestamp: String(demoNow(s) + 30) }),
  },
  {
    name: 'update-scheduled-message: direct to channel',
    run: (s, w) => editScheduled(s, w.member_2!, made.direct!, { type: 'stream', to: '58', topic: 'general chat' }),
  },
  {
    name: 'create-scheduled-message: one to cancel',
    run: (s, w) =>
      schedule(s, w.owner!, {
        type: 'private',
        to: JSON.stringify([w.owner!.user_id]),
        content: 'Never mind',
        scheduled_delivery_timestamp: String(demoNow(s) + 20),
      }).then(keep('cancel')),
  },
  {
    name: 'delete-scheduled-message',
    run: (s, w) => ok(call(s, 'DELETE', `/api/v1/scheduled_messages/${made.cancel!}`, { as: w.owner! })),
  },
  {
    name: 'create-message-reminder',
    run: (s, w) =>
      ok(
        call(s, 'POST', '/api/v1/reminders', {
          as: w.member!,
          form: {
            message_id: String(newestReceived(s, w.member!.user_id)),
            scheduled_delivery_timestamp: String(demoNow(s) + 45),
            note: 'Answer this',
          },
        }),
      ),
  },
  {
    name: 'create-message-reminder: one to cancel',
    run: (s, w) =>
      ok(
        call(s, 'POST', '/api/v1/reminders', {
          as: w.member_2!,
          form: { message_id: String(newestReceived(s, w.member_2!.user_id)), scheduled_delivery_timestamp: String(demoNow(s) + 45) },
        }),
      ).then(keep('reminder')),
  },
  { name: 'delete-reminder', run: (s, w) => ok(call(s, 'DELETE', `/api/v1/reminders/${made.reminder!}`, { as: w.member_2! })) },
  {
    name: 'create-scheduled-message: to a channel about to be archived',
    run: (s, w) =>
      schedule(s, w.owner!, {
        type: 'stream',
        to: '59',
        topic: 'doomed',
        content: 'Too late',
        scheduled_delivery_timestamp: String(demoNow(s) + 55),
      }).then(keep('doomed')),
  },
  {
    name: 'archive-stream: with a pending scheduled message',
    run: (s, w) => ok(call(s, 'DELETE', '/api/v1/streams/59', { as: w.administrator! })),
  },
  {
    name: 'delivery: the clock passes every due item (sent, reminded, failed)',
    run: (s) => ok(callControl(s, 'POST', '/__mock/realms/demo/clock/advance', { seconds: '60' })),
  },
  {
    name: 'update-scheduled-message: a failed message gets a new time',
    run: (s, w) => editScheduled(s, w.owner!, made.doomed!, { scheduled_delivery_timestamp: String(demoNow(s) + 600) }),
  },
];
