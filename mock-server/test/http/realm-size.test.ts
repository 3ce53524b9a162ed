import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import { main } from '../../src/cli.js';
import { call, callControl, startTestServer } from '../helpers/test-server.js';

/** Realm size on demand through the control API, createMockServer's options and the command line. */
describe('realm size on demand', () => {
  let server: MockServer;
  let fixturesDir: string;
  beforeAll(async () => {
    fixturesDir = await mkdtemp(join(tmpdir(), 'realm-size-'));
    server = await startTestServer({ size: { messages: 150, users: 15 }, fixturesDir });
  });
  afterAll(async () => {
    await server.close();
    await rm(fixturesDir, { recursive: true, force: true });
  });

  const size = (realmId: string) => server.context.store.realm(realmId)!;
  const counts = (realmId: string) => ({
    messages: Object.keys(size(realmId).messages).length,
    users: Object.values(size(realmId).users).filter((u) => !u.is_system_bot).length,
    channels: Object.keys(size(realmId).channels).length,
  });

  it('createMockServer sizes the default realm, other fields keeping the demo size', () => {
    expect(counts('demo')).toEqual({ messages: 150, users: 15, channels: 9 });
  });

  it('POST /__mock/realms makes a realm of the size asked for; the world records it; a reset keeps it', async () => {
    const made = await callControl(server, 'POST', '/__mock/realms', { realm_id: 'big', messages: '200', users: '20', channels: '12' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ result: 'success', realm_id: 'big', users: 20 });
    expect((made.body.world as { realm: { size: unknown } }).realm.size).toEqual({ messages: 200, users: 20, channels: 12 });
    expect(counts('big')).toEqual({ messages: 200, users: 20, channels: 12 });
    const before = JSON.stringify(size('big').messages);
    expect((await callControl(server, 'POST', '/__mock/realms/big/reset')).status).toBe(200);
    expect(counts('big')).toEqual({ messages: 200, users: 20, channels: 12 });
    expect(JSON.stringify(size('big').messages)).toBe(before);
  });

  it("a realm made from the export of a sized realm has the file's rows, and resets to them", async () => {
    const file = join(fixturesDir, 'big.json');
    await writeFile(file, (await call(server, 'GET', '/__mock/realms/big/export')).text);
    const made = await callControl(server, 'POST', '/__mock/realms', { realm_id: 'from-file', fixture: file });
    expect(made.status).toBe(201);
    expect(counts('from-file')).toEqual({ messages: 200, users: 20, channels: 12 });
    expect((await callControl(server, 'POST', '/__mock/realms/from-file/reset')).status).toBe(200);
    expect(counts('from-file')).toEqual({ messages: 200, users: 20, channels: 12 });
  });

  it('a state file keeps a sized realm across restarts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'realm-size-'));
    try {
      const statePath = join(dir, 'state.json');
      const first = await startTestServer({ statePath, size: { channels: 12 } });
      const before = JSON.stringify(first.context.store.realm('demo'));
      await first.close();
      const again = await startTestServer({ statePath, size: { channels: 12 } });
      try {
        expect(JSON.stringify(again.context.store.realm('demo'))).toBe(before);
        expect(again.context.store.realm('demo')!.realm.realm.size).toEqual({ messages: 90, users: 11, channels: 12 });
      } finally {
        await again.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers a clear 400 JSON error for a bad size and creates nothing', async () => {
    for (const [field, value, msg] of [
      ['messages', '0', /^messages must be a whole number from 90 .* to 1,000,000\.$/],
      ['users', '-3', /^users must be a whole number from 11 /],
      ['channels', '20000', /^channels must be a whole number from 9 .* to 10,000\.$/],
      ['messages', '2.5', /^messages is not an integer$/],
      ['messages', 'many', /^messages is not a number$/],
    ] as const) {
      const reply = await callControl(server, 'POST', '/__mock/realms', { realm_id: 'bad', [field]: value });
      expect(reply.status, `${field}=${value}`).toBe(400);
      expect(reply.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: expect.stringMatching(msg) });
      expect(server.context.store.realm('bad')).toBeUndefined();
    }
  });

  it('refuses sizes for a realm export file, which has its own size', async () => {
    const reply = await callControl(server, 'POST', '/__mock/realms', { realm_id: 'file', fixture: 'no-such.json', messages: '100' });
    expect(reply.status).toBe(400);
    expect(reply.body.msg).toMatch(/realm export file has its own size/);
  });

  it('teamchat serve refuses a bad --messages/--users/--channels with a one-line usage error (exit 2)', async () => {
    for (const [flag, value] of [
      ['--messages', '0'],
      ['--users', '1e3'],
      ['--channels', '10001'],
    ] as const) {
      const err: string[] = [];
      const io = { stdout: { write: () => true }, stderr: { write: (s: string) => (err.push(s), true) } };
      expect(await main(['serve', '--in-memory', '--port', '0', flag, value], io)).toBe(2);
      expect(err.join('')).toMatch(new RegExp(`${flag.slice(2)} must be a whole number from \\d+`, 'i'));
    }
  });
});
