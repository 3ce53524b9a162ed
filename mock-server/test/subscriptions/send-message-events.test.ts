import { describe, expect, it } from 'vitest';
import { drain, openQueue, send, tables, useTestRealm, type Event, type Json } from '../helpers/harness.js';

/**
 * What sending produces (spec §2.5 message and flags, §4.21 capability effects, §6.4 `message`; reference
 * §4.1 read_by_sender): a `message` event with the caller's `flags` to every subscriber (and the
 * sender), content as HTML or Markdown per apply_markdown, the empty topic as `general chat` for clients
 * without the empty_topic_name capability; the sender's `read` flag false by default for API clients.
 */

const env = useTestRealm();

const MESSAGES = { event_types: '["message"]' };
const messageEvents = (events: Event[]) => events.filter((e) => e.type === 'message');
const senderFlags = (id: unknown, userId: number) => tables(env.server, env.realm).user_messages[String(id)]?.flags[String(userId)];

describe('message events', () => {
  it('reach every subscriber with their flags, and nobody else', async () => {
    const roles = ['member', 'member_2', 'member_3', 'guest', 'moderator'] as const;
    const queues: Record<string, string> = {};
    for (const role of roles) queues[role] = (await openQueue(env.server, env.who[role]!, MESSAGES)).queueId;
    // 52 alarm: member, member_2 and moderator are subscribers; member_3 left it; the guest cannot see it.
    const fullName = (env.who.member_2 as unknown as { full_name: string }).full_name;
    const res = await send(env.server, env.who.member!, { type: 'stream', to: '52', topic: 'ping', content: `hello @**${fullName}**` });
    const got: Record<string, Event[]> = {};
    for (const role of roles) got[role] = messageEvents(await drain(env.server, env.who[role]!, queues[role]!));

    expect(got.member!.map((e) => [(e.message as Json).id, e.flags])).toEqual([[res.body.id, []]]);
    expect(got.member_2!.map((e) => e.flags)).toEqual([['mentioned']]);
    expect(got.moderator!.map((e) => e.flags)).toEqual([[]]);
    expect(got.member_3).toEqual([]);
    expect(got.guest).toEqual([]);
    expect(got.member_2![0]!.message).toMatchObject({
      id: res.body.id,
      type: 'stream',
      stream_id: 52,
      display_recipient: 'alarm',
      subject: 'ping',
      sender_id: env.who.member!.user_id,
      sender_email: env.who.member!.email,
    });
  });

  it('render content per apply_markdown', async () => {
    const html = await openQueue(env.server, env.who.member_2!, { ...MESSAGES, apply_markdown: 'true' });
    const raw = await openQueue(env.server, env.who.member_2!, { ...MESSAGES, apply_markdown: 'false' });
    await send(env.server, env.who.member!, { type: 'stream', to: '51', topic: 'format', content: 'hello **world**' });
    const [htmlEvent] = messageEvents(await drain(env.server, env.who.member_2!, html.queueId));
    const [rawEvent] = messageEvents(await drain(env.server, env.who.member_2!, raw.queueId));
    expect(htmlEvent!.message).toMatchObject({ content: '<p>hello <strong>world</strong></p>', content_type: 'text/html' });
    expect(rawEvent!.message).toMatchObject({ content: 'hello **world**', content_type: 'text/x-markdown' });
  });

  it.each([
    ['without', '{}', 'general chat'],
    ['with', '{"empty_topic_name": true}', ''],
  ])('show the empty topic to clients %s the empty_topic_name capability as %j (§4.21)', async (_label, capabilities, subject) => {
    const { queueId } = await openQueue(env.server, env.who.member_2!, { ...MESSAGES, client_capabilities: capabilities });
    await send(env.server, env.who.member!, { type: 'stream', to: '51', topic: '', content: 'no topic here' });
    const [event] = messageEvents(await drain(env.server, env.who.member_2!, queueId));
    expect((event!.message as Json).subject).toBe(subject);
  });

  it('reach both participants of a direct message, and only them', async () => {
    const other = await openQueue(env.server, env.who.member_2!, MESSAGES);
    const outsider = await openQueue(env.server, env.who.member_3!, MESSAGES);
    await send(env.server, env.who.member!, { type: 'direct', to: `[${env.who.member_2!.user_id}]`, content: 'psst' });
    const [event] = messageEvents(await drain(env.server, env.who.member_2!, other.queueId));
    expect(event!.message).toMatchObject({ type: 'private', subject: '' });
    expect(((event!.message as Json).display_recipient as Json[]).map((u) => u.id)).toEqual([14, 15]);
    expect(messageEvents(await drain(env.server, env.who.member_3!, outsider.queueId))).toEqual([]);
  });
});

describe('the sender’s read flag (reference §4.1)', () => {
  it.each([
    ['the test client (an API client)', {}, undefined, []],
    ['the Python client', { 'user-agent': 'ZulipPython/0.9.1 (Linux; Python 3.12)' }, undefined, []],
    ['the JavaScript client', { 'user-agent': 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)' }, undefined, []],
    ['an API client with read_by_sender=true', {}, 'true', ['read']],
    ['an interactive client (mobile app)', { 'user-agent': 'ZulipMobile/27.200 (Android 14)' }, undefined, ['read']],
    ['an interactive client with read_by_sender=false', { 'user-agent': 'ZulipMobile/27.200 (Android 14)' }, 'false', []],
  ])('from %s: flags %j', async (_label, headers, readBySender, flags) => {
    const { queueId } = await openQueue(env.server, env.who.member!, MESSAGES);
    const form: Record<string, string> = { type: 'stream', to: '51', topic: 'flags', content: 'mine' };
    if (readBySender !== undefined) form.read_by_sender = readBySender;
    const res = await send(env.server, env.who.member!, form, headers);
    expect(res.status).toBe(200);
    expect(senderFlags(res.body.id, env.who.member!.user_id)).toEqual(flags);
    expect(messageEvents(await drain(env.server, env.who.member!, queueId)).map((e) => e.flags)).toEqual([flags]);
  });

  it('is false for a message to oneself, even from an interactive client', async () => {
    const res = await send(
      env.server,
      env.who.member!,
      { type: 'direct', to: `[${env.who.member!.user_id}]`, content: 'note to self' },
      { 'user-agent': 'ZulipMobile/27.200 (Android 14)' },
    );
    expect(senderFlags(res.body.id, env.who.member!.user_id)).toEqual([]);
  });

  it('leaves the message unread for the other recipients', async () => {
    const res = await send(env.server, env.who.member!, { type: 'stream', to: '51', topic: 'flags', content: 'x', read_by_sender: 'true' });
    expect(senderFlags(res.body.id, env.who.member_2!.user_id)).toEqual([]);
    // Subscribers only: member_3 left 52, so nothing is stored for them there.
    const other = await send(env.server, env.who.member!, { type: 'stream', to: '52', topic: 'flags', content: 'y' });
    expect(senderFlags(other.body.id, env.who.member_3!.user_id)).toBeUndefined();
  });
});
