import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { error, freshRealm, send, success, tables, useTestRealm, type Creds } from '../helpers/harness.js';

/**
 * POST /api/v1/messages (send-message companion; reference §4.1 checks, which sending shares):
 * recipients by channel ID, by raw channel name (`to=Denmark`, as stock clients send it) and direct
 * by IDs or emails; who may post (§2.3 can_send_message_group); a private channel the sender may not
 * know answers like a missing one, one they know but may not reach `Not authorized to send to channel`;
 * parameter errors. Events and read flags are in send-message-events.test.ts.
 */

const env = useTestRealm();

const stored = (id: unknown) => tables(env.server, env.realm).messages[String(id)]!;
const channelMissingById = (id: number) => error(`Channel with ID '${id}' does not exist`, 'STREAM_DOES_NOT_EXIST', { stream_id: id });
const channelMissingByName = (name: string) => error(`Channel '${name}' does not exist`, 'STREAM_DOES_NOT_EXIST', { stream: name });

describe('channel recipients', () => {
  it.each([
    ['an ID', '51'],
    ['a raw name, as stock clients send it', 'home'],
    ['a raw name with spaces, any letter case', 'Directives Leads'],
    ['a JSON-quoted name', '"home"'],
    ['a one-element JSON list of a name', '["home"]'],
  ])('takes the channel by %s', async (_label, to) => {
    const res = await send(env.server, env.who.member!, { type: 'stream', to, topic: 'routing', content: 'hello' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ id: expect.any(Number) }));
    const message = stored(res.body.id);
    expect(message).toMatchObject({ type: 'stream', sender_id: env.who.member!.user_id, subject: 'routing', content: 'hello' });
    expect([51, 53]).toContain(message.stream_id);
  });

  it('gives new messages increasing IDs', async () => {
    const a = await send(env.server, env.who.member!, { type: 'stream', to: '51', topic: 't', content: 'one' });
    const b = await send(env.server, env.who.member!, { type: 'channel', to: '51', topic: 't', content: 'two' });
    expect(b.body.id as number).toBeGreaterThan(a.body.id as number);
    expect(a.body.id as number).toBeGreaterThan(1090);
  });

  it.each([
    ['an unknown ID', 'member', '9999', channelMissingById(9999)],
    ['an unknown name', 'member', 'nowhere', channelMissingByName('nowhere')],
    ['a private channel the sender may not know, by ID', 'member_2', '54', channelMissingById(54)],
    ['a private channel the sender may not know, by name', 'member_2', 'models team', channelMissingByName('models team')],
    ['a private channel the sender may not know, for a bot', 'bot', '57', channelMissingById(57)],
  ])('answers %s with STREAM_DOES_NOT_EXIST', async (_label, role, to, body) => {
    const res = await send(env.server, env.who[role]!, { type: 'stream', to, topic: 't', content: 'hello' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(body);
  });

  it.each([
    ['an archived channel the sender is subscribed to', 'member', '56', 'old matrix'],
    ['an archived channel by name', 'member', 'old matrix', 'old matrix'],
    ['a private channel an administrator knows but is not in', 'administrator', '54', 'models team'],
  ])('refuses %s as not authorized', async (_label, role, to, name) => {
    const res = await send(env.server, env.who[role]!, { type: 'stream', to, topic: 't', content: 'hello' });
    expect(res.body).toEqual(error(`Not authorized to send to channel '${name}'`));
  });

  it('lets a subscriber post to a private channel, a guest included', async () => {
    expect((await send(env.server, env.who.guest!, { type: 'stream', to: '54', topic: 't', content: 'guest speaking' })).body).toEqual(
      success({ id: expect.any(Number) }),
    );
  });

  it('lets a bot post to a private channel its owner is subscribed to (permissions.ts, reference server)', async () => {
    // The bot is not in 54 but its owner member_3 is: a bot reaches what its owner reaches.
    const res = await send(env.server, env.who.bot!, { type: 'stream', to: '54', topic: 't', content: 'bot speaking' });
    expect(res.body).toEqual(success({ id: expect.any(Number) }));
  });
});

describe('who may post (§2.3 can_send_message_group)', () => {
  it.each([
    ['owner', true],
    ['administrator', true],
    ['moderator', false],
    ['member', false],
  ])('channel 55 (administrators only): %s may post: %s', async (role, allowed) => {
    const res = await send(env.server, env.who[role]!, { type: 'stream', to: '55', topic: 'news', content: 'announcement' });
    expect(res.body).toEqual(allowed ? success({ id: expect.any(Number) }) : error('You do not have permission to post in this channel.'));
  });

  it('channel 57 (moderators and up, private): a moderator subscriber may post', async () => {
    expect((await send(env.server, env.who.moderator!, { type: 'stream', to: '57', topic: 'report', content: 'reviewed' })).status).toBe(
      200,
    );
  });
});

describe('direct recipients', () => {
  it.each([
    ['a list of IDs', (w: Creds) => JSON.stringify([w.member_2!.user_id])],
    ['a single ID', (w: Creds) => String(w.member_2!.user_id)],
    ['a list of emails', (w: Creds) => JSON.stringify([w.member_2!.email])],
    ['comma-separated raw emails', (w: Creds) => w.member_2!.email],
  ])('takes %s', async (_label, to) => {
    for (const type of ['direct', 'private']) {
      const res = await send(env.server, env.who.member!, { type, to: to(env.who), content: 'psst' });
      expect(res.status).toBe(200);
      expect(stored(res.body.id)).toMatchObject({
        type: 'private',
        dm_user_ids: [env.who.member!.user_id, env.who.member_2!.user_id],
        subject: '',
      });
    }
  });

  it('sends to several users as one conversation', async () => {
    const res = await send(env.server, env.who.member!, {
      type: 'direct',
      to: JSON.stringify([env.who.member_2!.user_id, env.who.member_3!.email]),
      content: 'group',
    });
    expect(res.body).toEqual(success({ id: expect.any(Number) }));
    expect(stored(res.body.id).dm_user_ids).toEqual([14, 15, 16]);
  });

  it.each([
    ['an unknown ID', '[999]', 'Invalid user ID 999'],
    ['an unknown email', '["nobody@demo.teamchat.test"]', "Invalid email 'nobody@demo.teamchat.test'"],
    ['a deactivated user', '[20]', "'{deactivated}' is no longer using Zulip."],
  ])('refuses %s', async (_label, to, msg) => {
    const body = error(msg.replace('{deactivated}', env.who.deactivated!.email));
    expect((await send(env.server, env.who.member!, { type: 'direct', to, content: 'hello' })).body).toEqual(body);
  });
});

describe('parameters (reference §1, §4.1)', () => {
  it.each([
    ['no topic for a channel message', { type: 'stream', to: '51', content: 'hi' }, error('Missing topic')],
    ['empty content', { type: 'stream', to: '51', topic: 't', content: '' }, error('Message must not be empty')],
    ['blank content', { type: 'stream', to: '51', topic: 't', content: '  \n ' }, error('Message must not be empty')],
    [
      'no content',
      { type: 'stream', to: '51', topic: 't' },
      error("Missing 'content' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'content' }),
    ],
    ['no type', { to: '51', topic: 't', content: 'x' }, error("Missing 'type' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'type' })],
    ['no to', { type: 'stream', topic: 't', content: 'x' }, error("Missing 'to' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'to' })],
    ['an unknown type', { type: 'broadcast', to: '51', topic: 't', content: 'x' }, error('Invalid type')],
    [
      'topic and subject together',
      { type: 'stream', to: '51', topic: 'a', subject: 'b', content: 'x' },
      error("Can't decide between 'topic' and 'subject' arguments", 'REQUEST_CONFUSING_VAR', { var_name1: 'topic', var_name2: 'subject' }),
    ],
    ['a list of IDs for a channel', { type: 'stream', to: '[51]', topic: 't', content: 'x' }, error('Invalid data type for channel ID')],
    [
      'read_by_sender not a boolean',
      { type: 'stream', to: '51', topic: 't', content: 'x', read_by_sender: 'yes' },
      error('read_by_sender is not valid JSON'),
    ],
  ])('refuses %s', async (_label, form, body) => {
    const res = await send(env.server, env.who.member!, form);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(body);
  });

  it('takes subject as the topic', async () => {
    const res = await send(env.server, env.who.member!, { type: 'stream', to: '51', subject: 'old name', content: 'x' });
    expect(stored(res.body.id).subject).toBe('old name');
  });

  it('accepts a multipart body, as the JavaScript client sends it', async () => {
    const res = await call(env.server, 'POST', '/api/v1/messages', {
      as: env.who.member!,
      multipart: { type: 'stream', to: '51', topic: 'js', content: 'from js' },
    });
    expect(res.body).toEqual(success({ id: expect.any(Number) }));
  });

  it.each([
    [247, 'channel', error('Invalid type')],
    [247, 'stream', success({ id: expect.any(Number) })],
    [248, 'channel', success({ id: expect.any(Number) })],
  ])('at level %i takes type=%s accordingly (§9 level 248)', async (level, type, body) => {
    const old = await freshRealm(env.server, level);
    expect((await send(env.server, old.who.member!, { type, to: '51', topic: 't', content: 'x' })).body).toEqual(body);
  });
});
