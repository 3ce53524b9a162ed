import { describe, expect, it } from 'vitest';
import { error, observeEvents, success, tables, useTestRealm } from '../helpers/harness.js';
import { ALARM, fetched, HOME, post, postDirect, PROTECTED, react, storedFlags, storedReactions, unreact } from './support.js';

/**
 * POST and DELETE /messages/{message_id}/reactions (companion tier; reference add-reaction and
 * remove-reaction): the reaction in the message object (spec §2.5, R2.5-16 namespaces), the reference's
 * errors, who may react, and the `reaction` events to everyone who can see the message.
 */
const env = useTestRealm();

const invalidMessage = error('Invalid message(s)');
const reactionOf = (userId: number, emoji_name: string, emoji_code: string, reaction_type = 'unicode_emoji') => ({
  emoji_name,
  emoji_code,
  reaction_type,
  user_id: userId,
});

describe('adding a reaction', () => {
  it('looks the emoji up by name and shows the reaction in the message object', async () => {
    const id = await post(env, env.who.member!, HOME);
    const res = await react(env.server, env.who.member_2!, id, { emoji_name: 'octopus' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success());
    expect((await fetched(env.server, env.who.owner!, id)).reactions).toEqual([reactionOf(env.who.member_2!.user_id, 'octopus', '1f419')]);
  });

  it('uses the three namespaces of R2.5-16: Unicode code points, the custom emoji ID, the extra emoji name', async () => {
    const id = await post(env, env.who.member!, HOME);
    const custom = Object.values(tables(env.server, env.realm).custom_emoji).find((e) => !e.deactivated)!;
    expect((await react(env.server, env.who.member!, id, { emoji_name: 'octopus' })).body).toEqual(success());
    expect((await react(env.server, env.who.member!, id, { emoji_name: custom.name })).body).toEqual(success());
    expect((await react(env.server, env.who.member!, id, { emoji_name: 'teamchat' })).body).toEqual(success());
    const me = env.who.member!.user_id;
    expect((await fetched(env.server, env.who.member!, id)).reactions).toEqual([
      reactionOf(me, 'octopus', '1f419'),
      reactionOf(me, custom.name, String(custom.id), 'realm_emoji'),
      reactionOf(me, 'teamchat', 'teamchat', 'service_extra_emoji'),
    ]);
  });

  it('counts a second reaction with the same emoji as a vote that takes the first one’s name', async () => {
    const id = await post(env, env.who.member!, HOME);
    await react(env.server, env.who.member!, id, { emoji_name: 'smile' });
    const res = await react(env.server, env.who.member_2!, id, { emoji_name: 'slightly_smiling_face' });
    expect(res.body).toEqual(success());
    expect(storedReactions(env, id)).toEqual([
      reactionOf(env.who.member!.user_id, 'smile', '1f642'),
      reactionOf(env.who.member_2!.user_id, 'smile', '1f642'),
    ]);
  });

  it('accepts an explicit name, code and type that agree', async () => {
    const id = await post(env, env.who.member!, HOME);
    const res = await react(env.server, env.who.guest!, id, {
      emoji_name: 'thumbsup',
      emoji_code: '1f44d',
      reaction_type: 'unicode_emoji',
    });
    expect(res.body).toEqual(success());
    expect(storedReactions(env, id)).toEqual([reactionOf(env.who.guest!.user_id, 'thumbsup', '1f44d')]);
  });

  it.each([
    [{ emoji_name: 'nonsense' }, "Emoji 'nonsense' does not exist"],
    [{ emoji_name: 'octopus', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }, 'Invalid emoji name.'],
    // The code is checked before the name: a known name with a code that is no emoji.
    [{ emoji_name: 'octopus', emoji_code: 'fffff', reaction_type: 'unicode_emoji' }, 'Invalid emoji code.'],
    [{ emoji_name: 'octopus', emoji_code: 'fffff' }, 'Invalid emoji code.'],
    [{ emoji_name: 'octopus', emoji_code: '99999', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    [{ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'sticker' }, 'Invalid emoji type.'],
    [{ emoji_name: 'teamchat', emoji_code: 'other', reaction_type: 'service_extra_emoji' }, 'Invalid emoji code.'],
    [{ emoji_name: 'octopus', emoji_code: 'teamchat', reaction_type: 'service_extra_emoji' }, 'Invalid emoji name.'],
  ])('refuses %j with %s and changes nothing', async (form, msg) => {
    const id = await post(env, env.who.member!, HOME);
    const res = await react(env.server, env.who.member!, id, form);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
    expect(storedReactions(env, id)).toEqual([]);
  });

  it('checks a custom emoji by ID, then its name, then whether it is active', async () => {
    const id = await post(env, env.who.member!, HOME);
    const emoji = Object.values(tables(env.server, env.realm).custom_emoji);
    const active = emoji.find((e) => !e.deactivated)!;
    const gone = emoji.find((e) => e.deactivated)!;
    const form = (name: string, code: number) => ({ emoji_name: name, emoji_code: String(code), reaction_type: 'realm_emoji' });
    expect((await react(env.server, env.who.member!, id, form('octopus', active.id))).body).toEqual(error('Invalid custom emoji name.'));
    expect((await react(env.server, env.who.member!, id, form(gone.name, gone.id))).body).toEqual(
      error('This custom emoji has been deactivated.'),
    );
    expect(storedReactions(env, id)).toEqual([]);
  });

  it('refuses the same reaction twice: REACTION_ALREADY_EXISTS from level 193, BAD_REQUEST below', async () => {
    const id = await post(env, env.who.member!, HOME);
    await react(env.server, env.who.member!, id, { emoji_name: 'octopus' });
    const res = await react(env.server, env.who.member!, id, { emoji_name: 'octopus' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error('Reaction already exists.', 'REACTION_ALREADY_EXISTS'));
    await env.server.control.setFeatureLevel(env.realm, 192);
    const old = await react(env.server, env.who.member!, id, { emoji_name: 'octopus' });
    expect([old.status, old.body]).toEqual([400, error('Reaction already exists.')]);
    expect(storedReactions(env, id)).toHaveLength(1);
  });

  it('needs emoji_name', async () => {
    const id = await post(env, env.who.member!, HOME);
    const res = await react(env.server, env.who.member!, id, { emoji_code: '1f419' });
    expect(res.body).toEqual(error("Missing 'emoji_name' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'emoji_name' }));
  });

  it('answers Invalid message(s) for a missing message, another’s direct message and protected history', async () => {
    const dm = await postDirect(env, env.who.member!, [env.who.member_2!.user_id]);
    const secret = await post(env, env.who.member!, PROTECTED);
    const alarm = await post(env, env.who.member!, ALARM);
    expect((await react(env.server, env.who.member!, 99_999_999, { emoji_name: 'octopus' })).body).toEqual(invalidMessage);
    expect((await react(env.server, env.who.owner!, dm, { emoji_name: 'octopus' })).body).toEqual(invalidMessage);
    expect((await react(env.server, env.who.owner!, secret, { emoji_name: 'octopus' })).body).toEqual(invalidMessage);
    // A guest sees no public channel it is not subscribed to.
    expect((await react(env.server, env.who.guest!, alarm, { emoji_name: 'octopus' })).body).toEqual(invalidMessage);
    for (const id of [dm, secret, alarm]) expect(storedReactions(env, id)).toEqual([]);
  });

  it('refuses messages of an archived channel, which stay readable', async () => {
    const t = tables(env.server, env.realm);
    const old = Object.values(t.messages).find(
      (m) => m.stream_id === 56 && t.user_messages[String(m.id)]?.flags[String(env.who.member!.user_id)],
    )!;
    expect(t.channels['56']!.is_archived).toBe(true);
    expect((await fetched(env.server, env.who.member!, old.id)).id).toBe(old.id);
    expect((await react(env.server, env.who.member!, old.id, { emoji_name: 'octopus' })).body).toEqual(invalidMessage);
    expect(storedReactions(env, old.id)).toEqual(old.reactions);
  });

  it('gives a public-channel reader who never received the message a historical copy', async () => {
    const id = await post(env, env.who.member!, ALARM);
    const reader = env.who.member_3!; // not subscribed to 52
    expect(storedFlags(env, reader.user_id, id)).toBeUndefined();
    expect((await react(env.server, reader, id, { emoji_name: 'octopus' })).body).toEqual(success());
    expect(storedFlags(env, reader.user_id, id)).toEqual(['read', 'historical']);
    expect((await fetched(env.server, reader, id)).flags).toEqual(['read', 'historical']);
  });

  it('lets every role, bots included, react to a message they can see', async () => {
    const id = await post(env, env.who.member!, HOME);
    for (const role of ['owner', 'administrator', 'moderator', 'member', 'guest', 'bot'])
      expect((await react(env.server, env.who[role]!, id, { emoji_name: 'tada' })).body, role).toEqual(success());
    expect(storedReactions(env, id)).toHaveLength(6);
  });
});

describe('removing a reaction', () => {
  it('removes the caller’s own reaction by name or by code, leaving others’', async () => {
    const id = await post(env, env.who.member!, HOME);
    await react(env.server, env.who.member!, id, { emoji_name: 'octopus' });
    await react(env.server, env.who.member_2!, id, { emoji_name: 'octopus' });
    await react(env.server, env.who.member!, id, { emoji_name: 'tada' });
    expect((await unreact(env.server, env.who.member!, id, { emoji_name: 'octopus' })).body).toEqual(success());
    expect((await unreact(env.server, env.who.member!, id, { emoji_code: '1f389' })).body).toEqual(success());
    expect(storedReactions(env, id)).toEqual([reactionOf(env.who.member_2!.user_id, 'octopus', '1f419')]);
  });

  it('removes a custom emoji reaction by its name alone', async () => {
    const id = await post(env, env.who.member!, HOME);
    const custom = Object.values(tables(env.server, env.realm).custom_emoji).find((e) => !e.deactivated)!;
    await react(env.server, env.who.member!, id, { emoji_name: custom.name });
    expect((await unreact(env.server, env.who.member!, id, { emoji_name: custom.name })).body).toEqual(success());
    expect(storedReactions(env, id)).toEqual([]);
  });

  const missing = error("Reaction doesn't exist.", 'REACTION_DOES_NOT_EXIST');
  it.each([
    [{}, error('At least one of the following arguments must be present: emoji_name, emoji_code')],
    [{ emoji_name: 'nonsense' }, error("Emoji 'nonsense' does not exist")],
    [{ emoji_name: 'tada' }, missing],
    [{ emoji_code: '1f419', reaction_type: 'realm_emoji' }, missing],
  ])('refuses %j with %j and changes nothing', async (form, body) => {
    const id = await post(env, env.who.member!, HOME);
    await react(env.server, env.who.member!, id, { emoji_name: 'octopus' });
    const res = await unreact(env.server, env.who.member!, id, form);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(body);
    expect(storedReactions(env, id)).toHaveLength(1);
  });

  it('answers a missing reaction with BAD_REQUEST below level 193', async () => {
    const id = await post(env, env.who.member!, HOME);
    await env.server.control.setFeatureLevel(env.realm, 192);
    const res = await unreact(env.server, env.who.member!, id, { emoji_name: 'tada' });
    expect([res.status, res.body]).toEqual([400, error("Reaction doesn't exist.")]);
  });

  it('never removes another user’s reaction', async () => {
    const id = await post(env, env.who.member!, HOME);
    await react(env.server, env.who.member_2!, id, { emoji_name: 'octopus' });
    expect((await unreact(env.server, env.who.member!, id, { emoji_name: 'octopus' })).body).toEqual(missing);
    expect(storedReactions(env, id)).toHaveLength(1);
  });
});

describe('reaction events', () => {
  const ROLES = ['owner', 'administrator', 'moderator', 'member', 'member_2', 'member_3', 'guest'] as const;
  const form = { event_types: '["reaction"]' };

  it('go to the message’s recipients only in a channel with protected history', async () => {
    const id = await post(env, env.who.member!, PROTECTED);
    const events = await observeEvents(env, ROLES, form, () => react(env.server, env.who.member_2!, id, { emoji_name: 'octopus' }));
    const expected = {
      type: 'reaction',
      op: 'add',
      message_id: id,
      user_id: env.who.member_2!.user_id,
      user: { user_id: env.who.member_2!.user_id, email: env.who.member_2!.email, full_name: 'Maribel Kunze' },
      emoji_name: 'octopus',
      emoji_code: '1f419',
      reaction_type: 'unicode_emoji',
    };
    for (const role of ['administrator', 'moderator', 'member', 'member_2']) expect(events[role], role).toEqual([expected]);
    for (const role of ['owner', 'member_3', 'guest']) expect(events[role], role).toEqual([]);
  });

  it('go to a public channel’s subscribers and to a historical reactor, op remove as well', async () => {
    const id = await post(env, env.who.member!, ALARM);
    const events = await observeEvents(env, ROLES, form, async () => {
      await react(env.server, env.who.member_3!, id, { emoji_name: 'octopus' });
      await unreact(env.server, env.who.member_3!, id, { emoji_name: 'octopus' });
    });
    for (const role of ['owner', 'administrator', 'moderator', 'member', 'member_2', 'member_3'])
      expect(
        events[role]!.map((e) => e.op),
        role,
      ).toEqual(['add', 'remove']);
    expect(events.guest).toEqual([]);
  });

  it('send nothing for a refused reaction', async () => {
    const id = await post(env, env.who.member!, HOME);
    const events = await observeEvents(env, ['member', 'owner'], form, () =>
      react(env.server, env.who.member!, id, { emoji_name: 'nonsense' }),
    );
    expect(events).toEqual({ member: [], owner: [] });
  });
});
