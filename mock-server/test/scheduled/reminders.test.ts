import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { drain, error, observeEvents, openQueue, success, tables, useTestRealm, nowOf } from '../helpers/harness.js';
import { advance, HOUR, listReminders, newestMessage, remind, setActive } from './support.js';

/**
 * Message reminders (spec §2.12, §4.19, C3, C20; reference §4.19): create, list, delete, events, and the
 * delivery by the Notification Bot. Demo messages: 1090 in #home (member was mentioned), 1079 a direct
 * message of member and member_2, 1030 hidden from member_2 by protected history, 1055 visible to them.
 */
const env = useTestRealm();
const FUTURE = error('Scheduled delivery time must be in the future.');
const INVALID = error('Invalid message(s)');
const soon = () => String(nowOf(env.server, env.realm) + HOUR);
/** Within a queue's ten idle minutes (§6.2), for tests that read events across the delivery. */
const shortly = () => String(nowOf(env.server, env.realm) + 300);
/** A message of #alarm (public, shared history) that neither member_3 (16) nor the guest (19) received. */
function alarmMessage(): number {
  const t = tables(env.server, env.realm);
  const unseen = Object.values(t.messages).filter(
    (m) => m.stream_id === 52 && !['16', '19'].some((u) => t.user_messages[String(m.id)]!.flags[u]),
  );
  return Math.min(...unseen.map((m) => m.id));
}

describe('create-message-reminder: every parameter optional (C20), the checks in the reference order', () => {
  const cases: [string, string, () => Record<string, string>, Record<string, unknown>][] = [
    ['nothing sent: no time in the future', 'member', () => ({}), FUTURE],
    ['no message', 'member', () => ({ scheduled_delivery_timestamp: soon() }), INVALID],
    ['a message but no time', 'member', () => ({ message_id: '1090' }), FUTURE],
    ['message_id not JSON', 'member', () => ({ message_id: 'x' }), error('message_id is not valid JSON')],
    ['message_id quoted', 'member', () => ({ message_id: '"1090"' }), error('message_id is not an integer')],
    [
      'the time comes before the message',
      'member_3',
      () => ({ message_id: '1079', scheduled_delivery_timestamp: String(nowOf(env.server, env.realm)) }),
      FUTURE,
    ],
    ['an unknown message', 'member', () => ({ message_id: '99999', scheduled_delivery_timestamp: soon() }), INVALID],
    ["someone else's direct message", 'member_3', () => ({ message_id: '1079', scheduled_delivery_timestamp: soon() }), INVALID],
    [
      'protected history from before the subscription',
      'member_2',
      () => ({ message_id: '1030', scheduled_delivery_timestamp: soon() }),
      INVALID,
    ],
    [
      'a guest and a public channel they are not in',
      'guest',
      () => ({ message_id: String(alarmMessage()), scheduled_delivery_timestamp: soon() }),
      INVALID,
    ],
    [
      'the message comes before the note',
      'member_3',
      () => ({ message_id: '1079', scheduled_delivery_timestamp: soon(), note: 'x'.repeat(1001) }),
      INVALID,
    ],
    [
      'a note longer than max_reminder_note_length',
      'member',
      () => ({ message_id: '1090', scheduled_delivery_timestamp: soon(), note: 'x'.repeat(1001) }),
      error('Maximum reminder note length: 1000 characters'),
    ],
  ];
  it.each(cases)('%s', async (_name, role, form, expected) => {
    const res = await remind(env.server, env.who[role]!, form());
    expect([res.status, res.body]).toEqual([400, expected]);
    expect(Object.keys(tables(env.server, env.realm).reminders)).toEqual(['5', '6']);
  });

  const visible: [string, string, () => string][] = [
    ['a message they received', 'member', () => '1090'],
    ['protected history after the subscription', 'member_2', () => '1055'],
    ['shared history of a public channel they are not in', 'member_3', () => String(alarmMessage())],
  ];
  it.each(visible)('accepts %s', async (_name, role, id) => {
    expect((await remind(env.server, env.who[role]!, { message_id: id(), scheduled_delivery_timestamp: soon() })).body).toEqual(
      success({ reminder_id: 7 }),
    );
  });

  it('counts the note in characters: 1000 emoji fit', async () => {
    expect(
      (await remind(env.server, env.who.member!, { message_id: '1090', scheduled_delivery_timestamp: soon(), note: '🙂'.repeat(1000) }))
        .body.result,
    ).toBe('success');
  });
});

describe('get-reminders and delete-reminder', () => {
  it('lists the caller’s pending reminders by delivery time with the spec’s fields (note defaults to "")', async () => {
    await remind(env.server, env.who.member!, { message_id: '1079', scheduled_delivery_timestamp: soon() });
    const reminders = await listReminders(env.server, env.who.member!);
    expect(reminders.map((r) => r.reminder_id)).toEqual([7, 5]);
    expect(reminders[0]).toEqual({
      reminder_id: 7,
      message_id: 1079,
      scheduled_delivery_timestamp: Number(soon()),
      note: '',
      type: 'private',
      to: [14],
      failed: false,
      reminder_target_message_id: 1079,
    });
    expect((await listReminders(env.server, env.who.member_2!)).map((r) => r.reminder_id)).toEqual([6]);
  });

  it.each([
    ["another user's reminder", 6],
    ['a scheduled message', 1],
    ['an unknown ID', 99],
  ])('DELETE answers 404 for %s', async (_name, id) => {
    const res = await call(env.server, 'DELETE', `/api/v1/reminders/${id}`, { as: env.who.member! });
    expect([res.status, res.body]).toEqual([404, { result: 'error', code: 'BAD_REQUEST', msg: 'Reminder does not exist' }]);
    expect(Object.keys(tables(env.server, env.realm).reminders)).toEqual(['5', '6']);
  });

  it('DELETE cancels one; a delivered reminder is no longer there to cancel', async () => {
    expect((await call(env.server, 'DELETE', '/api/v1/reminders/5', { as: env.who.member! })).body).toEqual(success());
    expect(await listReminders(env.server, env.who.member!)).toEqual([]);
    await advance(env.server, env.realm, 7 * HOUR);
    expect((await call(env.server, 'DELETE', '/api/v1/reminders/6', { as: env.who.member_2! })).status).toBe(404);
  });
});

