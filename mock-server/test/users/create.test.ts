import { beforeAll, describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import { verifyPassword } from '../../src/domain/passwords.js';
import { loadResponseSchemas } from '../helpers/response-schemas.js';
import { call, credentials } from '../helpers/test-server.js';
import { INSUFFICIENT, error, isSubscribed, success, tables, useTestRealm } from '../helpers/harness.js';
import { DEACTIVATED_401, NOT_LOGGED_IN, createUser, deactivatedWho, missing, patchUser, userRow, userState } from './support.js';

/**
 * POST /users (spec §4.10): who may, the reference server's order of checks with their exact texts, and
 * the account that comes out. Each test starts from a pristine copy of the demo realm.
 */
const env = useTestRealm();
let schemaOf: (operationId: string, status: number) => ValidateFunction;
beforeAll(async () => {
  schemaOf = await loadResponseSchemas();
});

const GOOD = { email: 'new.person@example.com', password: 'abcd1234', full_name: 'New Person' };
const NEXT_ID = 23; // the demo realm's users are 11…22
const create = (role: string, form: Record<string, string>) => createUser(env.server, env.who[role]!, form);

/** Runs a refused request and checks that no account, group membership or subscription changed. */
async function refused(role: string | null, form: Record<string, string>, status: number, body: unknown): Promise<void> {
  const before = userState(env.server, env.realm);
  const as = role === null ? null : role === 'deactivated' ? deactivatedWho(env.server, env.realm) : env.who[role]!;
  const res = await createUser(env.server, as, form);
  expect([res.status, res.body]).toEqual([status, body]);
  expect(userState(env.server, env.realm)).toBe(before);
}

describe('who may create users (§4.10, §5, C10)', () => {
  it.each(['owner', 'administrator'])('%s (holding can_create_users) creates a member', async (role) => {
    const res = await create(role, GOOD);
    expect([res.status, res.body]).toEqual([200, success({ user_id: NEXT_ID })]);
  });

  it('an administrator without can_create_users is refused after parsing', async () => {
    await patchUser(env.server, env.realm, env.who.administrator!.user_id, { can_create_users: false });
    await refused('administrator', GOOD, 400, error('User not authorized to create users'));
    // Parsing still comes first for them: the gate only stops non-administrators.
    await refused('administrator', {}, 400, missing('email'));
  });

  it.each(['moderator', 'member', 'guest', 'bot'])('%s gets Insufficient permission before any parameter is read', async (role) => {
    await refused(role, {}, 400, INSUFFICIENT);
    await refused(role, { email: 'not an email' }, 400, INSUFFICIENT);
    await refused(role, GOOD, 400, INSUFFICIENT);
  });

  it('a non-administrator holding can_create_users is still refused (administrators only)', async () => {
    await patchUser(env.server, env.realm, env.who.member!.user_id, { can_create_users: true });
    await refused('member', GOOD, 400, INSUFFICIENT);
  });

  it('deactivated credentials and no credentials → 401', async () => {
    await refused('deactivated', GOOD, 401, DEACTIVATED_401);
    await refused(null, GOOD, 401, NOT_LOGGED_IN);
  });
});

describe('checks in the reference order; a refused request changes nothing', () => {
  const weak = 'abc';
  it.each([
    ['no parameters', {}, missing('email')],
    ['email only', { email: 'x' }, missing('password')],
    ['no full_name', { email: 'x', password: weak }, missing('full_name')],
    ['name too short beats a bad email and a weak password', { email: 'x', password: weak, full_name: 'A' }, error('Name too short!')],
    ['a blank name is too short (stripped first)', { ...GOOD, full_name: '   ' }, error('Name too short!')],
    ['name too long', { ...GOOD, full_name: 'n'.repeat(101) }, error('Name too long!')],
    ['mention syntax in the name', { ...GOOD, full_name: 'Ann @ Home' }, error('Invalid characters in name!')],
    ['a name ending in |digits', { ...GOOD, full_name: 'Ann|12' }, error('Invalid format!')],
    [
      'malformed email beats an email in use and a weak password',
      { email: 'andrew@demo', password: weak, full_name: 'Ann' },
      error('Bad name or username'),
    ],
    ['no @', { ...GOOD, email: 'new.person.example.com' }, error('Bad name or username')],
    ['spaces', { ...GOOD, email: 'new person@example.com' }, error('Bad name or username')],
    ['empty email', { ...GOOD, email: '' }, error('Bad name or username')],
    [
      'an address longer than 254 characters',
      { ...GOOD, email: `${'a'.repeat(64)}@${'b'.repeat(190)}.com` },
      error('Bad name or username'),
    ],
    // {d}: the realm's mail domain (each realm made from the demo fixture has its own).
    [
      'email in use beats a weak password (case-insensitive)',
      { email: 'ANDREW@{d}', password: weak, full_name: 'Ann' },
      error("Email 'ANDREW@{d}' already in use"),
    ],
    ["a deactivated user's email", { ...GOOD, email: 'arnulfo@{d}' }, error("Email 'arnulfo@{d}' already in use")],
    ["a bot's email", { ...GOOD, email: 'array-bot@{d}' }, error("Email 'array-bot@{d}' already in use")],
    ["the system bot's email", { ...GOOD, email: 'notification-bot@{d}' }, error("Email 'notification-bot@{d}' already in use")],
    ['five characters are too weak', { ...GOOD, password: 'abcde' }, error('The password is too weak.')],
    ['an empty password is too weak', { ...GOOD, password: '' }, error('The password is too weak.')],
  ])('%s', async (_name, form, body) => {
    const inRealm = <T>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll('{d}', `${env.realm}.teamchat.test`)) as T;
    await refused('administrator', inRealm(form as Record<string, string>), 400, inRealm(body));
  });

  it('can_create_users is checked before the name', async () => {
    await patchUser(env.server, env.realm, env.who.owner!.user_id, { can_create_users: false });
    await refused('owner', { email: 'x', password: '', full_name: '' }, 400, error('User not authorized to create users'));
  });

  it('a realm requiring unique names refuses a taken name, whatever its case', async () => {
    const realm = tables(env.server, env.realm).realm.realm;
    await env.server.context.store.transact(env.realm, (tx) => tx.put('realm', 'realm', { ...realm, require_unique_names: true }));
    const taken = userRow(env.server, env.realm, env.who.member!.user_id).full_name.toUpperCase();
    await refused('administrator', { ...GOOD, full_name: taken }, 400, error('Unique names required in this organization.'));
  });

  it('a name taken in a realm without the rule is accepted', async () => {
    const taken = userRow(env.server, env.realm, env.who.member!.user_id).full_name;
    expect((await create('administrator', { ...GOOD, full_name: taken })).body).toEqual(success({ user_id: NEXT_ID }));
  });
});

