import { afterEach, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { linkifierPrograms } from '../../src/domain/markdown/linkifier-patterns.js';
import { call, callControl, credentials, startTestServer } from '../helpers/test-server.js';

/**
 * A mock left running all day. Deleting a realm frees what it held (state, queues, timers,
 * compiled patterns); live realms and queues per user are capped with a clear JSON error.
 */

let server: MockServer;
afterEach(async () => server?.close());

const control = (method: string, path: string, body?: Record<string, string>) => callControl(server, method, `/__mock${path}`, body);
const register = (who: { email: string; api_key: string }) =>
  call(server, 'POST', '/api/v1/register', { as: who, form: { event_types: '["message"]' } });

describe('live realms', () => {
  it('are capped: one more answers a JSON error naming the cap and the way out, and creates nothing', async () => {
    server = await startTestServer({ maxRealms: 3 });
    expect((await control('POST', '/realms')).status).toBe(201);
    expect((await control('POST', '/realms')).status).toBe(201);
    const refused = await control('POST', '/realms');
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: expect.stringMatching(/^Too many realms \(limit: 3\)\. Delete realms .*--max-realms/),
    });
    const realms = (await control('GET', '/realms')).body.realms as { realm_id: string }[];
    expect(realms.map((r) => r.realm_id).sort()).toEqual(['demo', 'realm-2', 'realm-3']);
    // A reset replaces a realm: it is not one more.
    expect((await control('POST', '/realms/realm-2/reset')).status).toBe(200);
    expect((await control('DELETE', '/realms/realm-2')).status).toBe(200);
    expect((await control('POST', '/realms')).status).toBe(201);
  });

  it('counts realms still being generated, so concurrent creations cannot pass the cap together', async () => {
    server = await startTestServer({ maxRealms: 3 });
    const replies = await Promise.all([1, 2, 3, 4].map(() => control('POST', '/realms')));
    expect(replies.map((r) => r.status).sort()).toEqual([201, 201, 400, 400]);
    const ids = replies.filter((r) => r.status === 201).map((r) => r.body.realm_id);
    expect(new Set(ids).size).toBe(2); // two different realms, neither overwritten by the other
    expect(server.context.store.realmIds()).toHaveLength(3);
  });

  it('deleted, free their queues, timers, snapshots and compiled linkifier patterns', async () => {
    server = await startTestServer();
    const timersBefore = server.context.clock.pendingTimers;
    const created = (await control('POST', '/realms', { realm_id: 'scratch' })).body as {
      credentials: { email: string; api_key: string; role: number; is_bot: boolean }[];
    };
    const admin = created.credentials.find((c) => c.role === 200 && !c.is_bot)!;
    const pattern = 'SCRATCH-(?P<id>[0-9]+)';
    const added = await call(server, 'POST', '/api/v1/realm/filters', {
      as: admin,
      form: { pattern, url_template: 'https://s.example/{id}' },
    });
    expect(added.status, added.text).toBe(200);
    const rendered = await call(server, 'POST', '/api/v1/messages/render', { as: admin, form: { content: 'SCRATCH-9' } });
    expect(rendered.body.rendered).toContain('https://s.example/9');
    expect(linkifierPrograms.holders(pattern)).toBe(1);
    const program = linkifierPrograms.program(pattern)!;
    for (let i = 0; i < 3; i++) expect((await register(admin)).status).toBe(200);
    expect((await control('POST', '/realms/scratch/snapshots', { name: 'before' })).status).toBe(200);
    expect(server.context.queues.size).toBe(3);
    expect(server.context.clock.pendingTimers).toBeGreaterThan(timersBefore);

    expect((await control('DELETE', '/realms/scratch')).status).toBe(200);
    expect(server.context.store.realm('scratch')).toBeUndefined();
    expect(server.context.queues.size).toBe(0);
    expect(server.context.clock.pendingTimers).toBe(timersBefore);
    expect(linkifierPrograms.holders(pattern)).toBe(0);
    expect(program.live).toBe(false);
    expect((await control('GET', '/realms/scratch/snapshots')).status).toBe(404);
    // Its credentials are gone with it.
    expect((await call(server, 'POST', '/api/v1/messages/render', { as: admin, form: { content: 'x' } })).status).toBe(401);
  });
});

describe('event queues per user', () => {
  it('are capped: register at the cap answers a clear JSON error; deleting a queue makes room', async () => {
    server = await startTestServer({ maxQueuesPerUser: 2 });
    const { member, member_2 } = credentials(server);
    const first = await register(member!);
    expect((await register(member!)).status).toBe(200);
    const refused = await register(member!);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      result: 'error',
      code: 'BAD_REQUEST',
      msg: expect.stringMatching(/^Too many event queues for this user \(limit: 2\)\. .*DELETE \/api\/v1\/events.*10 minutes/),
    });
    expect(server.context.queues.countOf('demo', member!.user_id)).toBe(2);
    // Another user is not affected.
    expect((await register(member_2!)).status).toBe(200);
    const deleted = await call(server, 'DELETE', '/api/v1/events', { as: member!, form: { queue_id: first.body.queue_id as string } });
    expect(deleted.status, deleted.text).toBe(200);
    expect((await register(member!)).status).toBe(200);
  });

  it('expired queues free their place (and their memory) on the realm clock', async () => {
    server = await startTestServer({ maxQueuesPerUser: 2 });
    const { member } = credentials(server);
    await register(member!);
    await register(member!);
    expect((await register(member!)).status).toBe(400);
    expect((await control('POST', '/realms/demo/clock/advance', { seconds: '600' })).status).toBe(200);
    expect(server.context.queues.size).toBe(0);
    expect((await register(member!)).status).toBe(200);
  });

  it('of a deactivated user end, and make room for nobody else', async () => {
    server = await startTestServer();
    const { owner, member } = credentials(server);
    await register(member!);
    await register(owner!);
    const gone = await call(server, 'DELETE', `/api/v1/users/${member!.user_id}`, { as: owner! });
    expect(gone.status, gone.text).toBe(200);
    expect(server.context.queues.countOf('demo', member!.user_id)).toBe(0);
    expect(server.context.queues.countOf('demo', owner!.user_id)).toBe(1);
  });
});
