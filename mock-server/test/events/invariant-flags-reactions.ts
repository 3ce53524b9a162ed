import type { MockServer } from '../../src/app.js';
import type { RealmState } from '../../src/store/state.js';
import { call, type Reply, type Who } from '../helpers/test-server.js';
import type { Operation } from './invariant-operations.js';

async function ok(reply: Promise<Reply>): Promise<Reply> {
  const res = await reply;
  if (res.body.result !== 'success') throw new Error(`operation refused: ${res.text}`);
  return res;
}

const demo = (s: MockServer): RealmState => s.context.store.realm('demo')!;

/** The oldest message of a channel that the user received (`read`: whether it must be read, unread or either). */
function received(s: MockServer, userId: number, where: (m: RealmState['messages'][string]) => boolean, read?: boolean): number {
  const t = demo(s);
  for (const m of Object.values(t.messages).sort((a, b) => a.id - b.id)) {
    const flags = t.user_messages[String(m.id)]?.flags[String(userId)];
    if (flags && where(m) && (read === undefined || flags.includes('read') === read)) return m.id;
  }
  throw new Error(`no message for user ${userId}`);
}

/**
 * A message of a public channel with shared history that the user never received, older than the newest
 * one they did (so the historical copy a reaction makes does not move their max_message_id, which no event
 * announces, on the reference server either).
 */
function historical(s: MockServer, userId: number): number {
  const t = demo(s);
  const max = Math.max(
    ...Object.keys(t.user_messages)
      .filter((id) => t.user_messages[id]!.flags[String(userId)])
      .map(Number),
  );
  for (const m of Object.values(t.messages)) {
    const channel = m.stream_id === null ? undefined : t.channels[String(m.stream_id)];
    const open = channel && !channel.invite_only && channel.history_public_to_subscribers && !channel.is_archived;
    if (open && m.id < max && !t.user_messages[String(m.id)]?.flags[String(userId)]) return m.id;
  }
  throw new Error(`no historical message for user ${userId}`);
}

const react = (s: MockServer, as: Who, id: number, method: 'POST' | 'DELETE', form: Record<string, string>) =>
  ok(call(s, method, `/api/v1/messages/${id}/reactions`, { as, form }));
const flags = (s: MockServer, as: Who, ids: number[], op: string, flag: string) =>
  ok(call(s, 'POST', '/api/v1/messages/flags', { as, form: { messages: JSON.stringify(ids), op, flag } }));

/**
 * Companion tier, area flags-reactions, for the register/events invariant: reactions (no register key
 * changes, but the events must be known), and flags whose `update_message_flags` events keep unread_msgs in
 * step: read, unread (message_details), a channel, everything (`all`).
 */
export const FLAGS_REACTIONS_OPERATIONS: Operation[] = [
  {
    name: 'add-reaction: a home message, then a vote and its removal',
    run: async (s, w) => {
      const both = (m: RealmState['messages'][string]) =>
        demo(s).user_messages[String(m.id)]?.flags[String(w.member!.user_id)] !== undefined;
      const id = received(s, w.member_2!.user_id, (m) => m.stream_id === 51 && both(m));
      await react(s, w.member_2!, id, 'POST', { emoji_name: 'octopus' });
      await react(s, w.member!, id, 'POST', { emoji_name: 'octopus' });
      await react(s, w.member!, id, 'DELETE', { emoji_name: 'octopus' });
    },
  },
  {
    name: 'add-reaction: a public message never received (historical copy)',
    run: (s, w) => react(s, w.member_3!, historical(s, w.member_3!.user_id), 'POST', { emoji_name: 'tada' }),
  },
  {
    name: 'update-message-flags: star and collapse',
    run: async (s, w) => {
      const id = received(s, w.member!.user_id, (m) => m.type === 'stream');
      await flags(s, w.member!, [id], 'add', 'starred');
      await flags(s, w.member!, [id], 'add', 'collapsed');
    },
  },
  {
    name: 'update-message-flags: mark a channel message and a direct message unread, then one read',
    run: async (s, w) => {
      const inHome = received(s, w.member!.user_id, (m) => m.stream_id === 51, true);
      const direct = received(s, w.member!.user_id, (m) => m.type === 'private', true);
      await flags(s, w.member!, [inHome, direct], 'remove', 'read');
      await flags(s, w.member!, [direct], 'add', 'read');
    },
  },
  {
    name: 'mark-stream-as-read: home',
    run: (s, w) => ok(call(s, 'POST', '/api/v1/mark_stream_as_read', { as: w.member!, form: { stream_id: '51' } })),
  },
  { name: 'mark-all-as-read', run: (s, w) => ok(call(s, 'POST', '/api/v1/mark_all_as_read', { as: w.member_2! })) },
];
