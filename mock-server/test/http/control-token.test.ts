import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { Target } from '../../../conformance/src/target.js';
import type { MockServer } from '../../src/app.js';
import { isLoopbackAddress } from '../../../cli/hosts.js';
import { controlExposure } from '../../src/config/config.js';
import { call, callControl, startTestServer } from '../helpers/test-server.js';

/**
 * The control API hands out every realm's API keys and can delete realms. On loopback it is
 * open (or behind a token if one is given); on any other address the server needs a token or
 * --no-control, and refuses to start otherwise.
 */

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('where the control API may be open', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.0.2.7', false],
    ['example.test', false],
  ])('%s is loopback: %s', (host, loopback) => {
    expect(isLoopbackAddress(host)).toBe(loopback);
  });

  it('a server beyond loopback needs a token or --no-control', () => {
    expect(controlExposure({ host: '0.0.0.0', control: true })).toMatch(/--control-token .*TEAMCHAT_CONTROL_TOKEN.*--no-control/);
    expect(controlExposure({ host: '0.0.0.0', control: true, controlToken: 's3cret' })).toBeNull();
    expect(controlExposure({ host: '0.0.0.0', control: false })).toBeNull();
    expect(controlExposure({ host: '127.0.0.1', control: true })).toBeNull();
  });

  it('createMockServer refuses such a configuration before it listens', async () => {
    await expect(startTestServer({ host: '0.0.0.0' })).rejects.toThrow(/control API would be open/);
  });

  it('teamchat serve --host 0.0.0.0 without a token exits 2 with one line and never listens', () => {
    const run = spawnSync(process.execPath, ['bin/teamchat.js', 'serve', '--host', '0.0.0.0', '--port', '0', '--in-memory'], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, TEAMCHAT_CONTROL_TOKEN: '' },
    });
    expect(run.status).toBe(2);
    expect(run.stdout).not.toContain('listening');
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^teamchat serve: the control API would be open to every machine that reaches 0\.0\.0\.0: pass --control-token/,
      ),
    ]);
  });
});

describe('a control API behind a token', () => {
  const TOKEN = 'correct-horse-battery-staple';

  it('answers 401 JSON without the token or with another one, and serves with it', async () => {
    server = await startTestServer({ controlToken: TOKEN });
    for (const headers of [
      {} as Record<string, string>,
      { authorization: 'Bearer wrong' },
      { authorization: `Basic ${TOKEN}` },
      { authorization: `Bearer ${TOKEN}x` },
    ]) {
      const refused = await call(server, 'GET', '/__mock/realms', { headers });
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ result: 'error', code: 'UNAUTHORIZED', msg: expect.stringContaining('Authorization: Bearer') });
    }
    // Refused before anything is read or changed.
    const deleted = await callControl(server, 'POST', '/__mock/realms', { realm_id: 'sneaky' });
    expect(deleted.status).toBe(401);
    expect(server.context.store.realm('sneaky')).toBeUndefined();
    const ok = await call(server, 'GET', '/__mock/realms', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect((ok.body.realms as unknown[]).length).toBe(1);
    // The API itself is unaffected.
    expect((await call(server, 'GET', '/api/v1/server_settings')).status).toBe(200);
  });

  it('the conformance suite uses the token, and says what is missing without it', async () => {
    server = await startTestServer({ controlToken: TOKEN });
    await expect(Target.connect(server.url)).rejects.toThrow(/needs its token: pass --control-token/);
    await expect(Target.connect(server.url, undefined, 'nope')).rejects.toThrow(/refused the control token/);
    const target = await Target.connect(server.url, undefined, TOKEN);
    expect(target.control).toBe(true);
    const realm = await target.createRealm();
    expect(server.context.store.realm(realm.realmId)).toBeDefined();
    await target.deleteRealm(realm.realmId);
    expect(server.context.store.realm(realm.realmId)).toBeUndefined();
  });
});
