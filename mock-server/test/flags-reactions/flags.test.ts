import { describe, expect, it } from 'vitest';
import { drain, error, openQueue, success, tables, useTestRealm, type Json } from '../helpers/harness.js';
import { call } from '../helpers/test-server.js';
import { ALARM, fetched, flags, HOME, post, postDirect, PROTECTED, storedFlags } from './support.js';

/**
 * POST /messages/flags (companion tier; reference update-message-flags): the caller's own flags, the
 * reference's errors (nothing changes on a refusal), historical copies, the unsubscribed-channel rule of
 * marking unread, and `update_message_flags` events to the caller only, with the register's unread_msgs
 * agreeing after each change.
 */
const env = useTestRealm();

const flagEvent = (op: string, flag: string, messages: number[], extra: Json = {}) => ({
  type: 'update_message_flags',
  op,
  operation: op,
  flag,
  messages,
  all: false,
  ...extra,
});

/** The caller's unread IDs as the register's unread_msgs lists them (channels and direct messages). */
async function unreadIds(who: (typeof env.who)[string]): Promise<number[]> {
  const { snapshot } = await openQueue(env.server, who!, { event_types: '["message", "update_message_flags"]' });
  const u = snapshot.unread_msgs as { streams: { unread_message_ids: number[] }[]; pms: { unread_message_ids: number[] }[]; count: number };
  return [...u.streams, ...u.pms].flatMap((s) => s.unread_message_ids).sort((a, b) => a - b);
}

describe('starring and collapsing', () => {
  it('adds and removes the flag on the caller’s copies only, telling the caller only', async () => {
    const a = await post(env, env.who.member!, HOME);
    const b = await post(env, env.who.member!, HOME);
    const mine = await openQueue(env.server, env.who.member_2!, { event_types: '["update_message_flags"]' });
    const theirs = await openQueue(env.server, env.who.member!, { event_types: '["update_message_flags"]' });
    const res = await flags(env.server, env.who.member_2!, [b, a], 'add', 'starred');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ messages: [b, a] }));
    expect((await fetched(env.server, env.who.member_2!, a)).flags).toEqual(['starred']);
    expect((await fetched(env.server, env.who.member!, a)).flags).toEqual(['read']);
    expect((await flags(env.server, env.who.member_2!, [a], 'remove', 'starred')).body).toEqual(success({ messages: [a] }));
    expect(storedFlags(env, env.who.member_2!.user_id, a)).toEqual([]);
    expect(storedFlags(env, env.who.member_2!.user_id, b)).toEqual(['starred']);
    expect(await drain(env.server, env.who.member_2!, mine.queueId)).toEqual([
      flagEvent('add', 'starred', [a, b]),
      flagEvent('remove', 'starred', [a]),
    ]);
    expect(await drain(env.server, env.who.member!, theirs.queueId)).toEqual([]);
  });

  it('keeps the register’s starred_messages in step', async () => {
    const a = await post(env, env.who.member!, HOME);
    const starred = async () => {
      const { snapshot } = await openQueue(env.server, env.who.member_2!, { event_types: '["starred_messages"]' });
      return snapshot.starred_messages as number[];
    };
    const before = await starred();
    expect(before).not.toContain(a);
    await flags(env.server, env.who.member_2!, [a], 'add', 'starred');
    expect(await starred()).toEqual([...before, a]);
    await flags(env.server, env.who.member_2!, [a], 'remove', 'starred');
    expect(await starred()).toEqual(before);
  });

  // The reference's do_update_message_flags sends its event whatever changed; its messages are those that did.
  const noChange = { type: 'update_message_flags', op: 'add', operation: 'add', messages: [], all: false };

  it('succeeds with an event naming no message when nothing changes', async () => {
    const a = await post(env, env.who.member!, HOME);
    await flags(env.server, env.who.member_2!, [a], 'add', 'collapsed');
    const { queueId } = await openQueue(env.server, env.who.member_2!, { event_types: '["update_message_flags"]' });
    expect((await flags(env.server, env.who.member_2!, [a], 'add', 'collapsed')).body).toEqual(success({ messages: [a] }));
    expect(await drain(env.server, env.who.member_2!, queueId)).toMatchObject([{ ...noChange, flag: 'collapsed' }]);
  });

  it('gives a public-channel reader who never received the message a historical copy', async () => {
    const a = await post(env, env.who.member!, ALARM);
    expect((await flags(env.server, env.who.member_3!, [a], 'add', 'starred')).body).toEqual(success({ messages: [a] }));
    expect(storedFlags(env, env.who.member_3!.user_id, a)).toEqual(['read', 'historical', 'starred']);
  });

  it('writes no copy when marking read a message never received (it already counts as read)', async () => {
    const a = await post(env, env.who.member!, ALARM);
    const { queueId } = await openQueue(env.server, env.who.member_3!, { event_types: '["update_message_flags"]' });
    expect((await flags(env.server, env.who.member_3!, [a], 'add', 'read')).body).toEqual(success({ messages: [a] }));
    expect(storedFlags(env, env.who.member_3!.user_id, a)).toBeUndefined();
    expect(await drain(env.server, env.who.member_3!, queueId)).toMatchObject([{ ...noChange, flag: 'read' }]);
  });
});

