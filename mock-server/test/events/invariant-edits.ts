import type { MockServer } from '../../src/app.js';
import { call, type Reply, type Who } from '../helpers/test-server.js';
import type { Operation } from './invariant-operations.js';

/**
 * Companion tier, areas edit-delete and compat-lookups, for the register/events invariant: content edits,
 * topic moves (one, later, all; a merge), resolving, moves to another channel (public, and private with
 * protected history, which takes the messages from everyone not subscribed there), deletions (the newest
 * message, a direct message), starring, and topic policies that follow a moved topic. Each runs on the
 * state the previous left; the first ones bring the guest and the bot into channel 52 (private, shared history)
 * and send the topic the others edit there.
 */
async function ok(reply: Promise<Reply>): Promise<Reply> {
  const res = await reply;
  if (res.body.result !== 'success') throw new Error(`operation refused: ${res.text}`);
  return res;
}

/** The messages the first operation sends: m1 … m4, and those sent later by name. */
const made: Record<string, number> = {};

const send = async (s: MockServer, as: Who, form: Record<string, string>, name: string) => {
  made[name] = (await ok(call(s, 'POST', '/api/v1/messages', { as, form }))).body.id as number;
};
const edit = (s: MockServer, as: Who, name: string, form: Record<string, string>) =>
  ok(call(s, 'PATCH', `/api/v1/messages/${made[name]!}`, { as, form }));
const policy = (s: MockServer, as: Who, topic: string, visibility: number) =>
  ok(call(s, 'POST', '/api/v1/user_topics', { as, form: { stream_id: '52', topic, visibility_policy: String(visibility) } }));
const star = (s: MockServer, as: Who, names: string[], op: 'add' | 'remove') =>
  ok(
    call(s, 'POST', '/api/v1/messages/flags', {
      as,
      form: { messages: JSON.stringify(names.map((n) => made[n]!)), op, flag: 'starred' },
    }),
  );
const fullName = (s: MockServer, userId: number) => s.context.store.realm('demo')!.users[String(userId)]!.full_name;

export const EDIT_OPERATIONS: Operation[] = [
  {
    name: 'subscribe: the guest and a member join the channel of the edits',
    run: (s, w) =>
      ok(
        call(s, 'POST', '/api/v1/users/me/subscriptions', {
          as: w.administrator!,
          form: {
            subscriptions: JSON.stringify([{ name: 'renamed channel' }]),
            principals: JSON.stringify([w.guest!.user_id, w.bot!.user_id]),
          },
        }),
      ),
  },
  {
    name: 'send-message: four messages of a topic to edit',
    run: async (s, w) => {
      const topic = { type: 'stream', to: '52', topic: 'edit me' };
      await send(s, w.owner!, { ...topic, content: 'First, by the owner' }, 'm1');
      await send(s, w.member!, { ...topic, content: 'Second' }, 'm2');
      await send(s, w.member_2!, { ...topic, content: 'Third @**all**' }, 'm3');
      await send(s, w.moderator!, { ...topic, content: 'Fourth' }, 'm4');
    },
  },
  {
    name: 'update-user-topic: mute, follow (topic policies of two users)',
    run: async (s, w) => {
      await policy(s, w.member_3!, 'edit me', 1);
      await policy(s, w.member_2!, 'edit me', 3);
    },
  },
  {
    name: 'update-message: content edit that mentions a user',
    run: (s, w) => edit(s, w.owner!, 'm1', { content: `Now for @**${fullName(s, w.member!.user_id)}**` }),
  },
  {
    name: 'update-message: content edit that drops a wildcard mention',
    run: (s, w) => edit(s, w.member_2!, 'm3', { content: 'Third, quietly' }),
  },
  {
    name: 'update-message: move one message to a new topic',
    run: (s, w) => edit(s, w.administrator!, 'm4', { topic: 'one moved', propagate_mode: 'change_one' }),
  },
  {
    name: 'update-message: move it and later ones (change_later)',
    run: (s, w) =>
      edit(s, w.administrator!, 'm2', { topic: 'later moved', propagate_mode: 'change_later', send_notification_to_old_thread: 'true' }),
  },
  {
    name: 'update-message: move a whole topic into another (change_all, a merge)',
    run: (s, w) => edit(s, w.administrator!, 'm1', { topic: 'later moved', propagate_mode: 'change_all' }),
  },
  {
    name: 'update-message: resolve a topic',
    run: (s, w) => edit(s, w.moderator!, 'm2', { topic: '✔ later moved', propagate_mode: 'change_all' }),
  },
  {
    name: 'update-message: unresolve it, with a content edit of the sender',
    run: (s, w) => edit(s, w.member!, 'm2', { topic: 'later moved', propagate_mode: 'change_all', content: 'Second, edited' }),
  },
  {
    name: 'update-message: move a topic to a public channel (a guest loses it)',
    run: (s, w) => edit(s, w.administrator!, 'm4', { stream_id: '53', propagate_mode: 'change_all' }),
  },
  {
    name: 'update-message: move a topic to a private channel with protected history',
    run: (s, w) =>
      edit(s, w.administrator!, 'm1', {
        stream_id: '57',
        topic: 'private now',
        propagate_mode: 'change_all',
        send_notification_to_old_thread: 'true',
      }),
  },
  {
    name: 'update-message-flags: star two messages, unstar one',
    run: async (s, w) => {
      await send(s, w.owner!, { type: 'stream', to: '52', topic: 'stars', content: 'Shine' }, 'shine');
      await star(s, w.member!, ['shine', 'm4'], 'add');
      await star(s, w.member!, ['m4'], 'remove');
    },
  },
  {
    name: 'delete-message: a starred, unread message that is the newest',
    run: (s, w) => ok(call(s, 'DELETE', `/api/v1/messages/${made.shine!}`, { as: w.administrator! })),
  },
  {
    name: 'delete-message: an older channel message',
    run: (s, w) => ok(call(s, 'DELETE', `/api/v1/messages/${made.m4!}`, { as: w.administrator! })),
  },
  {
    name: 'delete-message: the newest message of a direct conversation',
    run: async (s, w) => {
      await send(s, w.member_2!, { type: 'direct', to: JSON.stringify([w.member!.user_id]), content: 'Oops' }, 'oops');
      await send(s, w.member_2!, { type: 'direct', to: JSON.stringify([w.member!.user_id]), content: 'Never mind' }, 'never');
      await ok(call(s, 'DELETE', `/api/v1/messages/${made.never!}`, { as: w.member_2! }));
    },
  },
  {
    name: 'update-user-topic: mute a topic, then unmute it',
    run: async (s, w) => {
      await policy(s, w.member_3!, 'stars', 1);
      await policy(s, w.member_3!, 'stars', 0);
    },
  },
];
