import { appendFile, copyFile, mkdtemp, open, readFile, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filePersistence, type FilePersistence, type FilePersistenceOptions } from '../../src/store/file-persistence.js';
import { applyChange, emptyState, type Change, type State } from '../../src/store/state.js';
import { testMessage, testRealm } from './fixtures/realm.js';

let dir: string;
let path: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamchat-persist-'));
  path = join(dir, 'state.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A persistence with its live state, used the way the store uses it: apply, then append. */
interface Session {
  p: FilePersistence;
  state: State;
  commit(changes: Change[]): Promise<void>;
}

async function openSession(options: Partial<FilePersistenceOptions> = {}, at = path): Promise<Session> {
  const p = filePersistence({ path: at, ...options });
  const state = await p.load();
  p.attach(() => state);
  return {
    p,
    state,
    commit(changes) {
      for (const change of changes) applyChange(state, change);
      return p.append(changes);
    },
  };
}

async function loadFresh(at = path): Promise<State> {
  const p = filePersistence({ path: at });
  const state = await p.load();
  await p.close();
  return state;
}

const realmPut = (realm: string): Change => ({ realm, table: null, key: null, row: testRealm(realm) });
const realmDelete = (realm: string): Change => ({ realm, table: null, key: null, row: null });
const msgPut = (realm: string, id: number, variant = 0, bytes = 500): Change => ({
  realm,
  table: 'messages',
  key: String(id),
  row: testMessage(id, bytes, variant),
});
const msgDelete = (realm: string, id: number): Change => ({ realm, table: 'messages', key: String(id), row: null });

/** What `kill -9` right now would leave on disk. */
async function crashImage(to: string): Promise<void> {
  await copyFile(path, to);
  await copyFile(`${path}.journal`, `${to}.journal`);
}

describe('filePersistence', () => {
  it('starts empty, writes a human-readable lowdb snapshot', async () => {
    const s = await openSession();
    expect(s.state).toEqual(emptyState());
    await s.commit([realmPut('a')]);
    await s.p.close();
    const text = await readFile(path, 'utf8');
    expect(text).toContain('\n  "format": "teamchat-kit/state@1"');
    expect(JSON.parse(text)).toMatchObject({ format: 'teamchat-kit/state@1', journal_seq: 1, realms: { a: {} } });
  });

  it('round-trips realms, puts and deletes across several reopenings', async () => {
    const expected = emptyState();
    const run = async (changes: Change[][]) => {
      const s = await openSession();
      expect(s.state).toEqual(expected);
      for (const tx of changes) {
        for (const c of tx) applyChange(expected, c);
        await s.commit(tx);
      }
      await s.p.close();
      await s.p.close(); // idempotent
    };
    await run([[realmPut('a'), msgPut('a', 1)], [msgPut('a', 2), realmPut('b')], [msgPut('b', 1)], [msgDelete('a', 1)]]);
    await run([[realmDelete('b')], [msgPut('a', 2, 1)], [realmPut('a')], [msgPut('a', 3)], []]);
    await run([[realmPut('c'), msgPut('c', 9), msgDelete('c', 9), msgPut('c', 10)]]);
    expect(await loadFresh()).toEqual(expected);
  });

  it('recovers acknowledged changes from the journal alone (no close)', async () => {
    const s = await openSession();
    await Promise.all([s.commit([realmPut('a')]), s.commit([msgPut('a', 1)]), s.commit([msgPut('a', 2)])]);
    await s.commit([msgDelete('a', 1)]);
    const image = join(dir, 'crash.json');
    await crashImage(image);
    expect((await stat(`${image}.journal`)).size).toBeGreaterThan(0);
    const recovered = await loadFresh(image);
    expect(recovered).toEqual(s.state);
    // Start-up leaves a clean pair.
    expect((await stat(`${image}.journal`)).size).toBe(0);
    expect(JSON.parse(await readFile(image, 'utf8')).journal_seq).toBe(4);
    await s.p.close();
  });

  it('group-commits concurrent appends and resolves them in call order', async () => {
    const s = await openSession();
    await s.commit([realmPut('a')]);
    const writesBefore = s.p.stats.journalWrites;
    const order: number[] = [];
    const all = Array.from({ length: 1000 }, (_, i) => s.commit([msgPut('a', i, 0, 50)]).then(() => order.push(i)));
    await Promise.all(all);
    const writes = s.p.stats.journalWrites - writesBefore;
    expect(order).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(writes).toBeGreaterThan(0);
    expect(writes).toBeLessThan(20);
    // One journal line per write.
    const lines = (await readFile(`${path}.journal`, 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(s.p.stats.journalWrites);
    await s.p.close();
    expect(Object.keys((await loadFresh()).realms.a!.messages)).toHaveLength(1000);
  });

  it('compacts: the journal is emptied into the snapshot and reload is exact', async () => {
    const s = await openSession({ compactMinBytes: 16 * 1024 });
    await s.commit([realmPut('a')]);
    for (let round = 0; round < 20; round++) {
      await Promise.all(Array.from({ length: 25 }, (_, i) => s.commit([msgPut('a', round * 25 + i)])));
      await s.commit([msgDelete('a', round * 25)]);
    }
    expect(s.p.stats.snapshotWrites).toBeGreaterThan(3);
    const journalSize = (await stat(`${path}.journal`)).size;
    const snapshotSize = (await stat(path)).size;
    expect(journalSize).toBeLessThanOrEqual(Math.max(16 * 1024, snapshotSize) + 20 * 1024);
    const onDisk = JSON.parse(await readFile(path, 'utf8')) as { journal_seq: number; realms: State['realms'] };
    expect(onDisk.journal_seq).toBeGreaterThan(1);
    expect(Object.keys(onDisk.realms.a!.messages).length).toBeGreaterThan(0);
    const crash = join(dir, 'crash.json');
    await crashImage(crash);
    expect(await loadFresh(crash)).toEqual(s.state);
    await s.p.close();
    expect((await stat(`${path}.journal`)).size).toBe(0);
    expect(await loadFresh()).toEqual(s.state);
  });

  it('writes a whole snapshot when the kernel takes only part of each write', async () => {
    // writev(2) may write less than asked (a signal, a full pipe of the disk): the rest must follow, in order.
    const probe = await open(join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    const writev = proto.writev;
    let shortWrites = 0;
    proto.writev = async function (this: FileHandle, buffers: readonly NodeJS.ArrayBufferView[], position?: number) {
      const total = buffers.reduce((sum, b) => sum + b.byteLength, 0);
      if (total <= 700) return writev.call(this, buffers, position);
      shortWrites++;
      // At most 700 bytes, cut inside a buffer.
      const taken: Buffer[] = [];
      let room = 700;
      for (const b of buffers) {
        const bytes = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
        taken.push(bytes.subarray(0, room));
        room -= Math.min(room, bytes.length);
        if (room === 0) break;
      }
      const { bytesWritten } = await writev.call(this, taken, position);
      return { bytesWritten, buffers };
    } as typeof proto.writev;
    try {
      const s = await openSession({ compactMinBytes: 4 * 1024 });
      await s.commit([realmPut('a')]);
      for (let i = 0; i < 60; i++) await s.commit([msgPut('a', i, 0, 300)]);
      expect(s.p.stats.snapshotWrites).toBeGreaterThan(1);
      await s.p.close();
      expect(shortWrites).toBeGreaterThan(0);
      expect(await readFile(path, 'utf8')).toBe(JSON.stringify({ ...s.state, journal_seq: 61 }, null, 2));
    } finally {
      proto.writev = writev;
    }
  });

  it('bytes written per change stay bounded whatever the size of the state', async () => {
    const perAppend = async (messages: number): Promise<{ perAppend: number; lineBytes: number }> => {
      const at = join(dir, `cost-${messages}.json`);
      const realm = testRealm('a');
      for (let i = 0; i < messages; i++) realm.messages[String(i)] = testMessage(i);
      const seed = await openSession({ durability: 'write' }, at);
      await seed.commit([{ realm: 'a', table: null, key: null, row: realm }]);
      await seed.p.close();

      const s = await openSession({ durability: 'write', compactMinBytes: 1024 }, at);
      const n = 6000;
      for (let i = 0; i < n; i += 100) {
        // Overwrite existing rows so the state keeps its size.
        await Promise.all(Array.from({ length: 100 }, (_, j) => s.commit([msgPut('a', (i + j) % 100, i + j)])));
      }
      // A compaction the appends started counts, however far its body got by the last append (its pace is the
      // event loop's, so it may still be under way on a busy machine); close's own snapshot does not.
      await s.p.settled();
      const { journalBytes, snapshotBytes, snapshotWrites } = s.p.stats;
      await s.p.close();
      expect(snapshotWrites).toBeGreaterThan(0); // compaction did happen within the run (load wrote none)
      return { perAppend: (journalBytes + snapshotBytes) / n, lineBytes: journalBytes / n };
    };
    const small = await perAppend(100);
    const large = await perAppend(3000);
    // Amortised: snapshots are paid by at least as many journal bytes, so total ≤ a few × the change.
    for (const r of [small, large]) expect(r.perAppend).toBeLessThan(4 * r.lineBytes);
    expect(large.perAppend).toBeLessThan(2 * small.perAppend);
  });

  it('ignores and truncates a torn last journal line', async () => {
    const s = await openSession();
    await s.commit([realmPut('a'), msgPut('a', 1)]);
    await s.commit([msgPut('a', 2)]);
    const image = join(dir, 'torn.json');
    await crashImage(image);
    await s.p.close();
    await appendFile(`${image}.journal`, '{"seq":3,"changes":[{"realm":"a","table":"messa');
    const p = filePersistence({ path: image });
    const recovered = await p.load();
    expect(recovered).toEqual(s.state);
    expect((await stat(`${image}.journal`)).size).toBe(0);
    // And it keeps working after recovery.
    p.attach(() => recovered);
    const c = msgPut('a', 3);
    applyChange(recovered, c);
    await p.append([c]);
    await p.close();
    expect(Object.keys((await loadFresh(image)).realms.a!.messages)).toEqual(['1', '2', '3']);
  });

  it('refuses a journal damaged before its last line', async () => {
    const s = await openSession();
    await s.commit([realmPut('a')]);
    await s.commit([msgPut('a', 1)]);
    const image = join(dir, 'corrupt.json');
    await crashImage(image);
    await s.p.close();
    const lines = (await readFile(`${image}.journal`, 'utf8')).split('\n');
    await writeFile(`${image}.journal`, [lines[0]!.slice(0, 10), ...lines.slice(1)].join('\n'));
    await expect(filePersistence({ path: image }).load()).rejects.toThrow(/corrupt at line 1/);
  });

  it('refuses a state file of another format', async () => {
    await writeFile(path, JSON.stringify({ format: 'someone-else@2', realms: {} }));
    await expect(filePersistence({ path }).load()).rejects.toThrow(/format "someone-else@2"/);
  });

  it('skips journal lines already in the snapshot (crash between snapshot and truncation)', async () => {
    const first = await openSession();
    await first.commit([realmPut('a'), realmPut('b')]);
    await first.p.close();
    const s = await openSession();
    // Replayed onto a snapshot taken after them, these would put a row into a realm that is gone.
    await s.commit([msgPut('a', 1)]);
    await s.commit([realmDelete('a')]);
    await s.commit([msgPut('b', 1)]);
    await s.commit([msgDelete('b', 1)]);
    const journalBefore = await readFile(`${path}.journal`);
    await s.p.close(); // snapshot written, journal emptied
    // Put the old lines back: the state a crash right after the snapshot's rename leaves.
    await writeFile(`${path}.journal`, journalBefore);
    expect(await loadFresh()).toEqual(s.state);
  });

  it('fails stop: after a failed write every append rejects', async () => {
    const s = await openSession();
    await s.commit([realmPut('a')]);
    const bad = { realm: 'a', table: 'messages', key: '1', row: { id: 1n } } as Change;
    await expect(s.p.append([bad])).rejects.toThrow(/BigInt/);
    await expect(s.p.append([msgPut('a', 2)])).rejects.toThrow(/BigInt/);
    await s.p.close();
    expect(await loadFresh()).toEqual({ format: 'teamchat-kit/state@1', realms: { a: testRealm('a') } });
  });

  it('fails stop when a snapshot cannot be written', async () => {
    const s = await openSession({ compactMinBytes: 2000 });
    await s.commit([realmPut('a')]); // below 2000 bytes: no compaction yet
    await rm(dir, { recursive: true, force: true }); // the next compaction cannot create its temp file
    // Their journal line (on the still-open handle) is written before the compaction is attempted.
    await Promise.all([s.commit([msgPut('a', 1, 0, 3000)]), s.commit([msgPut('a', 2, 0, 3000)])]);
    await expect(s.commit([msgPut('a', 3)])).rejects.toThrow(/ENOENT/);
    await s.p.close();
  });
});
