import { describe, expect, it } from 'vitest';
import { call, callControl } from '../helpers/test-server.js';
import { drain, openQueue, success, tables, unreadByTopic, useTestRealm, nowOf } from '../helpers/harness.js';
import { unsubscribe } from '../subscriptions/support.js';
import {
  advance,
  channelForm,
  deliveredMessage,
  directForm,
  editScheduled,
  listScheduled,
  newestMessage,
  remind,
  schedule,
  setActive,
} from './support.js';

/**
 * Delivery driven by the realm clock (spec §3 "not shown"; reference §4.1 "Delivery"): when the control
 * API moves the clock past a scheduled message it is sent as its sender, at its delivery time, before
 * the control call answers; when it can no longer be sent it stays listed as failed and the Notification
 * Bot tells the sender why.
 */
const env = useTestRealm();
const PYTHON = { 'user-agent': 'ZulipPython/0.9.1 (Linux)' };
const BOT = 22;
const at = (seconds: number) => String(nowOf(env.server, env.realm) + seconds);

describe('delivery', () => {
  it('sends a direct message at its time: the recipient’s queue, unread state and the sender’s flags', async () => {
    const created = await schedule(
      env.server,
      env.who.member!,
      directForm(env.server, env.realm, [15], { content: 'On time', scheduled_delivery_timestamp: at(30) }),
      PYTHON,
    );
    const id = created.body.scheduled_message_id as number;
    const recipient = await openQueue(env.server, env.who.member_2!, { event_types: '["message"]' });
    const sender = await openQueue(env.server, env.who.member!, {
      event_types: '["message", "scheduled_messages"]',
      apply_markdown: 'false',
    });
    await advance(env.server, env.realm, 29);
    expect(deliveredMessage(env.server, env.realm, id)).toBeUndefined();
    await advance(env.server, env.realm, 1);
    const message = deliveredMessage(env.server, env.realm, id)!;
    expect(message).toMatchObject({
      sender_id: 14,
      type: 'private',
      dm_user_ids: [14, 15],
      content: 'On time',
      timestamp: nowOf(env.server, env.realm),
      client: 'ZulipPython',
    });
    const [received] = await drain(env.server, env.who.member_2!, recipient.queueId);
    expect(received).toMatchObject({
      type: 'message',
      flags: [],
      message: { id: message.id, sender_id: 14, timestamp: message.timestamp },
    });
    expect(await drain(env.server, env.who.member!, sender.queueId)).toEqual([
      expect.objectContaining({ type: 'message', flags: [], message: expect.objectContaining({ id: message.id, content: 'On time' }) }),
      { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id },
    ]);
    const { snapshot } = await openQueue(env.server, env.who.member_2!, { event_types: '["message", "update_message_flags"]' });
    expect((snapshot.unread_msgs as { pms: { other_user_id: number; unread_message_ids: number[] }[] }).pms).toContainEqual(
      expect.objectContaining({ other_user_id: 14, unread_message_ids: expect.arrayContaining([message.id]) }),
    );
    expect((await listScheduled(env.server, env.who.member!)).map((s) => s.scheduled_message_id)).not.toContain(id);
  });

  it('sends a channel message to the subscribers, read by its sender when read_by_sender says so', async () => {
    const created = await schedule(
      env.server,
      env.who.member!,
      channelForm(env.server, env.realm, { topic: 'delivered', scheduled_delivery_timestamp: at(60), read_by_sender: 'true' }),
    );
    await advance(env.server, env.realm, 60);
    const message = deliveredMessage(env.server, env.realm, created.body.scheduled_message_id as number)!;
    expect(message).toMatchObject({ type: 'stream', stream_id: 51, subject: 'delivered' });
    expect(tables(env.server, env.realm).user_messages[String(message.id)]!.flags['14']).toEqual(['read']);
    expect((await unreadByTopic(env.server, env.who.member_2!))['51/delivered']).toEqual([message.id]);
  });

  it('delivers every due item in order of time, then ID, reminders among them', async () => {
    const b = (
      await schedule(
        env.server,
        env.who.member!,
        channelForm(env.server, env.realm, { content: 'B', scheduled_delivery_timestamp: at(50) }),
      )
    ).body.scheduled_message_id as number;
    const r = (await remind(env.server, env.who.member!, { message_id: '1090', scheduled_delivery_timestamp: at(50) })).body
      .reminder_id as number;
    const c = (
      await schedule(
        env.server,
        env.who.member_2!,
        directForm(env.server, env.realm, [14], { content: 'C', scheduled_delivery_timestamp: at(50) }),
      )
    ).body.scheduled_message_id as number;
    const a = (
      await schedule(
        env.server,
        env.who.member!,
        channelForm(env.server, env.realm, { content: 'A', scheduled_delivery_timestamp: at(40) }),
      )
    ).body.scheduled_message_id as number;
    expect([b < r, r < c, c < a]).toEqual([true, true, true]);
    await advance(env.server, env.realm, 120);
    const reminder = tables(env.server, env.realm).reminders[String(r)]!;
    const order = [a, b, c].map((id) => deliveredMessage(env.server, env.realm, id)!.id);
    order.splice(2, 0, reminder.delivered_message_id!);
    expect(order).toEqual([...order].sort((x, y) => x - y));
    expect(new Set(order).size).toBe(4);
  });

  it('the server clock (every realm) and setting a realm’s time deliver too, before answering', async () => {
    const first = (
      await schedule(env.server, env.who.member!, channelForm(env.server, env.realm, { scheduled_delivery_timestamp: at(100) }))
    ).body.scheduled_message_id as number;
    expect((await callControl(env.server, 'POST', '/__mock/clock/advance', { seconds: '100' })).status).toBe(200);
    expect(deliveredMessage(env.server, env.realm, first)).toBeDefined();
    const second = (
      await schedule(env.server, env.who.member!, channelForm(env.server, env.realm, { scheduled_delivery_timestamp: at(500) }))
    ).body.scheduled_message_id as number;
    expect((await callControl(env.server, 'PUT', `/__mock/realms/${env.realm}/clock`, { now: at(500) })).status).toBe(200);
    expect(deliveredMessage(env.server, env.realm, second)).toBeDefined();
  });
});

