import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { error, freshRealm, observeEvents, success, useTestRealm, type Cred } from '../helpers/harness.js';

/**
 * POST /typing (companion tier, area live; reference "Set typing status"): events only, to the
 * participants of a direct conversation (the sender included, as on the reference) or to a channel's
 * subscribers; the reference's errors; nothing stored.
 */
const env = useTestRealm();
const EVERYONE = ['owner', 'administrator', 'moderator', 'member', 'member_2', 'member_3', 'guest', 'bot'];
const typing = (as: Cred, form: Record<string, string>) => call(env.server, 'POST', '/api/v1/typing', { as, form });
const person = (c: Cred) => ({ user_id: c.user_id, email: c.email });

describe('direct typing', () => {
  it('start: every participant, the sender included, gets the event; nobody else', async () => {
    const [member, other] = [env.who.member!, env.who.member_2!];
    const seen = await observeEvents(env, EVERYONE, {}, async () =>
      expect((await typing(member, { type: 'direct', op: 'start', to: JSON.stringify([other.user_id]) })).body).toEqual(success()),
    );
    const event = {
      type: 'typing',
      message_type: 'direct',
      op: 'start',
      sender: person(member),
      recipients: [person(other), person(member)],
    };
    for (const role of EVERYONE)
      expect({ role, events: seen[role] }).toEqual({ role, events: role === 'member' || role === 'member_2' ? [event] : [] });
  });

  it('stop, with type defaulting to direct and a lone integer as `to` (what zulip-js sends for one user)', async () => {
    const [member, guest] = [env.who.member!, env.who.guest!];
    const seen = await observeEvents(env, ['guest', 'owner'], {}, () => typing(member, { op: 'stop', to: String(guest.user_id) }));
    expect(seen.guest).toEqual([
      { type: 'typing', message_type: 'direct', op: 'stop', sender: person(member), recipients: [person(guest), person(member)] },
    ]);
    expect(seen.owner).toEqual([]);
  });

  it('event_types filters typing like any other type', async () => {
    const seen = await observeEvents(env, ['member_2'], { event_types: '["message"]' }, () =>
      typing(env.who.member!, { op: 'start', to: JSON.stringify([env.who.member_2!.user_id]) }),
    );
    expect(seen.member_2).toEqual([]);
  });
});

describe('channel typing', () => {
  it.each(['stream', 'channel'])('type %s: every subscriber of the channel, the sender included', async (type) => {
    const member = env.who.member!;
    // alarm (52): owner, administrator, moderator, member, member_2.
    const seen = await observeEvents(env, EVERYONE, {}, async () =>
      expect((await typing(member, { type, op: 'start', stream_id: '52', topic: 'lunch' })).body).toEqual(success()),
    );
    const event = { type: 'typing', message_type: 'stream', op: 'start', sender: person(member), stream_id: 52, topic: 'lunch' };
    const subscribers = ['owner', 'administrator', 'moderator', 'member', 'member_2'];
    for (const role of EVERYONE) expect({ role, events: seen[role] }).toEqual({ role, events: subscribers.includes(role) ? [event] : [] });
  });
});

describe('errors (nothing is sent)', () => {
  it.each([
    ['no op', { to: '[12]' }, { ...error("Missing 'op' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'op' }],
    ['an unknown op', { op: 'pause', to: '[12]' }, error('Invalid op')],
    ['an unknown type', { type: 'huddle', op: 'start', to: '[12]' }, error('Invalid type')],
    ['no to', { op: 'start' }, error("Missing 'to' argument")],
    ['an empty to', { op: 'start', to: '[]' }, error("Empty 'to' list")],
    ['an unknown user', { op: 'start', to: '[99999]' }, error('Invalid user ID 99999')],
    ['no stream_id', { type: 'stream', op: 'start', topic: 'x' }, error('Missing channel ID')],
    ['no topic', { type: 'stream', op: 'start', stream_id: '52' }, error('Missing topic')],
    ['an unknown channel', { type: 'stream', op: 'start', stream_id: '9999', topic: 'x' }, error('Invalid channel ID')],
    ['an archived channel', { type: 'stream', op: 'start', stream_id: '56', topic: 'x' }, error('Invalid channel ID')],
    [
      'a channel the member may not post in',
      { type: 'stream', op: 'start', stream_id: '55', topic: 'x' },
      error('You do not have permission to post in this channel.'),
    ],
  ])('%s', async (_name, form, body) => {
    const seen = await observeEvents(env, ['member', 'owner'], {}, async () => {
      const res = await typing(env.who.member!, form as Record<string, string>);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body });
    });
    expect(seen).toEqual({ member: [], owner: [] });
  });

  it("answers a missing stream_id by the realm's level: 'Missing stream_id' below 255, 'Missing channel ID' from it", async () => {
    for (const [level, msg] of [
      [254, 'Missing stream_id'],
      [255, 'Missing channel ID'],
    ] as const) {
      const { who } = await freshRealm(env.server, level);
      const res = await call(env.server, 'POST', '/api/v1/typing', { as: who.member!, form: { type: 'stream', op: 'start', topic: 'x' } });
      expect([res.status, res.body], String(level)).toEqual([400, error(msg)]);
    }
  });

  it('a guest may not type in a private channel it cannot see', async () => {
    const res = await typing(env.who.guest!, { type: 'stream', op: 'start', stream_id: '53', topic: 'x' });
    expect(res.body).toEqual(error('Invalid channel ID'));
  });

  it('a guest may not type in a public channel it is not subscribed to (no content access: the channel is unknown to it)', async () => {
    const res = await typing(env.who.guest!, { type: 'stream', op: 'start', stream_id: '52', topic: 'x' });
    expect(res.body).toEqual(error('Invalid channel ID'));
  });

  it('without credentials: 401', async () => {
    const res = await call(env.server, 'POST', '/api/v1/typing', { form: { op: 'start', to: '[12]' } });
    expect(res.status).toBe(401);
  });
});
