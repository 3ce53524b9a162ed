import { describe, expect, it } from 'vitest';
import { drain, openQueue, tables, useTestRealm, type TestRealm } from '../helpers/harness.js';
import { err, FIELD, OK, patchUser, U, user } from './support.js';

/**
 * PATCH /api/v1/users/{user_id} (spec §4.7): every refusal, in the reference server's order (parse order
 * full_name → new_email → profile_data → role → user_id, then reference §4.7 checks 1–6), with its exact
 * body; and a refused request changes nothing and tells nobody anything.
 */

const env = useTestRealm({ realm: 'fresh' });

type Case = {
  name: string;
  as: string;
  target: number | string;
  form: Record<string, string>;
  msg: string;
  setup?: (env: TestRealm) => Promise<unknown>;
};

const LONG_NAME = 'N'.repeat(101);
const profile = (items: unknown[]) => JSON.stringify(items);

const CASES: Case[] = [
  // Parsing, in x-parse-order: the first malformed parameter decides, before the target is looked up.
  {
    name: 'role outside the list',
    as: 'administrator',
    target: 9999,
    form: { role: '500' },
    msg: 'Invalid role: Value error, Not in the list of possible values',
  },
  { name: 'role not an integer', as: 'administrator', target: U.member_2, form: { role: '"400"' }, msg: 'role is not an integer' },
  {
    name: 'profile_data not JSON beats a bad role',
    as: 'administrator',
    target: 9999,
    form: { profile_data: '[{', role: '500' },
    msg: 'profile_data is not valid JSON',
  },
  // 1. The target, then the caller.
  { name: 'unknown user', as: 'administrator', target: 9999, form: { full_name: 'New Name' }, msg: 'No such user' },
  { name: 'the system bot', as: 'owner', target: U.notificationBot, form: { full_name: 'New Name' }, msg: 'No such user' },
  {
    name: 'unknown user, asked by a non-administrator',
    as: 'moderator',
    target: 9999,
    form: { full_name: 'New Name' },
    msg: 'No such user',
  },
  { name: 'a moderator', as: 'moderator', target: U.member_2, form: { full_name: 'New Name' }, msg: 'Insufficient permission' },
  {
    name: "a bot's owner on their own bot (C7)",
    as: 'member_3',
    target: U.bot,
    form: { full_name: 'Renamed Bot' },
    msg: 'Insufficient permission',
  },
  {
    name: 'a non-administrator, with a bad name too',
    as: 'member',
    target: U.member_2,
    form: { full_name: 'x' },
    msg: 'Insufficient permission',
  },
  // 2. new_email needs an owner holding can_change_user_emails (C9).
  {
    name: 'an administrator changing an email',
    as: 'administrator',
    target: U.member_2,
    form: { new_email: 'new@{domain}' },
    msg: 'User not authorized to change user emails',
  },
  {
    name: 'the email permission beats the role rules',
    as: 'administrator',
    target: U.member_2,
    form: { new_email: 'new@{domain}', role: '100' },
    msg: 'User not authorized to change user emails',
  },
  {
    name: 'an owner without can_change_user_emails',
    as: 'administrator',
    target: U.member_2,
    form: { new_email: 'new@{domain}' },
    msg: 'User not authorized to change user emails',
    // The administrator becomes an owner; can_change_user_emails stays false.
    setup: (e) => patchUser(e.server, e.who.owner!, U.administrator, { role: '100' }),
  },
  // 3. Role changes.
  {
    name: 'an administrator granting the owner role (C10)',
    as: 'administrator',
    target: U.member_2,
    form: { role: '100' },
    msg: 'Must be an organization owner',
  },
  {
    name: 'an administrator removing the owner role',
    as: 'administrator',
    target: U.owner,
    form: { role: '400' },
    msg: 'Must be an organization owner',
  },
  {
    name: 'an administrator making a guest an owner: the owner rule first',
    as: 'administrator',
    target: U.guest,
    form: { role: '100' },
    msg: 'Must be an organization owner',
  },
  {
    name: 'the only owner demoting themselves',
    as: 'owner',
    target: U.owner,
    form: { role: '200' },
    msg: 'The owner permission cannot be removed from the only organization owner.',
  },
  {
    name: 'a guest made an administrator (C8)',
    as: 'administrator',
    target: U.guest,
    form: { role: '200' },
    msg: 'Guests cannot be organization administrators.',
  },
  {
    name: 'a guest made an owner by the owner (C8)',
    as: 'owner',
    target: U.guest,
    form: { role: '100' },
    msg: 'Guests cannot be organization administrators.',
  },
  {
    name: 'the role rules beat the name rules',
    as: 'administrator',
    target: U.member_2,
    form: { role: '100', full_name: 'x' },
    msg: 'Must be an organization owner',
  },
  // 4. The name (names.ts; reference §4.7 check 4).
  { name: 'a one-character name', as: 'administrator', target: U.member_2, form: { full_name: ' x ' }, msg: 'Name too short!' },
  { name: 'a 101-character name', as: 'administrator', target: U.member_2, form: { full_name: LONG_NAME }, msg: 'Name too long!' },
  {
    name: 'mention syntax in a name',
    as: 'administrator',
    target: U.member_2,
    form: { full_name: 'Jo **Bold**' },
    msg: 'Invalid characters in name!',
  },
  {
    name: 'a name ending like a mention ID',
    as: 'administrator',
    target: U.member_2,
    form: { full_name: 'Jo Doe|12' },
    msg: 'Invalid format!',
  },
  {
    name: 'the name rules beat the profile rules',
    as: 'administrator',
    target: U.member_2,
    form: { full_name: 'x', profile_data: profile([{ id: 99, value: 'v' }]) },
    msg: 'Name too short!',
  },
  // 5. Profile fields (the types in profile-fields.test.ts).
  {
    name: 'an unknown field',
    as: 'administrator',
    target: U.member_2,
    form: { profile_data: profile([{ id: 99, value: 'v' }]) },
    msg: 'Field id 99 not found.',
  },
  {
    name: 'an unknown field, clearing',
    as: 'administrator',
    target: U.member_2,
    form: { profile_data: profile([{ id: 99, value: null }]) },
    msg: 'Field id 99 not found.',
  },
  {
    name: 'a bad value after a good one',
    as: 'administrator',
    target: U.member_2,
    form: {
      profile_data: profile([
        { id: FIELD.team, value: 'Fine' },
        { id: FIELD.website, value: 'not a url' },
      ]),
    },
    msg: 'Website is not a URL',
  },
  {
    name: 'the profile rules beat the email rules',
    as: 'owner',
    target: U.member_2,
    form: { profile_data: profile([{ id: 99, value: 'v' }]), new_email: 'bad' },
    msg: 'Field id 99 not found.',
  },
  // 6. The email.
  { name: 'a malformed email', as: 'owner', target: U.member_2, form: { new_email: 'not-an-email' }, msg: 'Invalid new email address.' },
  {
    name: 'an email with spaces',
    as: 'owner',
    target: U.member_2,
    form: { new_email: ' someone@{domain}' },
    msg: 'Invalid new email address.',
  },
  {
    name: "another user's email, other case",
    as: 'owner',
    target: U.member_2,
    form: { new_email: 'WERNER@{domain}' },
    msg: 'New email value error: Email is already in use.',
  },
  {
    name: "a deactivated user's email",
    as: 'owner',
    target: U.member_2,
    form: { new_email: 'arnulfo@{domain}' },
    msg: 'New email value error: Email is already in use.',
  },
  {
    name: "the system bot's email",
    as: 'owner',
    target: U.member_2,
    form: { new_email: 'notification-bot@{domain}' },
    msg: 'New email value error: Email is already in use.',
  },
];