describe('failure: the message stays listed with failed true, and the Notification Bot says why', () => {
  const patch = (id: number, form: Record<string, string>) =>
    call(env.server, 'PATCH', `/api/v1/streams/${id}`, { as: env.who.owner!, form });
  const email15 = () => tables(env.server, env.realm).users['15']!.email;
  const cases: [string, Record<string, string>, () => Promise<unknown>, string, () => string][] = [
    [
      'the channel was archived',
      { to: '52', topic: 't' },
      () => call(env.server, 'DELETE', '/api/v1/streams/52', { as: env.who.administrator! }),
      '#**alarm>t**',
      () => "Not authorized to send to channel 'alarm'",
    ],
    [
      'the sender may no longer post',
      { topic: 't' },
      () => patch(51, { can_send_message_group: JSON.stringify({ new: 3 }) }),
      '#**home>t**',
      () => 'You do not have permission to post in this channel.',
    ],
    [
      'the topic is now refused',
      { topic: '' },
      () => patch(51, { topics_policy: 'disable_empty_topic' }),
      '#**home**',
      () => 'Sending messages to the general chat is not allowed in this channel.',
    ],
    // The channel's name is not repeated to someone who may no longer know it (it may have been renamed since).
    [
      'the sender left a private channel',
      { to: '54', topic: 't' },
      () => unsubscribe(env.server, env.who.member!, ['models team']),
      'a channel you can no longer access',
      () => "Channel with ID '54' does not exist",
    ],
    [
      'a recipient was deactivated',
      { type: 'direct', to: '[15]' },
      () => setActive(env.server, env.realm, 15, false),
      '@_**Maribel Kunze|15**',
      () => `'${email15()}' is no longer using Zulip.`,
    ],
  ];
  it.each(cases)('%s', async (_name, form, change, where, reason) => {
    const id = (
      await schedule(
        env.server,
        env.who.member!,
        channelForm(env.server, env.realm, { ...form, content: 'Line one\n\nline two', scheduled_delivery_timestamp: at(60) }),
      )
    ).body.scheduled_message_id as number;
    expect(((await change()) as { body?: { result?: string } } | undefined)?.body?.result ?? 'success').toBe('success');
    const queue = await openQueue(env.server, env.who.member!, { event_types: '["scheduled_messages"]' });
    await advance(env.server, env.realm, 60);
    expect(tables(env.server, env.realm).scheduled_messages[String(id)]).toMatchObject({ failed: true, delivered_message_id: null });
    const listed = (await listScheduled(env.server, env.who.member!)).find((s) => s.scheduled_message_id === id);
    expect(listed).toMatchObject({ failed: true });
    expect(await drain(env.server, env.who.member!, queue.queueId)).toEqual([
      { type: 'scheduled_messages', op: 'update', scheduled_message: listed },
    ]);
    const notice = newestMessage(env.server, env.realm);
    expect(notice).toMatchObject({
      sender_id: BOT,
      type: 'private',
      dm_user_ids: [14, BOT],
      client: 'Internal',
      timestamp: nowOf(env.server, env.realm),
    });
    expect(notice.content).toBe(
      `I couldn't send the following message to ${where} at the scheduled time. Reason: ${reason()}\n\n> Line one\n>\n> line two`,
    );
    expect(tables(env.server, env.realm).user_messages[String(notice.id)]!.flags['14']).toEqual([]);
  });

  it('a deactivated sender’s message fails without a notice', async () => {
    const id = (await schedule(env.server, env.who.member!, channelForm(env.server, env.realm, { scheduled_delivery_timestamp: at(60) })))
      .body.scheduled_message_id as number;
    const newest = newestMessage(env.server, env.realm).id;
    await setActive(env.server, env.realm, 14, false);
    await advance(env.server, env.realm, 60);
    expect(tables(env.server, env.realm).scheduled_messages[String(id)]!.failed).toBe(true);
    expect(newestMessage(env.server, env.realm).id).toBe(newest);
  });

  it('a failed message given a new time is sent once the cause is gone', async () => {
    const id = (await schedule(env.server, env.who.member!, channelForm(env.server, env.realm, { scheduled_delivery_timestamp: at(60) })))
      .body.scheduled_message_id as number;
    await patch(51, { can_send_message_group: JSON.stringify({ new: 3 }) });
    await advance(env.server, env.realm, 60);
    await patch(51, { can_send_message_group: JSON.stringify({ new: 7 }) });
    expect((await editScheduled(env.server, env.who.member!, id, { scheduled_delivery_timestamp: at(60) })).body).toEqual(success());
    await advance(env.server, env.realm, 60);
    expect(tables(env.server, env.realm).scheduled_messages[String(id)]).toMatchObject({
      failed: false,
      delivered_message_id: expect.any(Number),
    });
  });
});
