import { beforeAll, describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import { loadResponseSchemas } from '../helpers/response-schemas.js';
import { call, credentials } from '../helpers/test-server.js';
import { error, freshRealm, openQueue, send, useTestRealm, type Json } from '../helpers/harness.js';
import { ACTIVE_ROLES, DEACTIVATED_401, NOT_LOGGED_IN, createUser, deactivatedWho } from './support.js';

/**
 * Reading users (companions of §2.8): GET /users, GET /users/{id}, GET /users/me. Every user object must
 * be the one the register snapshot shows the same reader (one presenter), so the snapshot is the oracle.
 */
const env = useTestRealm({ realm: 'demo' });
let schemaOf: (operationId: string, status: number) => ValidateFunction;
beforeAll(async () => {
  schemaOf = await loadResponseSchemas();
});

type User = Json & { user_id: number };
const OWNER = 11;
const ADMINISTRATOR = 12; // Gravatar avatar, email visible to everyone
const DEACTIVATED = 20;
const BOT = 21;
const NOTIFICATION_BOT = 22; // system bot
const ALL_ACCOUNTS = [11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21];

const users = (as: string, query: Record<string, string> = {}) => call(env.server, 'GET', '/api/v1/users', { as: env.who[as]!, query });
const user = (as: string, id: number | string, query: Record<string, string> = {}) =>
  call(env.server, 'GET', `/api/v1/users/${id}`, { as: env.who[as]!, query });
const me = (as: string) => call(env.server, 'GET', '/api/v1/users/me', { as: env.who[as]! });

/** realm_users and realm_non_active_users of a register with these options, by user ID. */
async function snapshotUsers(as: string, clientGravatar: boolean): Promise<Map<number, User>> {
  const { snapshot } = await openQueue(env.server, env.who[as]!, {
    fetch_event_types: '["realm_user"]',
    client_gravatar: String(clientGravatar),
  });
  const all = [...(snapshot.realm_users as User[]), ...(snapshot.realm_non_active_users as User[])];
  return new Map(all.map((u) => [u.user_id, u]));
}

const withoutProfile = ({ profile_data: _p, ...rest }: User) => rest;

describe('every role may read users; deactivated or missing credentials may not', () => {
  it.each(ACTIVE_ROLES)('%s: the list, one user and themself', async (role) => {
    const list = await users(role);
    expect(list.status).toBe(200);
    expect((list.body.members as User[]).map((u) => u.user_id)).toEqual(ALL_ACCOUNTS);
    const one = await user(role, DEACTIVATED);
    expect(one.status).toBe(200);
    expect((one.body.user as User).user_id).toBe(DEACTIVATED);
    const own = await me(role);
    expect(own.status).toBe(200);
    expect(own.body.user_id).toBe(env.who[role]!.user_id);
  });

  it.each([
    ['GET', '/api/v1/users'],
    ['GET', `/api/v1/users/${OWNER}`],
    ['GET', '/api/v1/users/me'],
  ])('%s %s: deactivated credentials → 401, none → 401', async (method, path) => {
    const deactivated = await call(env.server, method, path, { as: deactivatedWho(env.server, env.realm) });
    expect([deactivated.status, deactivated.body]).toEqual([401, DEACTIVATED_401]);
    const anonymous = await call(env.server, method, path);
    expect([anonymous.status, anonymous.body]).toEqual([401, NOT_LOGGED_IN]);
  });
});

describe('GET /users', () => {
  it('lists bots and deactivated users but not the system bot, as is_active and is_bot tell', async () => {
    const members = (await users('member')).body.members as User[];
    expect(members.find((u) => u.user_id === DEACTIVATED)).toMatchObject({ is_active: false, is_bot: false });
    expect(members.find((u) => u.user_id === BOT)).toMatchObject({ is_active: true, is_bot: true, bot_type: 1, bot_owner_id: 16 });
    expect(members.some((u) => u.user_id === NOTIFICATION_BOT)).toBe(false);
  });

  it.each(['member', 'administrator', 'guest', 'owner'])(
    'shows %s exactly the register snapshot users (profile_data when asked for)',
    async (role) => {
      for (const clientGravatar of [true, false]) {
        const expected = await snapshotUsers(role, clientGravatar);
        const query = { client_gravatar: String(clientGravatar), include_custom_profile_fields: 'true' };
        const members = (await users(role, query)).body.members as User[];
        expect(members).toEqual([...expected.values()].sort((a, b) => a.user_id - b.user_id));
      }
    },
  );

  it('defaults: client_gravatar true, no profile_data', async () => {
    const expected = await snapshotUsers('member', true);
    const members = (await users('member')).body.members as User[];
    expect(members).toEqual([...expected.values()].sort((a, b) => a.user_id - b.user_id).map(withoutProfile));
    expect(members.every((u) => !('profile_data' in u))).toBe(true);
    // The administrator uses Gravatar and lets everyone see their email: the client computes the URL.
    expect(members.find((u) => u.user_id === ADMINISTRATOR)!.avatar_url).toBeNull();
  });

  it('client_gravatar false gives every avatar as a URL', async () => {
    const members = (await users('member', { client_gravatar: 'false' })).body.members as User[];
    expect(members.find((u) => u.user_id === ADMINISTRATOR)!.avatar_url).toMatch(
      /^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?/,
    );
    expect(members.every((u) => typeof u.avatar_url === 'string')).toBe(true);
  });

  it("delivery_email follows the owner's email_address_visibility (3: administrators only)", async () => {
    const ownerAs = async (role: string) => ((await users(role)).body.members as User[]).find((u) => u.user_id === OWNER)!.delivery_email;
    expect(await ownerAs('member')).toBeNull();
    expect(await ownerAs('moderator')).toBeNull();
    expect(await ownerAs('administrator')).toBe(env.who.owner!.email);
    expect(await ownerAs('owner')).toBe(env.who.owner!.email);
  });

  it.each([
    ['client_gravatar', 'yes', 'client_gravatar is not valid JSON'],
    ['client_gravatar', '1', 'client_gravatar is not a boolean'],
    ['include_custom_profile_fields', '"true"', 'include_custom_profile_fields is not a boolean'],
  ])('%s=%s → %s', async (name, value, msg) => {
    const res = await users('member', { [name]: value });
    expect([res.status, res.body]).toEqual([400, error(msg)]);
  });
});

describe('GET /users/{id}', () => {
  it.each([OWNER, ADMINISTRATOR, 14, 19, DEACTIVATED, BOT])(
    'user %i is the snapshot user (bots and deactivated users included)',
    async (id) => {
      const expected = await snapshotUsers('member', true);
      expect((await user('member', id, { include_custom_profile_fields: 'true' })).body).toEqual({
        result: 'success',
        msg: '',
        user: expected.get(id),
      });
      expect((await user('member', id)).body.user).toEqual(withoutProfile(expected.get(id)!));
    },
  );

  it.each([[9999], [NOTIFICATION_BOT], [0]])('user %i → No such user', async (id) => {
    const res = await user('member', id);
    expect([res.status, res.body]).toEqual([400, error('No such user')]);
  });
});

describe('GET /users/me', () => {
  it.each(ACTIVE_ROLES)(
    '%s: own user object at the top level (avatar as a URL, profile_data) and max_message_id as register gives it',
    async (role) => {
      const { snapshot } = await openQueue(env.server, env.who[role]!, {
        fetch_event_types: '["realm_user", "message"]',
        client_gravatar: 'false',
      });
      const self = (snapshot.realm_users as User[]).find((u) => u.user_id === env.who[role]!.user_id)!;
      const res = await me(role);
      expect(res.body).toEqual({ result: 'success', msg: '', ...self, max_message_id: snapshot.max_message_id });
      expect(snapshot.max_message_id).toBeGreaterThan(0);
    },
  );

  it('max_message_id follows a message the caller receives', async () => {
    const sent = await send(env.server, env.who.member!, {
      type: 'direct',
      to: JSON.stringify([env.who.guest!.user_id]),
      content: 'newest',
    });
    expect((await me('guest')).body.max_message_id).toBe(sent.body.id);
  });

  it('is -1 for a user who received nothing', async () => {
    const { realm, who } = await freshRealm(env.server);
    const created = await createUser(env.server, who.administrator!, {
      email: 'quiet@example.com',
      password: 'secret-enough',
      full_name: 'Quiet One',
    });
    const key = env.server.context.store.realm(realm)!.users[String(created.body.user_id)]!.api_key;
    const res = await call(env.server, 'GET', '/api/v1/users/me', { as: { email: 'quiet@example.com', api_key: key } });
    expect(res.body).toMatchObject({ result: 'success', user_id: created.body.user_id, max_message_id: -1, profile_data: {} });
  });
});

describe('the answers match the OpenAPI document', () => {
  it.each([
    ['get-users', '/api/v1/users', { include_custom_profile_fields: 'true' }, 200],
    ['get-users', '/api/v1/users', { client_gravatar: 'no' }, 400],
    ['get-user', `/api/v1/users/${BOT}`, {}, 200],
    ['get-user', '/api/v1/users/9999', {}, 400],
    ['get-own-user', '/api/v1/users/me', {}, 200],
  ] as const)('%s %s', async (operationId, path, query, status) => {
    const res = await call(env.server, 'GET', path, { as: env.who.member!, query });
    expect(res.status).toBe(status);
    const validate = schemaOf(operationId, status);
    expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);
  });
});

describe('ignored parameters (§1, from level 167)', () => {
  it.each([
    [166, undefined],
    [167, ['colour']],
  ])('level %i: %j', async (level, ignored) => {
    const realm = `read-level-${level}`;
    await env.server.control.createRealm({ realm_id: realm, feature_level: level });
    const who = credentials(env.server, realm);
    for (const path of ['/api/v1/users', '/api/v1/users/me', `/api/v1/users/${OWNER}`]) {
      const res = await call(env.server, 'GET', path, { as: who.member!, query: { colour: 'red' } });
      expect(res.body.result).toBe('success');
      expect(res.body.ignored_parameters_unsupported).toEqual(ignored);
    }
  });
});