describe('read and unread', () => {
  it('keeps the register’s unread_msgs in step, with message_details when marking unread', async () => {
    const a = await post(env, env.who.member!, HOME);
    const dm = await postDirect(env, env.who.member!, [env.who.member_2!.user_id]);
    const reader = env.who.member_2!;
    const before = await unreadIds(reader);
    expect(before).toEqual(expect.arrayContaining([a, dm]));
    expect((await flags(env.server, reader, [a, dm], 'add', 'read')).body).toEqual(success({ messages: [a, dm] }));
    expect(await unreadIds(reader)).toEqual(before.filter((id) => id !== a && id !== dm));
    const { queueId } = await openQueue(env.server, reader, {
      event_types: '["update_message_flags"]',
      client_capabilities: '{"empty_topic_name": true}',
    });
    const res = await flags(env.server, reader, [a, dm], 'remove', 'read');
    expect(res.body).toEqual(success({ messages: [a, dm], ignored_because_not_subscribed_channels: [] }));
    expect(await unreadIds(reader)).toEqual(before);
    expect(await drain(env.server, reader, queueId)).toEqual([
      flagEvent('remove', 'read', [a, dm], {
        message_details: {
          [a]: { type: 'stream', stream_id: HOME, topic: 'flags and reactions', unmuted_stream_msg: true },
          [dm]: { type: 'private', user_ids: [env.who.member!.user_id] },
        },
      }),
    ]);
  });

  it('skips channel messages outside the caller’s subscriptions when marking unread', async () => {
    const a = await post(env, env.who.member!, ALARM);
    await flags(env.server, env.who.member_3!, [a], 'add', 'starred');
    const res = await flags(env.server, env.who.member_3!, [a], 'remove', 'read');
    expect(res.body).toEqual(success({ messages: [], ignored_because_not_subscribed_channels: [ALARM] }));
    expect(storedFlags(env, env.who.member_3!.user_id, a)).toEqual(['read', 'historical', 'starred']);
  });
});

describe('refusals', () => {
  it.each([
    ['shiny', 'add', "Invalid flag: 'shiny'"],
    ['mentioned', 'add', "Flag not editable: 'mentioned'"],
    ['historical', 'remove', "Flag not editable: 'historical'"],
    ['has_alert_word', 'add', "Flag not editable: 'has_alert_word'"],
    ['starred', 'toggle', "Invalid message flag operation: 'toggle'"],
  ])('flag %s op %s: %s', async (flag, op, msg) => {
    const a = await post(env, env.who.member!, HOME);
    const res = await flags(env.server, env.who.member_2!, [a], op, flag);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
    expect(storedFlags(env, env.who.member_2!.user_id, a)).toEqual([]);
  });

  it('changes nothing when one listed message is not visible', async () => {
    const a = await post(env, env.who.member!, HOME);
    const secret = await post(env, env.who.member!, PROTECTED);
    for (const bad of [99_999_999, secret]) {
      const res = await flags(env.server, env.who.guest!, [a, bad], 'add', 'starred');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error('Invalid message(s)'));
    }
    expect(storedFlags(env, env.who.guest!.user_id, a)).toEqual([]);
    expect(storedFlags(env, env.who.guest!.user_id, secret)).toBeUndefined();
  });

  it.each([
    [{ op: 'add', flag: 'read' }, "Missing 'messages' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'messages' }],
    [{ messages: '[1]', flag: 'read' }, "Missing 'op' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'op' }],
    [{ messages: '1', op: 'add', flag: 'read' }, 'messages is not a list', 'BAD_REQUEST', {}],
    [{ messages: '["a"]', op: 'add', flag: 'read' }, 'messages[0] is not an integer', 'BAD_REQUEST', {}],
  ])('parameter errors: %j', async (form, msg, code, extra) => {
    const res = await call(env.server, 'POST', '/api/v1/messages/flags', { as: env.who.member!, form });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg, code, extra));
  });

  it('works alike for every role on a message each can see', async () => {
    const a = await post(env, env.who.owner!, HOME);
    for (const role of ['owner', 'administrator', 'moderator', 'member', 'guest', 'bot']) {
      expect((await flags(env.server, env.who[role]!, [a], 'add', 'starred')).body, role).toEqual(success({ messages: [a] }));
      expect(tables(env.server, env.realm).user_messages[String(a)]!.flags[String(env.who[role]!.user_id)], role).toContain('starred');
    }
  });
});
