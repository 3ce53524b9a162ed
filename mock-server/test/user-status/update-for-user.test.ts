import { describe, expect, it } from 'vitest';
import { call, credentials } from '../helpers/test-server.js';
import { error, freshRealm, success, tables, useTestRealm } from '../helpers/harness.js';
import {
  BOT_REFUSED,
  customEmoji,
  deactivatedCredentials,
  expectRefused,
  getStatus,
  NAME_REQUIRED,
  NO_NEW_VALUES,
  of,
  setFor,
} from './support.js';

/**
 * POST /users/{user_id}/status (spec §4.4; reference §4.4): the bot gate before parsing, parse order
 * (user_id, status_text, emoji_name, emoji_code, reaction_type), the target checks, the administrator
 * check, then the rules of §4.5 for the target. `away` is no parameter here (C5).
 */
const env = useTestRealm();
const LONG = 'x'.repeat(61);
const NOTIFICATION_BOT = 22;

describe('POST /users/{user_id}/status: refusals in the reference order (exact body, nothing changes, no event)', () => {
  const cases: [string, string, () => number, Record<string, string>, string][] = [
    ['a bot caller, before parsing', 'bot', () => env.who.member!.user_id, { status_text: LONG }, BOT_REFUSED],
    [
      'a parse error before the target checks',
      'administrator',
      () => 9999,
      { status_text: LONG },
      'status_text is too long (limit: 60 characters)',
    ],
    [
      'a parse error before the permission check',
      'member',
      () => env.who.member_2!.user_id,
      { status_text: LONG },
      'status_text is too long (limit: 60 characters)',
    ],
    ['an unknown user', 'administrator', () => 9999, { status_text: 'x' }, 'No such user'],
    ['an unknown user, before the permission check', 'member', () => 9999, { status_text: 'x' }, 'No such user'],
    ['a bot target', 'administrator', () => env.who.bot!.user_id, { status_text: 'x' }, 'No such user'],
    ['a system bot target', 'administrator', () => NOTIFICATION_BOT, { status_text: 'x' }, 'No such user'],
    [
      'a deactivated target',
      'administrator',
      () => deactivatedCredentials(env.server, env.realm).user_id,
      { status_text: 'x' },
      'User is deactivated',
    ],
    [
      'a deactivated target, before the permission check',
      'member',
      () => deactivatedCredentials(env.server, env.realm).user_id,
      { status_text: 'x' },
      'User is deactivated',
    ],
    ['a moderator is no administrator', 'moderator', () => env.who.member!.user_id, { status_text: 'x' }, 'Insufficient permission'],
    ['a member, even with nothing new', 'member', () => env.who.member_2!.user_id, {}, 'Insufficient permission'],
    ['a member setting their own status here', 'member', () => env.who.member!.user_id, { status_text: 'x' }, 'Insufficient permission'],
    ['nothing sent', 'administrator', () => env.who.member!.user_id, {}, NO_NEW_VALUES],
    ['away alone is ignored, so nothing new', 'administrator', () => env.who.member!.user_id, { away: 'true' }, NO_NEW_VALUES],
    ['emoji_code alone', 'administrator', () => env.who.member!.user_id, { emoji_code: '1f697' }, NO_NEW_VALUES],
    [
      'code with a text, no name',
      'administrator',
      () => env.who.member!.user_id,
      { status_text: 'x', reaction_type: 'unicode_emoji' },
      NAME_REQUIRED,
    ],
    ['unknown emoji name', 'owner', () => env.who.member!.user_id, { emoji_name: 'invalid' }, "Emoji 'invalid' does not exist"],
    ['name and code differ', 'owner', () => env.who.member!.user_id, { emoji_name: 'car', emoji_code: '1f4bb' }, 'Invalid emoji name.'],
    [
      'realm_emoji with a bad ID',
      'owner',
      () => env.who.member!.user_id,
      { emoji_name: 'car', emoji_code: '1f4bb', reaction_type: 'realm_emoji' },
      'Invalid custom emoji.',
    ],
    [
      'an unknown type',
      'owner',
      () => env.who.member!.user_id,
      { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'bogus' },
      'Invalid emoji type.',
    ],
  ];

  it.each(cases)('%s', async (_name, role, target, form, msg) => {
    await expectRefused(env, () => setFor(env.server, env.who[role]!, target(), form), 400, error(msg));
  });

  it('a path user_id that is no integer names no resource (404)', async () => {
    const res = await call(env.server, 'POST', '/api/v1/users/abc/status', { as: env.who.administrator!, form: { status_text: 'x' } });
    expect(res.status).toBe(404);
  });
});

