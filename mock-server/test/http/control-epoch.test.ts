import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { DEMO_REALM_EPOCH, generateDemoRealm } from '../../src/fixtures/demo-realm.js';
import type { RealmState } from '../../src/store/state.js';
import { spawnServer, stop } from '../helpers/spawn-server.js';
import { callControl, startTestServer } from '../helpers/test-server.js';
import { nowOf } from '../helpers/harness.js';

/**
 * Where a realm's time starts, on a frozen clock so every figure is exact: the
 * current server time by default, or a given epoch (`--epoch` / config, or `epoch` of POST
 * /__mock/realms) that a reset returns to; a realm export keeps its recorded time unless given one.
 */
const open: MockServer[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const server of open) await server.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});
const serve = async (epoch: number | undefined, fixturesDir?: string) => {
  const server = await startTestServer({ epoch, ...(fixturesDir ? { fixturesDir } : {}) });
  open.push(server);
  return server;
};
const control = (server: MockServer, method: string, path: string, body?: Record<string, string>) =>
  callControl(server, method, `/__mock${path}`, body);
const tablesOf = (server: MockServer, realmId: string) => server.control.exportRealm(realmId).realm;
const LATER = 1_900_000_000;

/** What two realms made from the same seed and epoch share: all but the realm's identity, clock and API keys. */
function content(tables: RealmState) {
  const { id: _id, fixture: _fixture, clock_offset: _offset, epoch: _epoch, ...realm } = tables.realm.realm;
  const users = Object.fromEntries(Object.entries(tables.users).map(([k, { api_key: _key, ...user }]) => [k, user]));
  return { ...tables, realm: realm, users };
}

describe('a realm’s start', () => {
  it('is the server’s current time without an epoch, and a reset starts at the then-current time', async () => {
    const server = await serve(undefined);
    const serverNow = server.control.clock().server_now;
    expect(nowOf(server, 'demo')).toBe(serverNow);
    expect(tablesOf(server, 'demo').realm.realm.epoch).toBeUndefined();
    expect((await control(server, 'POST', '/clock/advance', { seconds: '3600' })).status).toBe(200);
    const reset = await control(server, 'POST', '/realms/demo/reset');
    expect(reset.body.now).toBe(serverNow + 3600);
    expect(content(tablesOf(server, 'demo'))).toEqual(
      content(generateDemoRealm({ realmId: 'demo', seed: 42, featureLevel: 412, epoch: serverNow + 3600 })),
    );
  });

  it('is the configured epoch, and a realm of its own can name another; resets go back to it', async () => {
    const server = await serve(DEMO_REALM_EPOCH);
    expect(nowOf(server, 'demo')).toBe(DEMO_REALM_EPOCH);
    const made = await control(server, 'POST', '/realms', { realm_id: 'later', epoch: String(LATER) });
    expect(made.status).toBe(201);
    expect(made.body.now).toBe(LATER);
    expect(content(tablesOf(server, 'later'))).toEqual(
      content(generateDemoRealm({ realmId: 'later', seed: 42, featureLevel: 412, epoch: LATER })),
    );
    await control(server, 'POST', '/realms/later/clock/advance', { seconds: '86400' });
    expect((await control(server, 'POST', '/realms/later/reset')).body.now).toBe(LATER);
    expect(nowOf(server, 'demo')).toBe(DEMO_REALM_EPOCH);
  });

  it('refuses an epoch that is not a UNIX time, with a JSON error, and creates nothing', async () => {
    const server = await serve(DEMO_REALM_EPOCH);
    for (const epoch of ['-1', 'soon', '1.5', '253402300800']) {
      const res = await control(server, 'POST', '/realms', { realm_id: 'bad', epoch });
      expect(res.status, epoch).toBe(400);
      expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    }
    expect(server.control.listRealms().map((r) => r.realm_id)).toEqual(['demo']);
  });

  it('of a realm export is its recorded time, or with an epoch every stored time moves with it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'teamchat-epoch-'));
    dirs.push(dir);
    const server = await serve(undefined, dir);
    expect((await control(server, 'POST', '/realms', { realm_id: 'src', epoch: String(DEMO_REALM_EPOCH) })).status).toBe(201);
    const { result: _r, msg: _m, ...exported } = (await control(server, 'GET', '/realms/src/export')).body;
    const file = join(dir, 'realm.json');
    await writeFile(file, JSON.stringify(exported));

    const kept = await control(server, 'POST', '/realms', { realm_id: 'kept', fixture: file });
    expect(kept.body.now).toBe(DEMO_REALM_EPOCH);
    expect(content(tablesOf(server, 'kept'))).toEqual(content(tablesOf(server, 'src')));

    const moved = await control(server, 'POST', '/realms', { realm_id: 'moved', fixture: file, epoch: String(LATER) });
    expect(moved.body.now).toBe(LATER);
    // As if generated at the new epoch (emails keep the exported realm's ID: an export is copied, not regenerated).
    expect(content(tablesOf(server, 'moved'))).toEqual(
      content(generateDemoRealm({ realmId: 'src', seed: 42, featureLevel: 412, epoch: LATER })),
    );
    await control(server, 'POST', '/realms/moved/clock/advance', { seconds: '600' });
    expect((await control(server, 'POST', '/realms/moved/reset')).body.now).toBe(LATER);
  });
});

describe('teamchat serve --epoch', () => {
  it('starts the demo realm there (with --clock frozen it stays there), and refuses a time that is not one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'teamchat-epoch-cli-'));
    dirs.push(dir);
    const served = await spawnServer(['--in-memory', '--clock', 'frozen', '--epoch', String(DEMO_REALM_EPOCH), '--zuliprc-dir', dir]);
    try {
      const clock = (await (await request(`${served.url}/__mock/realms/demo/clock`)).body.json()) as { now: number };
      expect(clock.now).toBe(DEMO_REALM_EPOCH);
    } finally {
      await stop(served);
    }
    await expect(spawnServer(['--in-memory', '--epoch', '-1', '--zuliprc-dir', dir])).rejects.toThrow(
      /exited 2: teamchat serve: epoch must be a UNIX time/,
    );
  });
});
