import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { ControlClient, ControlError, type RealmDetails } from '../../src/control/client.js';
import { call, startTestServer, type Who } from '../helpers/test-server.js';

/**
 * The HTTP control client (`teamchat-kit/control`) against a real server on loopback: every method
 * once, the envelope's errors as ControlError, and the control token.
 */

let server: MockServer;
let client: ControlClient;
beforeAll(async () => {
  server = await startTestServer();
  client = new ControlClient(`${server.url}/`); // a trailing slash is dropped
});
afterAll(() => server.close());

/** The error a call rejects with (the test fails if it resolves). */
async function failure(promise: Promise<unknown>): Promise<ControlError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ControlError);
  return error as ControlError;
}

const memberOf = (details: RealmDetails): Who => details.world.credentials.member!;

describe('ControlClient on an open control API', () => {
  it('creates, lists, describes, resets and deletes a realm', async () => {
    expect(client.url).toBe(server.url);
    const created = await client.createRealm({ realm_id: 'client-a', feature_level: 300, seed: 7 });
    expect(created).toMatchObject({ realm_id: 'client-a', feature_level: 300, seed: 7, fixture: 'demo' });
    expect(created).not.toHaveProperty('result');
    // The credentials it hands out work on the API, at the realm's level.
    const settings = await call(server, 'GET', '/api/v1/server_settings', { as: memberOf(created) });
    expect(settings.body.service_feature_level).toBe(300);

    expect((await client.listRealms()).map((r) => r.realm_id)).toEqual(expect.arrayContaining(['demo', 'client-a']));
    expect(await client.describe('client-a')).toEqual(created);
    const credentials = await client.credentials('client-a');
    expect(credentials.map((c) => c.api_key)).toContain(memberOf(created).api_key);
    expect(await client.world('client-a')).toEqual(created.world);
    const status = await client.status();
    expect(status.realms.map((r) => r.realm_id)).toContain('client-a');
    expect(status.clock.mode).toBe('frozen');
    // The name the conformance suite requires before it treats a target as the mock.
    expect(status.service).toMatch(/^teamchat-kit /);

    expect((await client.setFeatureLevel('client-a', 250)).feature_level).toBe(250);
    expect((await client.resetRealm('client-a')).feature_level).toBe(250); // kept
    expect((await client.resetRealm('client-a', { feature_level: 200 })).feature_level).toBe(200);

    const exported = await client.exportRealm('client-a');
    expect(exported.format).toBe('teamchat-kit/realm@1');
    expect(exported.realm.realm.realm.id).toBe('client-a');

    await client.deleteRealm('client-a');
    const gone = await failure(client.describe('client-a'));
    expect(gone).toMatchObject({ status: 404, code: 'NOT_FOUND', msg: "No realm 'client-a'.", method: 'GET', path: '/realms/client-a' });
    expect(gone.message).toBe("GET /realms/client-a: 404 NOT_FOUND: No realm 'client-a'.");
    expect((await call(server, 'GET', '/api/v1/server_settings', { as: memberOf(created) })).status).not.toBe(200);
  });

  it('reads, sets and advances a realm’s clock and the server’s', async () => {
    const { realm_id } = await client.createRealm();
    const server0 = await client.clock();
    expect(server0).toEqual({ mode: 'frozen', server_now: expect.any(Number) });
    const before = await client.clock(realm_id);
    expect(before).toMatchObject({ realm_id, mode: 'frozen' });
    expect((await client.advanceRealm(realm_id, 600)).now).toBe(before.now + 600);
    expect(await client.setRealmTime(realm_id, 1_800_000_000)).toMatchObject({ realm_id, now: 1_800_000_000 });
    const advanced = await client.advanceServer(60);
    expect(advanced.server_now).toBe(server0.server_now + 60);
    expect((await client.clock(realm_id)).now).toBe(1_800_000_060);
  });

  it('saves, lists, restores and deletes snapshots (names of any characters)', async () => {
    const { realm_id } = await client.createRealm({ feature_level: 300 });
    const name = 'before/after #1';
    expect(await client.saveSnapshot(realm_id, name)).toEqual({ name, realm_id });
    expect(await client.listSnapshots(realm_id)).toEqual([name]);
    await client.setFeatureLevel(realm_id, 210);
    expect((await client.restoreSnapshot(realm_id, name)).feature_level).toBe(300);
    await client.deleteSnapshot(realm_id, name);
    expect(await client.listSnapshots(realm_id)).toEqual([]);
    expect(await failure(client.restoreSnapshot(realm_id, name))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('injects an event into a user’s queue', async () => {
    const realm = await client.createRealm();
    const member = memberOf(realm);
    const registered = await call(server, 'POST', '/api/v1/register', { as: member, form: { event_types: '["custom"]' } });
    const queueId = registered.body.queue_id as string;
    const userId = realm.credentials.find((c) => c.api_key === member.api_key)!.user_id;
    expect(await client.injectEvent(realm.realm_id, { type: 'custom', n: 1 }, [userId])).toEqual({ user_ids: [userId] });
    const [queue] = await client.queues(realm.realm_id);
    expect(queue).toMatchObject({ queue_id: queueId, user_id: userId, pending: 1, events: [{ type: 'custom', n: 1, id: 0 }] });
    const events = await call(server, 'GET', '/api/v1/events', {
      as: member,
      query: { queue_id: queueId, last_event_id: '-1', dont_block: 'true' },
    });
    expect(events.body.events).toEqual([expect.objectContaining({ type: 'custom', n: 1 })]);
  });

  it('throws the envelope’s code and msg on a bad request', async () => {
    const error = await failure(client.createRealm({ feature_level: 99_999 }));
    expect(error).toMatchObject({ status: 400, code: 'BAD_REQUEST', name: 'ControlError' });
    expect(error.msg).toMatch(/^feature_level must be an integer from 1 to \d+\.$/);
    expect(error).toBeInstanceOf(Error);
    expect(await failure(client.injectEvent('demo', { type: 'x' }, [987_654]))).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
  });
});

describe('ControlClient and the control token', () => {
  let guarded: MockServer;
  beforeAll(async () => {
    guarded = await startTestServer({ controlToken: 'token-3f9c1a' });
  });
  afterAll(() => guarded.close());

  it('without the token or with a wrong one: 401 UNAUTHORIZED, and nothing is changed', async () => {
    for (const token of [undefined, 'wrong']) {
      const error = await failure(new ControlClient(guarded.url, { token }).createRealm({ realm_id: 'nope' }));
      expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
      expect(error.msg).toContain('control token');
    }
    expect(guarded.control.listRealms().map((r) => r.realm_id)).not.toContain('nope');
  });

  it('with the token: every call is let through, and the token is in no error', async () => {
    const authorised = new ControlClient(guarded.url, { token: 'token-3f9c1a' });
    const { realm_id } = await authorised.createRealm({ realm_id: 'shared-job-1' });
    expect((await authorised.advanceRealm(realm_id, 60)).realm_id).toBe(realm_id);
    const error = await failure(authorised.describe('missing'));
    expect(error.code).toBe('NOT_FOUND');
    expect(`${error.message} ${error.msg}`).not.toContain('token-3f9c1a');
  });
});

describe('ControlClient against something that is not the control API', () => {
  let other: Server;
  let otherUrl: string;
  beforeAll(async () => {
    // A proxy's error page in front of the mock: HTML, not the envelope.
    other = createServer((_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'));
    await new Promise<void>((done) => other.listen(0, '127.0.0.1', done));
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => other.close(() => done())));

  it('an answer that is not the JSON envelope: UNEXPECTED_ANSWER with the status and an excerpt', async () => {
    const error = await failure(new ControlClient(otherUrl).listRealms());
    expect(error).toMatchObject({ status: 502, code: 'UNEXPECTED_ANSWER' });
    expect(error.msg).toContain('<h1>Bad gateway</h1>');
  });

  it('a mock started with --no-control: the JSON 404 of an unknown path', async () => {
    const closed = await startTestServer({ control: false });
    try {
      expect(await failure(new ControlClient(closed.url).status())).toMatchObject({ status: 404, code: 'BAD_REQUEST', msg: 'Not Found' });
    } finally {
      await closed.close();
    }
  });
});
