import { describe, expect, it } from 'vitest';
// The stock JavaScript client, unmodified (npm zulip-js): configured with a password, it fetches its key.
import zulip from 'zulip-js';
import { DEMO_PASSWORD } from '../../src/fixtures/people.js';
import { loadResponseSchemas } from '../helpers/response-schemas.js';
import { call, credentials } from '../helpers/test-server.js';
import { success, tables, useTestRealm } from '../helpers/harness.js';
import { DEACTIVATED_401, INCORRECT, deactivatedWho, fetchKey, missing } from './support.js';

/**
 * POST /fetch_api_key (reference server; anonymous): a user name (the delivery email) and password for
 * the API key. Anonymous requests address the realm named by the Host header's first label, else the
 * default realm (demo here).
 */
const env = useTestRealm({ realm: 'demo' });
const HUMANS = ['owner', 'administrator', 'moderator', 'member', 'guest'] as const;
const DEACTIVATED_EMAIL = () => deactivatedWho(env.server, env.realm).email;

describe('who gets a key', () => {
  it.each(HUMANS)('%s, with the demo password', async (role) => {
    const who = env.who[role]!;
    const res = await fetchKey(env.server, { username: who.email, password: DEMO_PASSWORD });
    expect([res.status, res.body]).toEqual([200, success({ api_key: who.api_key, email: who.email, user_id: who.user_id })]);
  });

  it('the user name is compared case-insensitively', async () => {
    const who = env.who.member!;
    const res = await fetchKey(env.server, { username: who.email.toUpperCase(), password: DEMO_PASSWORD });
    expect(res.body).toEqual(success({ api_key: who.api_key, email: who.email, user_id: who.user_id }));
  });

  it('the key works at once for Basic authentication', async () => {
    const who = env.who.guest!;
    const { api_key } = (await fetchKey(env.server, { username: who.email, password: DEMO_PASSWORD })).body as { api_key: string };
    const me = await call(env.server, 'GET', '/api/v1/users/me', { as: { email: who.email, api_key } });
    expect(me.body).toMatchObject({ result: 'success', user_id: who.user_id });
  });
});

