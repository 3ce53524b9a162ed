import { describe, expect, it } from 'vitest';
import { DEACTIVATED, error, success, tables, useTestRealm, nowOf } from '../helpers/harness.js';
import { channelForm, directForm, HOUR, listScheduled, schedule } from './support.js';

/** POST /scheduled_messages (spec §4.1; reference §4.1 for parse order, check order and texts). */
const env = useTestRealm();
const count = () => Object.keys(tables(env.server, env.realm).scheduled_messages).length;

describe('create-scheduled-message: parameters, in the parse order of reference §4.1', () => {
  const future = () => String(nowOf(env.server, env.realm) + HOUR);
  const cases: [string, () => Record<string, string>, Record<string, unknown>][] = [
    [
      'nothing sent: content first',
      () => ({}),
      { code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'content' argument", var_name: 'content' },
    ],
    ['read_by_sender before to', () => ({ content: 'x', read_by_sender: '1' }), error('read_by_sender is not a boolean')],
    ['to missing', () => ({ content: 'x' }), { code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'to' argument", var_name: 'to' }],
    ['to as a channel name', () => ({ content: 'x', to: 'general' }), error('to is not valid JSON')],
    ['to as emails', () => ({ content: 'x', to: '["a@b.c"]' }), error('to["int"] is not an integer')],
    ['to as a float', () => ({ content: 'x', to: '1.0' }), error('to["int"] is not an integer')],
    ['to as a JSON string', () => ({ content: 'x', to: '"51"' }), error('to["int"] is not an integer')],
    [
      'type after to',
      () => ({ content: 'x', to: '51' }),
      { code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'type' argument", var_name: 'type' },
    ],
    [
      'type not a value',
      () => ({ content: 'x', to: '51', type: 'group' }),
      error('Invalid type: Value error, Not in the list of possible values'),
    ],
    [
      'time after type',
      () => ({ content: 'x', to: '51', type: 'stream' }),
      {
        code: 'REQUEST_VARIABLE_MISSING',
        msg: "Missing 'scheduled_delivery_timestamp' argument",
        var_name: 'scheduled_delivery_timestamp',
      },
    ],
    [
      'time quoted',
      () => ({ content: 'x', to: '51', type: 'stream', scheduled_delivery_timestamp: '"5"' }),
      error('scheduled_delivery_timestamp is not an integer'),
    ],
    [
      'topic and subject',
      () => ({ content: 'x', to: '51', type: 'stream', scheduled_delivery_timestamp: future(), topic: 'a', subject: 'b' }),
      {
        code: 'REQUEST_CONFUSING_VAR',
        msg: "Can't decide between 'topic' and 'subject' arguments",
        var_name1: 'topic',
        var_name2: 'subject',
      },
    ],
  ];
  it.each(cases)('%s', async (_name, form, expected) => {
    const res = await schedule(env.server, env.who.member!, form());
    expect([res.status, res.body]).toEqual([400, { result: 'error', ...expected }]);
    expect(count()).toBe(4);
  });
});

describe('create-scheduled-message: checks after parsing, in the reference order', () => {
  type Case = [string, string, (now: number) => Record<string, string>, Record<string, unknown>];
  const cases: Case[] = [
    [
      'a delivery time now is not in the future',
      'member',
      (now) => ({ type: 'direct', to: '[15]', content: 'x', scheduled_delivery_timestamp: String(now) }),
      error('Scheduled delivery time must be in the future.'),
    ],
    [
      'the time comes before the shape of to',
      'member',
      (now) => ({ type: 'direct', to: '15', content: 'x', scheduled_delivery_timestamp: String(now - 1) }),
      error('Scheduled delivery time must be in the future.'),
    ],
    [
      'direct with a bare integer',
      'member',
      (now) => ({ type: 'direct', to: '15', content: 'x', scheduled_delivery_timestamp: String(now + 60) }),
      error('Invalid data type for recipients'),
    ],
    [
      'private with a bare integer',
      'member',
      (now) => ({ type: 'private', to: '15', content: 'x', scheduled_delivery_timestamp: String(now + 60) }),
      error('Invalid data type for recipients'),
    ],
    [
      'channel with a list, even of one ID',
      'member',
      (now) => ({ type: 'channel', to: '[51]', topic: 't', content: 'x', scheduled_delivery_timestamp: String(now + 60) }),
      error('Invalid data type for channel ID'),
    ],
    [
      'the shape of to comes before the channel',
      'member',
      (now) => ({ type: 'stream', to: '[999]', topic: 't', content: 'x', scheduled_delivery_timestamp: String(now + 60) }),
      error('Invalid data type for channel ID'),
    ],
    [
      'unknown channel',
      'member',
      (now) => ({ type: 'stream', to: '999', topic: 't', content: ' ', scheduled_delivery_timestamp: String(now + 60) }),
      error("Channel with ID '999' does not exist", 'STREAM_DOES_NOT_EXIST', { stream_id: 999 }),
    ],
    [
      'a private channel the sender may not know answers like a missing one',
      'member_2',
      (now) => ({ type: 'stream', to: '54', topic: 't', content: 'x', scheduled_delivery_timestamp: String(now + 60) }),
      error("Channel with ID '54' does not exist", 'STREAM_DOES_NOT_EXIST', { stream_id: 54 }),
    ],
    [
      'a guest and a public channel they are not in',
      'guest',
      (now) => ({ type: 'stream', to: '52', topic: 't', content: 'x', scheduled_delivery_timestamp: String(now + 60) }),
      error("Channel with ID '52' does not exist", 'STREAM_DOES_NOT_EXIST', { stream_id: 52 }),
    ],
    [
      'an administrator who knows a private channel but is not in it',
      'administrator',
      (now) => ({ type: 'stream', to: '54', topic: 't', content: 'x', scheduled_delivery_timestamp: String(now + 60) }),
      error("Not authorized to send to channel 'models team'"),
    ],
    [
      'unknown user among the recipients',
      'member',
      (now) => ({ type: 'direct', to: '[15, 999, 998]', content: ' ', scheduled_delivery_timestamp: String(now + 60) }),
      error('Invalid user ID 998'),
    ],
    [
      'no recipients',
      'member',
      (now) => ({ type: 'direct', to: '[]', content: 'x', scheduled_delivery_timestamp: String(now + 60) }),
      error('Message must have recipients'),
    ],
    [
      'channel message without topic, before empty content',
      'member',
      (now) => ({ type: 'stream', to: '51', content: ' ', scheduled_delivery_timestamp: String(now + 60) }),
      error('Missing topic'),
    ],
    [
      'empty content, before the posting permission',
      'member',
      (now) => ({ type: 'stream', to: '55', topic: 't', content: ' \n ', scheduled_delivery_timestamp: String(now + 60) }),
      error('Message must not be empty'),
    ],
    [
      'empty direct message',
      'member',
      (now) => ({ type: 'direct', to: '[15]', content: '', scheduled_delivery_timestamp: String(now + 60) }),
      error('Message must not be empty'),
    ],
    [
      'no posting permission',
      'member',
      (now) => ({ type: 'stream', to: '55', topic: 't', content: 'x', scheduled_delivery_timestamp: String(now + 60) }),
      error('You do not have permission to post in this channel.'),
    ],
    [
      'an archived channel',
      'member',
      (now) => ({ type: 'stream', to: '56', topic: 't', content: 'x', scheduled_delivery_timestamp: String(now + 60) }),
      error("Not authorized to send to channel 'old matrix'"),
    ],
    [
      'a named topic where only the empty one is allowed',
      'member',
      (now) => ({ type: 'stream', to: '58', topic: 't', content: 'x', scheduled_delivery_timestamp: String(now + 60) }),
      error('Only the general chat topic is allowed in this channel.'),
    ],
    [
      'the empty topic where it is disabled',
      'member',
      (now) => ({ type: 'stream', to: '59', topic: 'general chat', content: 'x', scheduled_delivery_timestamp: String(now + 60) }),
      error('Sending messages to the general chat is not allowed in this channel.'),
    ],
  ];
  it.each(cases)('%s', async (_name, role, form, expected) => {
    const res = await schedule(env.server, env.who[role]!, form(nowOf(env.server, env.realm)));
    expect([res.status, res.body]).toEqual([400, expected]);
    expect(count()).toBe(4);
  });

  it('refuses a deactivated recipient with the address that no longer works', async () => {
    const email = tables(env.server, env.realm).users[String(DEACTIVATED)]!.email;
    const res = await schedule(env.server, env.who.member!, directForm(env.server, env.realm, [15, DEACTIVATED]));
    expect(res.body).toEqual(error(`'${email}' is no longer using Zulip.`));
  });
});

describe('create-scheduled-message: what is stored and shown', () => {
  it('answers the new ID (after the demo rows; reminders share the sequence) and lists the canonical object', async () => {
    const res = await schedule(
      env.server,
      env.who.member!,
      channelForm(env.server, env.realm, { type: 'channel', topic: '  plans  ', content: 'Hello **there**  \n' }),
    );
    expect([res.status, res.body]).toEqual([200, success({ scheduled_message_id: 7 })]);
    const listed = (await listScheduled(env.server, env.who.member!)).find((s) => s.scheduled_message_id === 7);
    expect(listed).toEqual({
      scheduled_message_id: 7,
      type: 'stream',
      to: 51,
      topic: 'plans',
      content: 'Hello **there**',
      rendered_content: '<p>Hello <strong>there</strong></p>',
      scheduled_delivery_timestamp: nowOf(env.server, env.realm) + HOUR,
      read_by_sender: false,
      failed: false,
    });
  });

  it('stores a direct message as private, recipients sorted without duplicates, and ignores its topic', async () => {
    const res = await schedule(env.server, env.who.member!, directForm(env.server, env.realm, [16, 15, 16], { topic: 'ignored' }));
    const listed = (await listScheduled(env.server, env.who.member!)).find(
      (s) => s.scheduled_message_id === res.body.scheduled_message_id,
    )!;
    expect([listed.type, listed.to, 'topic' in listed]).toEqual(['private', [15, 16], false]);
    expect(tables(env.server, env.realm).scheduled_messages[String(listed.scheduled_message_id)]!.topic).toBe('');
  });

  const heuristic: [string, string, number[] | null, string | undefined, boolean][] = [
    ['a stock library is an API client', 'ZulipPython/0.9.1 (Linux)', null, undefined, false],
    ['a mobile app is interactive', 'ZulipMobile/27.1 (Android 14)', null, undefined, true],
    ['never for a message to oneself', 'ZulipMobile/27.1 (Android 14)', [14], undefined, false],
    ['an explicit value wins', 'ZulipPython/0.9.1 (Linux)', null, 'true', true],
    ['an explicit false wins too', 'ZulipMobile/27.1 (Android 14)', null, 'false', false],
  ];
  it.each(heuristic)('read_by_sender when absent (reference §4.1): %s', async (_name, agent, to, sent, expected) => {
    const form = to ? directForm(env.server, env.realm, to) : channelForm(env.server, env.realm);
    const res = await schedule(env.server, env.who.member!, sent === undefined ? form : { ...form, read_by_sender: sent }, {
      'user-agent': agent,
    });
    expect(tables(env.server, env.realm).scheduled_messages[String(res.body.scheduled_message_id)]!.read_by_sender).toBe(expected);
  });

  it('lists unsupported parameters (level 167 and later), here scheduled_message_id from level 184', async () => {
    const res = await schedule(env.server, env.who.member!, {
      ...channelForm(env.server, env.realm),
      scheduled_message_id: '1',
      local_id: 'x',
    });
    expect(res.body).toEqual(success({ scheduled_message_id: 7, ignored_parameters_unsupported: ['local_id', 'scheduled_message_id'] }));
    expect(tables(env.server, env.realm).scheduled_messages['1']!.content).not.toBe('See you **soon**');
  });
});