describe('the new account', () => {
  it('is an active human member with the given name and email, a fresh key, the password and the default channels', async () => {
    const res = await create('administrator', { email: 'Mixed.Case@Example.COM', password: 'six ch', full_name: '  Ada  Lovelace \t' });
    expect(res.body).toEqual(success({ user_id: NEXT_ID }));
    const row = userRow(env.server, env.realm, NEXT_ID);
    const others = Object.values(tables(env.server, env.realm).users).filter((u) => u.user_id !== NEXT_ID);
    expect(row).toMatchObject({
      email: 'Mixed.Case@example.com', // the domain lower-cased, as the reference server stores it
      delivery_email: 'Mixed.Case@example.com',
      full_name: 'Ada  Lovelace',
      role: 400,
      is_active: true,
      is_bot: false,
      bot_type: null,
      bot_owner_id: null,
      is_system_bot: false,
      date_joined: env.server.context.clock.now(env.realm),
      timezone: '',
      avatar_source: 'G',
      avatar_version: 1,
      can_create_users: false,
      can_change_user_emails: false,
      profile_data: {},
      settings: { presence_enabled: true, enable_drafts_synchronization: true, email_address_visibility: 1 },
    });
    expect(row.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(others.map((u) => u.api_key)).not.toContain(row.api_key);
    expect(verifyPassword('six ch', row.password_hash!)).toBe(true);
    expect(verifyPassword('six ch!', row.password_hash!)).toBe(false);
    const recipients = Object.values(tables(env.server, env.realm).channels)
      .map((c) => c.recipient_id)
      .concat(others.map((u) => u.recipient_id));
    expect(recipients).not.toContain(row.recipient_id);
    // The realm's default channels (51 home, 52 alarm), and no other.
    const subscribed = Object.values(tables(env.server, env.realm).subscriptions)
      .filter((s) => s.user_id === NEXT_ID && s.active)
      .map((s) => s.stream_id);
    expect(subscribed.sort()).toEqual([51, 52]);
    expect(isSubscribed(env.server, env.realm, NEXT_ID, 51)).toBe(true);
    // Joined just now, inside the realm's waiting period: role:members, not role:fullmembers.
    const groups = Object.values(tables(env.server, env.realm).user_groups)
      .filter((g) => g.members.includes(NEXT_ID))
      .map((g) => g.name);
    expect(groups).toEqual(['role:members']);
  });

  it('two accounts get different keys and salts even with the same password', async () => {
    await create('administrator', GOOD);
    await create('administrator', { ...GOOD, email: 'other@example.com' });
    const [a, b] = [userRow(env.server, env.realm, NEXT_ID), userRow(env.server, env.realm, NEXT_ID + 1)];
    expect(a.api_key).not.toBe(b.api_key);
    expect(a.password_hash).not.toBe(b.password_hash);
  });

  it('can use the API at once with its key, may send to a default channel and sees itself in a register', async () => {
    await create('administrator', GOOD);
    const who = { email: GOOD.email, api_key: userRow(env.server, env.realm, NEXT_ID).api_key };
    const sent = await call(env.server, 'POST', '/api/v1/messages', {
      as: who,
      form: { type: 'stream', to: '51', topic: 'hello', content: 'Hi all' },
    });
    expect(sent.body).toMatchObject({ result: 'success' });
    const register = await call(env.server, 'POST', '/api/v1/register', {
      as: who,
      form: { fetch_event_types: '["realm_user", "subscription"]' },
    });
    expect(register.body).toMatchObject({ user_id: NEXT_ID, email: GOOD.email, full_name: GOOD.full_name, role: 400, is_admin: false });
    expect((register.body.realm_users as { user_id: number }[]).map((u) => u.user_id)).toContain(NEXT_ID);
    expect((register.body.subscriptions as { stream_id: number }[]).map((s) => s.stream_id).sort()).toEqual([51, 52]);
    // And everyone else's snapshot lists them too.
    const other = await call(env.server, 'POST', '/api/v1/register', { as: env.who.guest!, form: { fetch_event_types: '["realm_user"]' } });
    expect((other.body.realm_users as { user_id: number }[]).some((u) => u.user_id === NEXT_ID)).toBe(true);
  });

  it('can use the API at once with a key fetched with its password', async () => {
    await create('owner', GOOD);
    // Anonymous: the Host header's first label names the realm (http/pipeline.ts).
    const fetched = await call(env.server, 'POST', '/api/v1/fetch_api_key', {
      form: { username: GOOD.email, password: GOOD.password },
      headers: { host: `${env.realm}.localhost` },
    });
    expect(fetched.body).toEqual(
      success({ api_key: userRow(env.server, env.realm, NEXT_ID).api_key, email: GOOD.email, user_id: NEXT_ID }),
    );
  });

  it('is a full member at once in a realm without a waiting period', async () => {
    const realm = tables(env.server, env.realm).realm.realm;
    await env.server.context.store.transact(env.realm, (tx) => tx.put('realm', 'realm', { ...realm, waiting_period_threshold: 0 }));
    await create('administrator', GOOD);
    const groups = Object.values(tables(env.server, env.realm).user_groups)
      .filter((g) => g.members.includes(NEXT_ID))
      .map((g) => g.name);
    expect(groups).toEqual(['role:fullmembers']);
  });
});

describe('wire details', () => {
  it('accepts multipart bodies (the JavaScript client) and matches the OpenAPI document', async () => {
    const res = await call(env.server, 'POST', '/api/v1/users', { as: env.who.administrator!, multipart: GOOD });
    expect(res.status).toBe(200);
    expect(schemaOf('create-user', 200)(res.body)).toBe(true);
    for (const form of [{}, { ...GOOD, password: 'x' }]) {
      const bad = await create('member', form);
      const validate = schemaOf('create-user', 400);
      expect(validate(bad.body), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it.each([
    [166, undefined],
    [167, ['role']],
  ])('level %i: ignored_parameters_unsupported %j', async (level, ignored) => {
    const realm = `create-level-${level}`;
    await env.server.control.createRealm({ realm_id: realm, feature_level: level });
    const res = await createUser(env.server, credentials(env.server, realm).administrator!, { ...GOOD, role: '200' });
    expect(res.body).toEqual(success({ user_id: NEXT_ID, ...(ignored ? { ignored_parameters_unsupported: ignored } : {}) }));
    expect(tables(env.server, realm).users[String(NEXT_ID)]!.role).toBe(400);
  });
});
