import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { call, callControl, credentials, startTestServer, type Who } from '../helpers/test-server.js';

let server: MockServer;
let fixturesDir: string;
beforeAll(async () => {
  fixturesDir = await mkdtemp(join(tmpdir(), 'teamchat-export-'));
  server = await startTestServer({ fixturesDir });
});
afterAll(async () => {
  await server.close();
  await rm(fixturesDir, { recursive: true, force: true });
});

const control = (method: string, path: string, body?: Record<string, unknown>) => callControl(server, method, `/__mock${path}`, body);
const renderAs = (who: Who, extra: Record<string, string> = {}) =>
  call(server, 'POST', '/api/v1/messages/render', { as: who, form: { content: 'x', ...extra } });

describe('control API: isolated realms', () => {
  it('creates a realm from the demo fixture whose credentials work and differ from the default realm’s', async () => {
    const res = await control('POST', '/realms', { seed: '42', feature_level: '300' });
    expect(res.status).toBe(201);
    const realm = res.body as {
      realm_id: string;
      feature_level: number;
      credentials: (Who & { role: number })[];
      world: { credentials: Record<string, Who> };
    };
    expect(realm.feature_level).toBe(300);
    const member = realm.world.credentials.member!;
    expect(member.api_key).not.toBe(credentials(server).member!.api_key);
    expect((await renderAs(member)).status).toBe(200);
    expect(realm.credentials.length).toBeGreaterThan(5);
  });

  it('makes ignored_parameters_unsupported depend on the realm’s feature level (§1: from 167)', async () => {
    const old = (await control('POST', '/realms', { feature_level: '166' })).body as { world: { credentials: Record<string, Who> } };
    const at = (await control('POST', '/realms', { feature_level: '167' })).body as { world: { credentials: Record<string, Who> } };
    expect((await renderAs(old.world.credentials.member!, { extra: '1' })).body.ignored_parameters_unsupported).toBeUndefined();
    expect((await renderAs(at.world.credentials.member!, { extra: '1' })).body.ignored_parameters_unsupported).toEqual(['extra']);
  });

  it('sets a realm’s feature level, visible through server_settings', async () => {
    const { realm_id, world } = (await control('POST', '/realms')).body as {
      realm_id: string;
      world: { credentials: Record<string, Who> };
    };
    expect((await callControl(server, 'PUT', `/__mock/realms/${realm_id}/feature-level`, { feature_level: '208' })).status).toBe(200);
    const settings = await call(server, 'GET', '/api/v1/server_settings', { as: world.credentials.member! });
    expect(settings.body.service_feature_level).toBe(208);
  });

  it('refuses bad realm requests with JSON errors', async () => {
    expect((await control('POST', '/realms', { feature_level: '99999' })).body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect((await control('POST', '/realms', { realm_id: 'Bad Id' })).status).toBe(400);
    expect((await control('POST', '/realms', { realm_id: 'demo' })).body).toMatchObject({ msg: "Realm 'demo' already exists." });
    expect((await control('POST', '/realms', { fixture: '/no/such/file.json' })).status).toBe(400);
    expect((await control('GET', '/realms/nope')).status).toBe(404);
    expect((await control('PUT', '/realms/demo/feature-level')).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING' });
  });

  it('deletes a realm, after which its keys no longer authenticate', async () => {
    const { realm_id, world } = (await control('POST', '/realms')).body as {
      realm_id: string;
      world: { credentials: Record<string, Who> };
    };
    expect((await control('DELETE', `/realms/${realm_id}`)).status).toBe(200);
    expect((await renderAs(world.credentials.member!)).body).toMatchObject({ code: 'INVALID_API_KEY', msg: 'Invalid API key' });
    expect((await control('DELETE', '/realms/demo')).status).toBe(400);
  });

  it('exports a realm and creates another one from the export', async () => {
    const exported = await control('GET', '/realms/demo/export');
    const { result: _r, msg: _m, ...body } = exported.body;
    await writeFile(join(fixturesDir, 'realm.json'), JSON.stringify(body));
    // A name inside the fixtures directory (an absolute path inside it works too: realm-size.test.ts).
    const copy = (await control('POST', '/realms', { fixture: 'realm.json' })).body as {
      realm_id: string;
      world: { credentials: Record<string, Who> };
      users: number;
    };
    expect(copy.users).toBe(server.control.summary('demo').users);
    expect(copy.world.credentials.member!.api_key).not.toBe(credentials(server).member!.api_key);
    expect((await renderAs(copy.world.credentials.member!)).status).toBe(200);
  });
});

describe('control API: the clock', () => {
  it('advances one realm’s clock without moving the others', async () => {
    const a = ((await control('POST', '/realms')).body as { realm_id: string }).realm_id;
    const before = server.control.clock('demo') as { now: number };
    const aBefore = (await control('GET', `/realms/${a}/clock`)).body.now as number;
    const advanced = await control('POST', `/realms/${a}/clock/advance`, { seconds: '600' });
    expect(advanced.body.now).toBe(aBefore + 600);
    expect((server.control.clock('demo') as { now: number }).now).toBe(before.now);
  });

  it('sets a realm’s time and advances the server clock for every realm', async () => {
    const set = await callControl(server, 'PUT', '/__mock/realms/demo/clock', { now: '1800000000' });
    expect(set.body.now).toBe(1_800_000_000);
    const server0 = (await control('GET', '/clock')).body.server_now as number;
    expect((await control('POST', '/clock/advance', { seconds: '60' })).body.server_now).toBe(server0 + 60);
    expect((server.control.clock('demo') as { now: number }).now).toBe(1_800_000_060);
    expect((await control('POST', '/clock/advance', { seconds: '-5' })).status).toBe(400);
  });
});

describe('control API: reset and snapshots', () => {
  it('restores a named snapshot and resets to the fixture', async () => {
    const id = ((await control('POST', '/realms')).body as { realm_id: string }).realm_id;
    const original = JSON.stringify(server.context.store.realm(id));
    expect((await control('POST', `/realms/${id}/snapshots`, { name: 'start' })).status).toBe(200);
    await control('PUT', `/realms/${id}/feature-level`, { feature_level: '200' });
    expect(server.control.summary(id).feature_level).toBe(200);
    await control('POST', `/realms/${id}/snapshots/start/restore`);
    expect(JSON.stringify(server.context.store.realm(id))).toBe(original);
    expect((await control('GET', `/realms/${id}/snapshots`)).body.snapshots).toEqual(['start']);
    expect((await control('POST', `/realms/${id}/snapshots/nope/restore`)).status).toBe(404);
    await control('PUT', `/realms/${id}/feature-level`, { feature_level: '200' });
    const reset = await control('POST', `/realms/${id}/reset`, { feature_level: '412' });
    expect(reset.body.feature_level).toBe(412);
    expect(Object.keys(server.context.store.realm(id)!.users)).toEqual(Object.keys(JSON.parse(original).users));
  });
});

describe('switching the control API off', () => {
  it('leaves /__mock/ unanswered (JSON 404)', async () => {
    const quiet = await startTestServer({ control: false });
    try {
      const res = await call(quiet, 'GET', '/__mock/realms');
      expect(res.status).toBe(404);
      expect(res.body.result).toBe('error');
    } finally {
      await quiet.close();
    }
  });
});

describe('control API: refusals', () => {
  it('answers 404, not 500, for an unknown realm on every realm route', async () => {
    for (const [method, path, form] of [
      ['PUT', '/realms/nope/feature-level', { feature_level: '400' }],
      ['PUT', '/realms/nope/clock', { now: '5' }],
      ['POST', '/realms/nope/clock/advance', { seconds: '5' }],
      ['POST', '/realms/nope/events', { event: { type: 'x' } }],
    ] as const) {
      const res = await callControl(server, method, `/__mock${path}`, form);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    }
  });

  it('refuses clock values that no date can show', async () => {
    expect((await control('POST', '/realms/demo/clock/advance', { seconds: '1e306' })).status).toBe(400);
    expect((await callControl(server, 'PUT', '/__mock/realms/demo/clock', { now: '1e20' })).status).toBe(400);
    expect((await control('POST', '/clock/advance', { seconds: '1e306' })).status).toBe(400);
    const res = await call(server, 'POST', '/api/v1/messages/render', { as: credentials(server).member!, form: { content: 'x' } });
    expect(Number.isNaN(Date.parse(String(res.headers.date)))).toBe(false);
  });
});
