import { describe, expect, it } from 'vitest';
import type { CustomProfileFieldRow } from '../../src/store/state.js';
import { observeEvents, useTestRealm } from '../helpers/harness.js';
import { err, expectSnapshotsFollow, FIELD, OK, patchUser, U, user } from './support.js';

/**
 * profile_data of PATCH /users/{user_id} (spec §4.7; reference §4.7 check 5): the eight field types and
 * their validation texts, removal by "" / null / [], rendered_value for the Markdown types, and the
 * `realm_user` / update `custom_profile_field` events. The demo realm defines three fields; the test
 * adds one of every other type.
 */

const env = useTestRealm({ realm: 'fresh' });

const EXTRA = { about: 4, editor: 5, birthday: 6, mentor: 7, github: 8 } as const;
const EXTRA_FIELDS: Omit<CustomProfileFieldRow, 'order' | 'editable_by_user' | 'display_in_profile_summary' | 'hint'>[] = [
  { id: EXTRA.about, name: 'About', type: 2, field_data: '' },
  {
    id: EXTRA.editor,
    name: 'Editor',
    type: 3,
    field_data: JSON.stringify({ 0: { text: 'Vim', order: '1' }, 1: { text: 'Emacs', order: '2' } }),
  },
  { id: EXTRA.birthday, name: 'Birthday', type: 4, field_data: '' },
  { id: EXTRA.mentor, name: 'Mentor', type: 6, field_data: '' },
  { id: EXTRA.github, name: 'GitHub', type: 7, field_data: JSON.stringify({ subtype: 'github' }) },
];

async function addFields(): Promise<void> {
  await env.server.context.store.transact(env.realm, (tx) => {
    EXTRA_FIELDS.forEach((f, i) =>
      tx.put('custom_profile_fields', f.id, { ...f, hint: '', order: 3 + i, editable_by_user: true, display_in_profile_summary: false }),
    );
  });
}

const set = (id: number, value: unknown, as = env.who.administrator!) =>
  patchUser(env.server, as, U.member_2, { profile_data: JSON.stringify([{ id, value }]) });

const ACCEPTED: [string, number, unknown, { value: string; rendered_value?: string }][] = [
  ['short text, rendered', FIELD.team, 'Ops **team**', { value: 'Ops **team**', rendered_value: '<p>Ops <strong>team</strong></p>' }],
  ['short text of 50 characters', FIELD.team, 't'.repeat(50), { value: 't'.repeat(50), rendered_value: `<p>${'t'.repeat(50)}</p>` }],
  ['long text of 500 characters', EXTRA.about, 'a'.repeat(500), { value: 'a'.repeat(500), rendered_value: `<p>${'a'.repeat(500)}</p>` }],
  ['a select option key', EXTRA.editor, '1', { value: '1' }],
  ['a date', EXTRA.birthday, '1909-04-05', { value: '1909-04-05' }],
  ['a leap day', EXTRA.birthday, '2024-02-29', { value: '2024-02-29' }],
  ['a link', FIELD.website, 'https://example.com/path?q=1', { value: 'https://example.com/path?q=1' }],
  ['users as a list', EXTRA.mentor, [U.administrator, U.moderator], { value: '[12,13]' }],
  ['users as a JSON string (the spec says values are strings)', EXTRA.mentor, '[12]', { value: '[12]' }],
  ['an external account', EXTRA.github, 'octocat', { value: 'octocat' }],
  ['pronouns, not rendered', FIELD.pronouns, 'xe/xem', { value: 'xe/xem' }],
];

const REFUSED: [string, number, unknown, string][] = [
  ['short text of 51 characters', FIELD.team, 't'.repeat(51), 'Team is too long (limit: 50 characters)'],
  ['a list for a text field', FIELD.team, [1], 'Team is not a string'],
  ['long text of 501 characters', EXTRA.about, 'a'.repeat(501), 'About is too long (limit: 500 characters)'],
  ['an option text instead of its key', EXTRA.editor, 'Vim', "'Vim' is not a valid choice for 'Editor'."],
  ['no such day', EXTRA.birthday, '2023-02-30', 'Birthday is not a date'],
  ['a date without leading zeros', EXTRA.birthday, '2023-2-3', 'Birthday is not a date'],
  ['a link without a scheme', FIELD.website, 'example.com', 'Website is not a URL'],
  ['a javascript: link', FIELD.website, 'javascript:alert(1)', 'Website is not a URL'],
  ['users: not a list', EXTRA.mentor, 'someone', 'User IDs is not a list'],
  ['users: not integers', EXTRA.mentor, '["12"]', 'User IDs[0] is not an integer'],
  ['users: unknown IDs', EXTRA.mentor, [12, 9999, 9998], 'Invalid user IDs: 9999, 9998'],
  ['users: the system bot', EXTRA.mentor, [U.notificationBot], `Invalid user IDs: ${U.notificationBot}`],
  ['users: a deactivated user', EXTRA.mentor, [U.deactivated], `User with ID ${U.deactivated} is deactivated`],
  ['users: a bot', EXTRA.mentor, [U.bot], `User with ID ${U.bot} is a bot`],
  ['an external account of 51 characters', EXTRA.github, 'g'.repeat(51), 'GitHub is too long (limit: 50 characters)'],
  ['pronouns of 51 characters', FIELD.pronouns, 'p'.repeat(51), 'Pronouns is too long (limit: 50 characters)'],
];