describe('reminders events and delivery', () => {
  it('add and remove go to the user’s queues only', async () => {
    const events = await observeEvents(env, ['member', 'member_2'], {}, async () => {
      await remind(env.server, env.who.member!, { message_id: '1090', scheduled_delivery_timestamp: soon(), note: 'n' });
      await call(env.server, 'DELETE', '/api/v1/reminders/7', { as: env.who.member! });
    });
    const [object] = (await listReminders(env.server, env.who.member!)).filter((r) => r.reminder_id === 7);
    expect(object).toBeUndefined();
    expect(events).toEqual({
      member: [
        {
          type: 'reminders',
          op: 'add',
          reminders: [
            {
              reminder_id: 7,
              message_id: 1090,
              scheduled_delivery_timestamp: Number(soon()),
              note: 'n',
              type: 'private',
              to: [14],
              failed: false,
              reminder_target_message_id: 1090,
            },
          ],
        },
        { type: 'reminders', op: 'remove', reminder_id: 7 },
      ],
      member_2: [],
    });
  });

  it('at its time the Notification Bot links the message and quotes the note; the reminder leaves the list', async () => {
    const id = (
      await remind(env.server, env.who.member!, { message_id: '1090', scheduled_delivery_timestamp: shortly(), note: 'Reply\nbefore noon' })
    ).body.reminder_id as number;
    const queue = await openQueue(env.server, env.who.member!, { event_types: '["message", "reminders"]', apply_markdown: 'false' });
    await advance(env.server, env.realm, 300);
    const message = newestMessage(env.server, env.realm);
    expect(message).toMatchObject({ sender_id: 22, dm_user_ids: [14, 22], timestamp: nowOf(env.server, env.realm), client: 'Internal' });
    const topic = tables(env.server, env.realm).messages['1090']!.subject;
    const link = `#narrow/channel/51-home/topic/${encodeURIComponent(topic).replace(/%/g, '.')}/near/1090`;
    expect(message.content).toBe(
      `Here is the reminder you asked for: [this message](${link}) from @_**Maribel Kunze|15** in #**home>${topic}**.\n\n> Reply\n> before noon`,
    );
    expect(tables(env.server, env.realm).reminders[String(id)]).toMatchObject({ delivered_message_id: message.id, failed: false });
    expect(await drain(env.server, env.who.member!, queue.queueId)).toEqual([
      expect.objectContaining({ type: 'message', flags: [], message: expect.objectContaining({ id: message.id }) }),
      { type: 'reminders', op: 'remove', reminder_id: id },
    ]);
    expect((await listReminders(env.server, env.who.member!)).map((r) => r.reminder_id)).toEqual([5]);
  });

  it('fails when the message is no longer visible: removed from the list, and the user is told', async () => {
    const id = (
      await remind(env.server, env.who.member_3!, {
        message_id: String(alarmMessage()),
        scheduled_delivery_timestamp: shortly(),
        note: 'why',
      })
    ).body.reminder_id as number;
    // #alarm turns private with protected history (and stops being a default channel, which it must):
    // member_3, never subscribed, no longer sees its history.
    const patched = await call(env.server, 'PATCH', '/api/v1/streams/52', {
      as: env.who.owner!,
      form: { is_private: 'true', history_public_to_subscribers: 'false', is_default_stream: 'false' },
    });
    expect(patched.body.result).toBe('success');
    const queue = await openQueue(env.server, env.who.member_3!, { event_types: '["reminders"]' });
    await advance(env.server, env.realm, 300);
    expect(tables(env.server, env.realm).reminders[String(id)]).toMatchObject({ failed: true, delivered_message_id: null });
    expect(await drain(env.server, env.who.member_3!, queue.queueId)).toEqual([{ type: 'reminders', op: 'remove', reminder_id: id }]);
    expect(await listReminders(env.server, env.who.member_3!)).toEqual([]);
    expect(newestMessage(env.server, env.realm)).toMatchObject({
      sender_id: 22,
      dm_user_ids: [16, 22],
      content: "I couldn't deliver a reminder you asked for. Reason: The message is no longer visible to you.\n\n> why",
    });
  });

  it('fails without a notice for a deactivated user', async () => {
    const newest = newestMessage(env.server, env.realm).id;
    await setActive(env.server, env.realm, 15, false);
    await advance(env.server, env.realm, 7 * HOUR);
    expect(tables(env.server, env.realm).reminders['6']).toMatchObject({ failed: true, delivered_message_id: null });
    expect(Object.values(tables(env.server, env.realm).messages).filter((m) => m.id > newest && m.dm_user_ids?.includes(15))).toEqual([]);
  });
});
