import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { error, success, tables, useTestRealm } from '../helpers/harness.js';
import { customEmoji, expectRefused, getStatus, NAME_REQUIRED, NO_NEW_VALUES, OWN, setOwn } from './support.js';

/**
 * POST /users/me/status (spec §4.5; reference §4.5): parse order, the rules in order with their exact
 * texts, the three emoji namespaces (§2.5), "only the fields sent change", and the stock clients' wire
 * forms. Demo statuses: member "In a meeting" + computer, member_2 a custom emoji, moderator "Out sick"
 * and away (presence off); member_3 has none.
 */
const env = useTestRealm();
const LONG = 'x'.repeat(61);

type Form = Record<string, string>;
type Custom = ReturnType<typeof customEmoji>;

describe('POST /users/me/status: refusals (exact body, nothing changes, no event)', () => {
  const cases: [string, (c: Custom) => Form, (c: Custom) => string][] = [
    // Parse errors, in the document's x-parse-order: away → emoji_code → emoji_name → reaction_type → status_text.
    ['away not JSON', () => ({ away: 'True' }), () => 'away is not valid JSON'],
    ['away not a boolean', () => ({ away: '1' }), () => 'away is not a boolean'],
    ['away is parsed before status_text', () => ({ status_text: LONG, away: 'yes' }), () => 'away is not valid JSON'],
    ['status_text over 60 characters', () => ({ status_text: LONG }), () => 'status_text is too long (limit: 60 characters)'],
    [
      'a parse error beats an unknown emoji',
      () => ({ status_text: LONG, emoji_name: 'invalid' }),
      () => 'status_text is too long (limit: 60 characters)',
    ],
    [
      'a parse error beats a code without a name',
      () => ({ status_text: LONG, emoji_code: '1f697' }),
      () => 'status_text is too long (limit: 60 characters)',
    ],
    // 1. no new values
    ['nothing sent', () => ({}), () => NO_NEW_VALUES],
    ['emoji_code alone', () => ({ emoji_code: '1f697' }), () => NO_NEW_VALUES],
    ['reaction_type alone', () => ({ reaction_type: 'unicode_emoji' }), () => NO_NEW_VALUES],
    ['code and type without anything new', () => ({ emoji_code: '1f697', reaction_type: 'unicode_emoji' }), () => NO_NEW_VALUES],
    // 3. a name completed from the emoji data
    ['unknown name alone', () => ({ emoji_name: 'invalid' }), () => "Emoji 'invalid' does not exist"],
    [
      'unknown name with a code (reference example)',
      () => ({ status_text: 'x', emoji_code: '1f4bb', emoji_name: 'invalid' }),
      () => "Emoji 'invalid' does not exist",
    ],
    ['unknown name with a type', () => ({ emoji_name: 'invalid', reaction_type: 'unicode_emoji' }), () => "Emoji 'invalid' does not exist"],
    [
      'a deactivated custom emoji by name',
      (c) => ({ emoji_name: c.deactivated.name }),
      (c) => `Emoji '${c.deactivated.name}' does not exist`,
    ],
    // 4. code or type without a name
    ['code with status_text, no name', () => ({ status_text: 'x', emoji_code: '1f697' }), () => NAME_REQUIRED],
    ['type with away, no name', () => ({ away: 'false', reaction_type: 'unicode_emoji' }), () => NAME_REQUIRED],
    // 5. name, code and type agree
    ['unicode: name and code differ', () => ({ emoji_name: 'car', emoji_code: '1f4bb' }), () => 'Invalid emoji name.'],
    [
      'unicode: a code that is no emoji',
      () => ({ emoji_name: 'car', emoji_code: 'zzzz', reaction_type: 'unicode_emoji' }),
      () => 'Invalid emoji name.',
    ],
    [
      'unicode: a custom emoji ID as code',
      (c) => ({ emoji_name: 'car', emoji_code: String(c.active.id), reaction_type: 'unicode_emoji' }),
      () => 'Invalid emoji name.',
    ],
    [
      'realm_emoji: a Unicode code (reference example)',
      () => ({ emoji_name: 'car', emoji_code: '1f4bb', reaction_type: 'realm_emoji' }),
      () => 'Invalid custom emoji.',
    ],
    [
      'realm_emoji: an unknown ID',
      () => ({ emoji_name: 'car', emoji_code: '9999', reaction_type: 'realm_emoji' }),
      () => 'Invalid custom emoji.',
    ],
    [
      'realm_emoji: type given, code completed from a Unicode name',
      () => ({ emoji_name: 'car', reaction_type: 'realm_emoji' }),
      () => 'Invalid custom emoji.',
    ],
    [
      'realm_emoji: the ID of another name',
      (c) => ({ emoji_name: 'car', emoji_code: String(c.active.id), reaction_type: 'realm_emoji' }),
      () => 'Invalid emoji name.',
    ],
    [
      'realm_emoji: deactivated',
      (c) => ({ emoji_name: c.deactivated.name, emoji_code: String(c.deactivated.id), reaction_type: 'realm_emoji' }),
      () => 'Invalid custom emoji.',
    ],
    [
      'service_extra_emoji: another code',
      () => ({ emoji_name: 'teamchat', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' }),
      () => 'Invalid emoji name.',
    ],
    [
      'service_extra_emoji: a Unicode name',
      () => ({ emoji_name: 'car', emoji_code: 'car', reaction_type: 'service_extra_emoji' }),
      () => 'Invalid emoji name.',
    ],
    [
      'the reference name of the extra emoji type (C1)',
      () => ({ emoji_name: 'teamchat', emoji_code: 'teamchat', reaction_type: 'zulip_extra_emoji' }),
      () => 'Invalid emoji type.',
    ],
    ['an unknown type', () => ({ emoji_name: 'car', emoji_code: '1f697', reaction_type: 'bogus' }), () => 'Invalid emoji type.'],
  ];

  it.each(cases)('%s', async (_name, form, msg) => {
    // Custom emoji IDs and names come from the realm's fixture, known at run time.
    const custom = customEmoji(env.server, env.realm);
    await expectRefused(env, () => setOwn(env.server, env.who.member!, form(custom)), 400, error(msg(custom)));
  });
});

describe('POST /users/me/status: what is stored and shown', () => {
  const show = async (role = 'member_3') => (await getStatus(env.server, env.who.member!, env.who[role]!.user_id)).body.status;

  const emojiCases: [string, (c: Custom) => Form, (c: Custom) => Record<string, string>][] = [
    [
      'a Unicode name alone',
      () => ({ emoji_name: 'car' }),
      () => ({ emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' }),
    ],
    [
      'a Unicode name with the reference names (smile = 1f642)',
      () => ({ emoji_name: 'smile' }),
      () => ({ emoji_name: 'smile', emoji_code: '1f642', reaction_type: 'unicode_emoji' }),
    ],
    [
      'a Unicode name, code and type',
      () => ({ emoji_name: 'computer', emoji_code: '1f4bb', reaction_type: 'unicode_emoji' }),
      () => ({ emoji_name: 'computer', emoji_code: '1f4bb', reaction_type: 'unicode_emoji' }),
    ],
    [
      'a Unicode name and code, type completed',
      () => ({ emoji_name: 'car', emoji_code: '1f697' }),
      () => ({ emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' }),
    ],
    [
      'a custom emoji by name alone',
      (c) => ({ emoji_name: c.active.name }),
      (c) => ({ emoji_name: c.active.name, emoji_code: String(c.active.id), reaction_type: 'realm_emoji' }),
    ],
    [
      'a custom emoji by name, ID and type',
      (c) => ({ emoji_name: c.active.name, emoji_code: String(c.active.id), reaction_type: 'realm_emoji' }),
      (c) => ({ emoji_name: c.active.name, emoji_code: String(c.active.id), reaction_type: 'realm_emoji' }),
    ],
    [
      'the extra emoji by name alone',
      () => ({ emoji_name: 'teamchat' }),
      () => ({ emoji_name: 'teamchat', emoji_code: 'teamchat', reaction_type: 'service_extra_emoji' }),
    ],
    [
      'the extra emoji by name, code and type',
      () => ({ emoji_name: 'teamchat', emoji_code: 'teamchat', reaction_type: 'service_extra_emoji' }),
      () => ({ emoji_name: 'teamchat', emoji_code: 'teamchat', reaction_type: 'service_extra_emoji' }),
    ],
  ];

  it.each(emojiCases)('sets %s', async (_name, form, shown) => {
    const custom = customEmoji(env.server, env.realm);
    const res = await setOwn(env.server, env.who.member_3!, form(custom));
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: success() });
    expect(await show()).toEqual(shown(custom));
  });

  it('changes only the fields sent', async () => {
    await setOwn(env.server, env.who.member!, { status_text: 'Busy' });
    expect(await show('member')).toEqual({
      status_text: 'Busy',
      emoji_name: 'computer',
      emoji_code: '1f4bb',
      reaction_type: 'unicode_emoji',
    });
    await setOwn(env.server, env.who.member!, { emoji_name: 'car' });
    expect(await show('member')).toEqual({ status_text: 'Busy', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' });
    expect(tables(env.server, env.realm).users[String(env.who.member!.user_id)]!.settings.presence_enabled).toBe(true);
  });

  it('clears the emoji with emoji_name "" (a code sent with it is ignored) and the text with ""', async () => {
    const res = await setOwn(env.server, env.who.member!, { emoji_name: '', emoji_code: '1f697' });
    expect(res.body).toEqual(success());
    expect(await show('member')).toEqual({ status_text: 'In a meeting' });
    expect(tables(env.server, env.realm).user_statuses[String(env.who.member!.user_id)]).toMatchObject({
      emoji_name: '',
      emoji_code: '',
      reaction_type: 'unicode_emoji',
    });
    await setOwn(env.server, env.who.member!, { status_text: '' });
    expect(await show('member')).toEqual({});
  });

  it('strips status_text, then counts at most 60 characters (code points)', async () => {
    expect((await setOwn(env.server, env.who.member_3!, { status_text: `  ${'y'.repeat(60)}\n` })).body).toEqual(success());
    expect(await show()).toEqual({ status_text: 'y'.repeat(60) });
    expect((await setOwn(env.server, env.who.member_3!, { status_text: '🚗'.repeat(60) })).body).toEqual(success());
    expect(await show()).toEqual({ status_text: '🚗'.repeat(60) });
    expect((await setOwn(env.server, env.who.member_3!, { status_text: '   ' })).body).toEqual(success());
    expect(await show()).toEqual({});
  });

  it('accepts the current value again', async () => {
    const res = await setOwn(env.server, env.who.member!, { status_text: 'In a meeting', emoji_name: 'computer' });
    expect(res.body).toEqual(success());
    expect(await show('member')).toEqual({
      status_text: 'In a meeting',
      emoji_name: 'computer',
      emoji_code: '1f4bb',
      reaction_type: 'unicode_emoji',
    });
  });

  it('away true turns presence_enabled off, and false back on; it is not stored in the status', async () => {
    const settings = () => tables(env.server, env.realm).users[String(env.who.member_3!.user_id)]!.settings.presence_enabled;
    expect((await setOwn(env.server, env.who.member_3!, { away: 'true' })).body).toEqual(success());
    expect(settings()).toBe(false);
    expect(await show()).toEqual({ away: true });
    expect(tables(env.server, env.realm).user_statuses[String(env.who.member_3!.user_id)]).toBeUndefined();
    expect((await setOwn(env.server, env.who.member_3!, { away: 'false' })).body).toEqual(success());
    expect(settings()).toBe(true);
    expect(await show()).toEqual({});
    // The demo moderator starts away (presence off).
    expect(await show('moderator')).toEqual({ status_text: 'Out sick', away: true });
    await setOwn(env.server, env.who.moderator!, { away: 'false' });
    expect(await show('moderator')).toEqual({ status_text: 'Out sick' });
  });
});

describe('POST /users/me/status: what the stock clients send (reference §4.5 "Wire")', () => {
  it('Python: form-urlencoded with away=false and the whole emoji', async () => {
    const res = await call(env.server, 'POST', OWN, {
      as: env.who.member_3!,
      headers: { 'user-agent': 'ZulipPython/0.9.1 (Linux)' },
      form: { status_text: 'on vacation', away: 'false', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' },
    });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: success() });
    expect((await getStatus(env.server, env.who.member!, env.who.member_3!.user_id)).body.status).toEqual({
      status_text: 'on vacation',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
  });

  it('JavaScript: multipart with away as the string "false"', async () => {
    const res = await call(env.server, 'POST', OWN, { as: env.who.member_3!, multipart: { status_text: 'Lunch', away: 'false' } });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: success() });
    expect((await getStatus(env.server, env.who.member!, env.who.member_3!.user_id)).body.status).toEqual({ status_text: 'Lunch' });
  });

  it('parameters in the query string count too (reference §1)', async () => {
    const res = await call(env.server, 'POST', OWN, { as: env.who.member_3!, query: { status_text: 'From the query' } });
    expect(res.body).toEqual(success());
    expect((await getStatus(env.server, env.who.member!, env.who.member_3!.user_id)).body.status).toEqual({
      status_text: 'From the query',
    });
  });

  it.each([
    ['Python: an empty body without Content-Type', { headers: { 'content-length': '0' }, body: '' }],
    [
      'JavaScript: an empty multipart body',
      { headers: { 'content-type': 'multipart/form-data;boundary=xyz', 'content-length': '0' }, body: '' },
    ],
  ])('%s is "no new values"', async (_name, options) => {
    await expectRefused(env, () => call(env.server, 'POST', OWN, { as: env.who.member!, ...options }), 400, error(NO_NEW_VALUES));
  });
});