describe('refusals: 401 AUTHENTICATION_FAILED or USER_DEACTIVATED with a WWW-Authenticate challenge', () => {
  it.each([
    ['a wrong password', () => ({ username: env.who.member!.email, password: `${DEMO_PASSWORD}x` }), INCORRECT],
    ['an unknown user name', () => ({ username: 'nobody@example.com', password: DEMO_PASSWORD }), INCORRECT],
    ['an empty password', () => ({ username: env.who.member!.email, password: '' }), INCORRECT],
    ['a bot (bots have keys, not passwords)', () => ({ username: env.who.bot!.email, password: DEMO_PASSWORD }), INCORRECT],
    ['the system bot', () => ({ username: `notification-bot@${env.who.member!.email.split('@')[1]}`, password: DEMO_PASSWORD }), INCORRECT],
    ['a deactivated account with its password', () => ({ username: DEACTIVATED_EMAIL(), password: DEMO_PASSWORD }), DEACTIVATED_401],
    // As on the reference server, the account's state is told before the password is checked.
    ['a deactivated account with a wrong password', () => ({ username: DEACTIVATED_EMAIL(), password: 'wrong' }), DEACTIVATED_401],
  ])('%s', async (_name, form, body) => {
    const res = await fetchKey(env.server, form());
    expect([res.status, res.body]).toEqual([401, body]);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
  });

  it('an account without a password never matches', async () => {
    const member = env.who.member_2!;
    const row = tables(env.server, env.realm).users[String(member.user_id)]!;
    await env.server.context.store.transact(env.realm, (tx) => tx.put('users', member.user_id, { ...row, password_hash: null }));
    try {
      const res = await fetchKey(env.server, { username: member.email, password: DEMO_PASSWORD });
      expect([res.status, res.body]).toEqual([401, INCORRECT]);
    } finally {
      await env.server.context.store.transact(env.realm, (tx) => tx.put('users', member.user_id, row));
    }
  });

  it.each([
    [{}, missing('username')],
    [{ username: 'x@example.com' }, missing('password')],
    [{ password: DEMO_PASSWORD }, missing('username')],
  ])('%j → missing parameter (400)', async (form, body) => {
    const res = await fetchKey(env.server, form);
    expect([res.status, res.body]).toEqual([400, body]);
  });

  it('credentials sent anyway are still authenticated: deactivated ones → 401', async () => {
    const res = await call(env.server, 'POST', '/api/v1/fetch_api_key', {
      as: deactivatedWho(env.server, env.realm),
      form: { username: env.who.member!.email, password: DEMO_PASSWORD },
    });
    // The header's deactivated account, not the form's: authentication answers (reference rest-error-handling).
    expect([res.status, res.body]).toEqual([401, { result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' }]);
    const bad = await call(env.server, 'POST', '/api/v1/fetch_api_key', {
      as: { email: env.who.member!.email, api_key: 'x'.repeat(32) },
      form: { username: env.who.member!.email, password: DEMO_PASSWORD },
    });
    expect([bad.status, bad.body]).toEqual([401, { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' }]);
  });
});

describe('the realm of an anonymous request', () => {
  it('is the one the Host header names; user names of other realms do not match there', async () => {
    const realm = 'keys-other';
    await env.server.control.createRealm({ realm_id: realm });
    const there = credentials(env.server, realm).member!;
    const host = { host: `${realm}.localhost` };
    const res = await fetchKey(env.server, { username: there.email, password: DEMO_PASSWORD }, host);
    expect(res.body).toEqual(success({ api_key: there.api_key, email: there.email, user_id: there.user_id }));
    expect(there.api_key).not.toBe(env.who.member!.api_key);
    expect((await fetchKey(env.server, { username: env.who.member!.email, password: DEMO_PASSWORD }, host)).body).toEqual(INCORRECT);
    expect((await fetchKey(env.server, { username: there.email, password: DEMO_PASSWORD })).body).toEqual(INCORRECT);
  });

  it.each([
    ['keys-166', 166, undefined],
    ['keys-167', 167, ['realm']],
  ])('%s (level %i): ignored_parameters_unsupported %j', async (realm, level, ignored) => {
    await env.server.control.createRealm({ realm_id: realm, feature_level: level });
    const who = credentials(env.server, realm).owner!;
    const res = await fetchKey(env.server, { username: who.email, password: DEMO_PASSWORD, realm: 'x' }, { host: `${realm}.example.test` });
    expect(res.body).toEqual(
      success({
        api_key: who.api_key,
        email: who.email,
        user_id: who.user_id,
        ...(ignored ? { ignored_parameters_unsupported: ignored } : {}),
      }),
    );
  });
});

describe('the OpenAPI document and the stock JavaScript client', () => {
  it('answers match the document (200, 400, 401)', async () => {
    const schemaOf = await loadResponseSchemas();
    const cases: [Record<string, string>, number][] = [
      [{ username: env.who.member!.email, password: DEMO_PASSWORD }, 200],
      [{}, 400],
      [{ username: env.who.member!.email, password: 'nope' }, 401],
    ];
    for (const [form, status] of cases) {
      const res = await fetchKey(env.server, form);
      expect(res.status).toBe(status);
      const validate = schemaOf('fetch-api-key', status);
      expect(validate(res.body), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  interface Client {
    config: { apiKey: string };
    users: {
      retrieve(p?: Record<string, unknown>): Promise<Record<string, unknown>>;
      create(p: Record<string, unknown>): Promise<Record<string, unknown>>;
      me: { getProfile(): Promise<Record<string, unknown>> };
    };
  }
  const connect = zulip as unknown as (config: Record<string, unknown>) => Promise<Client>;

  it('zulip-js configured with a user name and password fetches its key and calls the API', async () => {
    const member = env.who.member!;
    const client = await connect({ username: member.email, password: DEMO_PASSWORD, realm: env.server.url });
    expect(client.config.apiKey).toBe(member.api_key);
    expect(await client.users.me.getProfile()).toMatchObject({ result: 'success', user_id: member.user_id, email: member.email });
  });

  it('an administrator creates a user with zulip-js, who then logs in with the password', async () => {
    const admin = await connect({ username: env.who.administrator!.email, password: DEMO_PASSWORD, realm: env.server.url });
    const created = await admin.users.create({ email: 'js.newcomer@example.com', password: 'from-js-1', full_name: 'Js Newcomer' });
    expect(created).toMatchObject({ result: 'success' });
    const newcomer = await connect({ username: 'js.newcomer@example.com', password: 'from-js-1', realm: env.server.url });
    expect(await newcomer.users.me.getProfile()).toMatchObject({
      result: 'success',
      user_id: created.user_id,
      full_name: 'Js Newcomer',
      max_message_id: -1,
    });
    const members = (await newcomer.users.retrieve()).members as { user_id: number }[];
    expect(members.map((u) => u.user_id)).toContain(created.user_id);
  });
});
