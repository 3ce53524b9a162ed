import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOT_STORAGE_LIMIT } from '../../src/domain/compat-lookups/bot-storage.js';
import { call, credentials, startTestServer } from '../helpers/test-server.js';
import { error, observeEvents, success, tables, useTestRealm } from '../helpers/harness.js';
import { ROLES, getStorage, putStorage, removeStorage } from './support.js';

/**
 * Bot storage (companion tier, reference server behaviour): an account's own key-value entries, all
 * or nothing per request, at most BOT_STORAGE_LIMIT characters of keys and values per account.
 */
const env = useTestRealm();
const KEY_MISSING = error('Key does not exist.');

describe('bot storage', () => {
  it('stores, reads and removes entries of the caller only', async () => {
    const bot = env.who.bot!;
    expect((await putStorage(env.server, bot, { counter: '3', name: 'incrementor' })).body).toEqual(success());
    expect((await getStorage(env.server, bot)).body).toEqual(success({ storage: { counter: '3', name: 'incrementor' } }));
    expect((await getStorage(env.server, bot, ['counter'])).body).toEqual(success({ storage: { counter: '3' } }));
    expect((await getStorage(env.server, env.who.bot_owner!)).body).toEqual(success({ storage: {} }));
    await putStorage(env.server, bot, { counter: '4' });
    expect((await getStorage(env.server, bot, [])).body).toEqual(success({ storage: { counter: '4', name: 'incrementor' } }));
    expect((await removeStorage(env.server, bot, ['name'])).body).toEqual(success());
    expect((await getStorage(env.server, bot)).body).toEqual(success({ storage: { counter: '4' } }));
    expect((await removeStorage(env.server, bot)).body).toEqual(success());
    expect((await getStorage(env.server, bot)).body).toEqual(success({ storage: {} }));
  });

  it('is open to every role, each with storage of its own (the reference server checks no bot type)', async () => {
    for (const role of ROLES) expect((await putStorage(env.server, env.who[role]!, { who: role })).status, role).toBe(200);
    for (const role of ROLES) expect((await getStorage(env.server, env.who[role]!)).body.storage, role).toEqual({ who: role });
  });

  it('refuses a key that is not stored, for reading and removing, and removes nothing then', async () => {
    const bot = env.who.bot!;
    await putStorage(env.server, bot, { a: '1', b: '2' });
    for (const res of [await getStorage(env.server, bot, ['a', 'zz']), await removeStorage(env.server, bot, ['a', 'zz'])]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(KEY_MISSING);
    }
    // Another account's key is not the caller's.
    expect((await getStorage(env.server, env.who.member!, ['a'])).body).toEqual(KEY_MISSING);
    expect((await getStorage(env.server, bot)).body.storage).toEqual({ a: '1', b: '2' });
  });

  it('refuses malformed storage and keys, and changes nothing', async () => {
    const bot = env.who.bot!;
    await putStorage(env.server, bot, { a: '1' });
    const refusals: [Promise<Awaited<ReturnType<typeof putStorage>>>, object][] = [
      [putStorage(env.server, bot, { a: 2 }), error('storage["a"] is not a string')],
      [putStorage(env.server, bot, ['a']), error('storage is not a dict')],
      [
        call(env.server, 'PUT', '/api/v1/bot_storage', { as: bot, form: {} }),
        error("Missing 'storage' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'storage' }),
      ],
      [call(env.server, 'PUT', '/api/v1/bot_storage', { as: bot, form: { storage: '{' } }), error('storage is not valid JSON')],
      [removeStorage(env.server, bot, 'a'), error('keys is not a list')],
      [getStorage(env.server, bot, [1]), error('keys[0] is not a string')],
    ];
    for (const [pending, expected] of refusals) {
      const res = await pending;
      expect(res.status).toBe(400);
      expect(res.body).toEqual(expected);
    }
    expect((await getStorage(env.server, bot)).body.storage).toEqual({ a: '1' });
  });

  /**
   * Fills the caller's storage with `total` characters of ASCII entries (keys f00, f01, …). Bodies are
   * limited to 1 MiB, so it goes in steps of under a million characters.
   */
  async function fillTo(total: number): Promise<void> {
    const bot = env.who.bot!;
    for (let i = 0, left = total; left > 0; i++) {
      const key = `f${String(i).padStart(2, '0')}`;
      const size = Math.min(left, 900_000);
      expect((await putStorage(env.server, bot, { [key]: 'x'.repeat(size - key.length) })).status).toBe(200);
      left -= size;
    }
  }

  it('holds at most the limit in characters of keys and values; a request over it says by how much and changes nothing', async () => {
    const bot = env.who.bot!;
    await fillTo(BOT_STORAGE_LIMIT - 10);
    const over = await putStorage(env.server, bot, { ab: 'x'.repeat(7), cd: 'y' });
    expect(over.status).toBe(400);
    expect(over.body).toEqual(error(`Request exceeds storage limit by 2 characters. The limit is ${BOT_STORAGE_LIMIT} characters.`));
    expect((await getStorage(env.server, bot, ['ab'])).body).toEqual(KEY_MISSING);
    expect((await putStorage(env.server, bot, { ab: 'x'.repeat(8) })).status).toBe(200);
    // Replacing an entry counts its new value only: f00 shrinks, so the next entry fits.
    expect((await putStorage(env.server, bot, { f00: 'small', gh: 'z'.repeat(1000) })).status).toBe(200);
    const size = Object.values(tables(env.server, env.realm).bot_storage)
      .filter((r) => r.user_id === bot.user_id)
      .reduce((n, r) => n + r.key.length + r.value.length, 0);
    expect(size).toBeLessThanOrEqual(BOT_STORAGE_LIMIT);
  });

  it('counts a character outside the basic plane once, as the reference server does', async () => {
    const bot = env.who.bot!;
    await fillTo(BOT_STORAGE_LIMIT - 1000);
    // 1 + 999 code points fit exactly; in UTF-16 units (1 + 1998) they would not.
    expect((await putStorage(env.server, bot, { e: '😀'.repeat(999) })).status).toBe(200);
    expect((await putStorage(env.server, bot, { e: '😀'.repeat(1000) })).body).toEqual(
      error(`Request exceeds storage limit by 1 characters. The limit is ${BOT_STORAGE_LIMIT} characters.`),
    );
  });

  it('sends no event', async () => {
    const seen = await observeEvents(env, ROLES, {}, () => putStorage(env.server, env.who.bot!, { a: '1' }));
    for (const role of ROLES) expect(seen[role], role).toEqual([]);
  });
});

describe('bot storage on disk', () => {
  it('survives a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'teamchat-bot-storage-'));
    const statePath = join(dir, 'state.json');
    try {
      let server = await startTestServer({ statePath });
      const bot = credentials(server).bot!;
      await putStorage(server, bot, { counter: '7' });
      await server.close();
      server = await startTestServer({ statePath });
      expect((await getStorage(server, bot)).body).toEqual(success({ storage: { counter: '7' } }));
      await server.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