/** The fresh realm's addresses end in its own domain: `{domain}` stands for it. */
const inRealm = (form: Record<string, string>) => {
  const domain = user(env, U.owner).email.split('@')[1]!;
  return Object.fromEntries(Object.entries(form).map(([k, v]) => [k, v.replace('{domain}', domain)]));
};

/** What a refusal must leave alone: every user and every group, as stored. */
const state = () => {
  const t = tables(env.server, env.realm);
  return JSON.stringify({ users: t.users, user_groups: t.user_groups });
};

describe('PATCH /users/{user_id}: refusals in order (§4.7)', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    await c.setup?.(env);
    const before = state();
    const { queueId } = await openQueue(env.server, env.who.owner!);
    const res = await patchUser(env.server, env.who[c.as]!, c.target, inRealm(c.form));
    expect([res.status, res.body]).toEqual([400, err(c.msg)]);
    expect(state()).toBe(before);
    expect(await drain(env.server, env.who.owner!, queueId)).toEqual([]);
  });
});

describe('PATCH /users/{user_id}: a failed request changes nothing', () => {
  it('a valid name with a refused role changes neither', async () => {
    const name = user(env, U.member_2).full_name;
    const res = await patchUser(env.server, env.who.administrator!, U.member_2, { full_name: 'Valid Name', role: '100' });
    expect(res.body).toEqual(err('Must be an organization owner'));
    expect(user(env, U.member_2)).toMatchObject({ full_name: name, role: 400 });
  });

  it('a valid name with a malformed role changes neither', async () => {
    const res = await patchUser(env.server, env.who.administrator!, U.member_2, { full_name: 'Valid Name', role: '250' });
    expect(res.body).toEqual(err('Invalid role: Value error, Not in the list of possible values'));
    expect(user(env, U.member_2).full_name).not.toBe('Valid Name');
  });

  it('a role, a name and a profile field stay when the email is refused last', async () => {
    const before = user(env, U.member_2);
    const res = await patchUser(
      env.server,
      env.who.owner!,
      U.member_2,
      inRealm({
        role: '300',
        full_name: 'Valid Name',
        profile_data: profile([{ id: FIELD.team, value: 'Elsewhere' }]),
        new_email: 'werner@{domain}',
      }),
    );
    expect(res.body).toEqual(err('New email value error: Email is already in use.'));
    expect(user(env, U.member_2)).toEqual(before);
  });
});