describe('POST /users/{user_id}/status: changes', () => {
  const show = async (userId: number) => (await getStatus(env.server, env.who.member!, userId)).body.status;

  it("sets the target's text and emoji, only the fields sent", async () => {
    const member = env.who.member!.user_id;
    expect((await setFor(env.server, env.who.administrator!, member, { status_text: 'Set for you' })).body).toEqual(success());
    expect(await show(member)).toEqual({
      status_text: 'Set for you',
      emoji_name: 'computer',
      emoji_code: '1f4bb',
      reaction_type: 'unicode_emoji',
    });
    const custom = customEmoji(env.server, env.realm).active;
    expect((await setFor(env.server, env.who.owner!, member, { emoji_name: custom.name })).body).toEqual(success());
    expect(await show(member)).toEqual({
      status_text: 'Set for you',
      emoji_name: custom.name,
      emoji_code: String(custom.id),
      reaction_type: 'realm_emoji',
    });
    expect((await setFor(env.server, env.who.owner!, member, { emoji_name: '', status_text: '' })).body).toEqual(success());
    expect(await show(member)).toEqual({});
  });

  it("an administrator may set their own status here, and a guest's", async () => {
    expect((await setFor(env.server, env.who.administrator!, env.who.administrator!.user_id, { emoji_name: 'teamchat' })).body).toEqual(
      success(),
    );
    expect(await show(env.who.administrator!.user_id)).toEqual({
      emoji_name: 'teamchat',
      emoji_code: 'teamchat',
      reaction_type: 'service_extra_emoji',
    });
    expect((await setFor(env.server, env.who.administrator!, env.who.guest!.user_id, { status_text: 'Visiting' })).body).toEqual(success());
    expect(await show(env.who.guest!.user_id)).toEqual({ status_text: 'Visiting' });
  });

  it('an away sent along is ignored: presence_enabled stays, and the key is reported (C5)', async () => {
    const moderator = env.who.moderator!.user_id;
    const res = await setFor(env.server, env.who.administrator!, moderator, { status_text: 'Back soon', away: 'false' });
    expect(res.body).toEqual(success({ ignored_parameters_unsupported: ['away'] }));
    expect(tables(env.server, env.realm).users[String(moderator)]!.settings.presence_enabled).toBe(false);
    expect(await show(moderator)).toEqual({ status_text: 'Back soon', away: true });
  });
});

describe('POST /users/{user_id}/status: feature levels (§9)', () => {
  it.each([
    [166, success()],
    [167, success({ ignored_parameters_unsupported: ['away'] })],
  ])('at level %i: the answer to an ignored away', async (level, body) => {
    const { realm } = await freshRealm(env.server, level);
    const who = credentials(env.server, realm);
    const res = await call(env.server, 'POST', of(who.member!.user_id), {
      as: who.administrator!,
      form: { status_text: 'Level test', away: 'true' },
    });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body });
    expect(tables(env.server, realm).users[String(who.member!.user_id)]!.settings.presence_enabled).toBe(true);
  });

  it('§4.5 reports nothing: away is its own parameter there', async () => {
    const { realm } = await freshRealm(env.server, 167);
    const who = credentials(env.server, realm);
    const res = await call(env.server, 'POST', '/api/v1/users/me/status', { as: who.member!, form: { status_text: 'x', away: 'false' } });
    expect(res.body).toEqual(success());
  });
});