describe('profile_data: field types (reference §4.7 check 5)', () => {
  it.each(ACCEPTED)('accepts %s', async (_name, id, value, stored) => {
    await addFields();
    expect((await set(id, value)).body).toEqual(OK);
    expect(user(env, U.member_2).profile_data[String(id)]).toEqual(stored);
  });

  it.each(REFUSED)('refuses %s', async (_name, id, value, msg) => {
    await addFields();
    const before = user(env, U.member_2);
    const res = await set(id, value);
    expect([res.status, res.body]).toEqual([400, err(msg)]);
    expect(user(env, U.member_2)).toEqual(before);
  });

  it.each([
    ['""', ''],
    ['null', null],
    ['[] for a users field', []],
  ])('%s removes the value', async (_name, value) => {
    await addFields();
    const id = Array.isArray(value) ? EXTRA.mentor : FIELD.team;
    if (Array.isArray(value)) expect((await set(id, [U.owner])).body).toEqual(OK);
    expect(user(env, U.member_2).profile_data[String(id)]).toBeDefined();
    expect((await set(id, value)).body).toEqual(OK);
    expect(user(env, U.member_2).profile_data[String(id)]).toBeUndefined();
  });
});

describe('profile_data: events', () => {
  it('one custom_profile_field update per changed field, to every active user; unchanged fields send nothing', async () => {
    const current = user(env, U.member_2).profile_data[String(FIELD.team)]!.value;
    const seen = await observeEvents(env, ['owner', 'member', 'member_2', 'guest', 'bot'], {}, async () => {
      const form = {
        profile_data: JSON.stringify([
          { id: FIELD.team, value: current },
          { id: FIELD.website, value: 'https://example.org' },
          { id: FIELD.pronouns, value: null },
          { id: FIELD.team, value: 'Edge *team*' },
        ]),
      };
      expect((await patchUser(env.server, env.who.administrator!, U.member_2, form)).body).toEqual(OK);
    });
    for (const events of Object.values(seen)) {
      expect(events).toEqual([
        {
          type: 'realm_user',
          op: 'update',
          person: {
            user_id: U.member_2,
            custom_profile_field: { id: FIELD.team, value: 'Edge *team*', rendered_value: '<p>Edge <em>team</em></p>' },
          },
        },
        {
          type: 'realm_user',
          op: 'update',
          person: { user_id: U.member_2, custom_profile_field: { id: FIELD.website, value: 'https://example.org' } },
        },
        { type: 'realm_user', op: 'update', person: { user_id: U.member_2, custom_profile_field: { id: FIELD.pronouns, value: null } } },
      ]);
    }
  });

  it('keeps snapshot + events = new snapshot', async () => {
    await expectSnapshotsFollow(env, ['owner', 'member_2', 'guest'], async () => {
      const form = {
        profile_data: JSON.stringify([
          { id: FIELD.team, value: 'New **team**' },
          { id: FIELD.pronouns, value: '' },
          { id: FIELD.website, value: 'https://example.net' },
        ]),
      };
      expect((await patchUser(env.server, env.who.owner!, U.member_2, form)).body).toEqual(OK);
    });
  });

  it("a bot's values are kept, but a bot's user object has no profile_data, so no event", async () => {
    const seen = await observeEvents(env, ['owner'], {}, async () => {
      expect(
        (await patchUser(env.server, env.who.owner!, U.bot, { profile_data: JSON.stringify([{ id: FIELD.team, value: 'Bots' }]) })).body,
      ).toEqual(OK);
    });
    expect(seen.owner).toEqual([]);
    expect(user(env, U.bot).profile_data[String(FIELD.team)]).toEqual({ value: 'Bots', rendered_value: '<p>Bots</p>' });
  });
});