describe('PATCH /users/{user_id}: accepted requests that change nothing', () => {
  it.each([
    ['a whitespace-only name is ignored', { full_name: '   ' }],
    ['the same role is a no-op', { role: '400' }],
    ['the same name is a no-op', { full_name: 'SAME' }],
    ['no parameters at all', {}],
    ['the same email is a no-op', { new_email: 'maribel@{domain}' }],
    ['clearing a field that has no value', { profile_data: profile([{ id: FIELD.website, value: '' }]) }],
  ])('%s', async (_name, form: Record<string, string>) => {
    const current = user(env, U.member_2);
    const sent = form.full_name === 'SAME' ? { full_name: current.full_name } : inRealm(form);
    const { queueId } = await openQueue(env.server, env.who.member!);
    const res = await patchUser(env.server, env.who.owner!, U.member_2, sent);
    expect([res.status, res.body]).toEqual([200, OK]);
    expect(user(env, U.member_2)).toEqual(current);
    expect(await drain(env.server, env.who.member!, queueId)).toEqual([]);
  });

  it('a bot and a deactivated user are valid targets', async () => {
    expect((await patchUser(env.server, env.who.administrator!, U.bot, { full_name: 'Renamed Bot' })).body).toEqual(OK);
    expect((await patchUser(env.server, env.who.administrator!, U.deactivated, { full_name: 'Renamed Former' })).body).toEqual(OK);
    expect(user(env, U.bot).full_name).toBe('Renamed Bot');
    expect(user(env, U.deactivated).full_name).toBe('Renamed Former');
  });
});
