import { access, appendFile, copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import type * as fsPromises from 'node:fs/promises';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filePersistence, type FilePersistence, type FilePersistenceOptions } from '../../src/store/file-persistence.js';
import { JournalWriter } from '../../src/store/journal.js';
import { SnapshotWriter } from '../../src/store/snapshot.js';
import { applyChange, type Change, type State } from '../../src/store/state.js';
import { testMessage, testRealm } from './fixtures/realm.js';

/**
 * A snapshot written alongside appends (file-persistence.ts, compaction.ts), stopped between its steps: the
 * files as they are at each step are what a crash there leaves. The steps are reached by wrapping the file
 * operations the writer uses (as fixtures/crash-points.ts does for the kill -9 test), in this process.
 */
const fsp = createRequire(import.meta.url)('node:fs/promises') as typeof fsPromises;
const original = { rename: fsp.rename, writeBody: SnapshotWriter.prototype.writeBody };

type Step = 'before-rename' | 'after-rename';
let onStep: (step: Step) => Promise<void> = async () => {};
/** Called as each snapshot body starts: the body stops after its first piece until the promise resolves. */
let holdBody: () => Promise<void> = async () => {};

function installSteps(): void {
  SnapshotWriter.prototype.writeBody = function (this: SnapshotWriter, pieces: AsyncIterable<Buffer[]>) {
    const gate = holdBody();
    async function* held(): AsyncGenerator<Buffer[]> {
      let first = true;
      for await (const piece of pieces) {
        yield piece;
        if (first) await gate;
        first = false;
      }
    }
    return original.writeBody.call(this, held());
  };
  fsp.rename = async (from, to) => {
    if (String(from).endsWith('.tmp')) await onStep('before-rename');
    await original.rename(from, to);
    if (String(from).endsWith('.tmp')) await onStep('after-rename');
  };
  syncBuiltinESMExports();
}

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamchat-concurrent-'));
  path = join(dir, 'state.json');
  installSteps();
});
afterEach(async () => {
  SnapshotWriter.prototype.writeBody = original.writeBody;
  fsp.rename = original.rename;
  syncBuiltinESMExports();
  onStep = async () => {};
  holdBody = async () => {};
  await rm(dir, { recursive: true, force: true });
});

interface Session {
  p: FilePersistence;
  state: State;
  commit(changes: Change[]): Promise<void>;
}

async function openSession(options: Partial<FilePersistenceOptions> = {}): Promise<Session> {
  const p = filePersistence({ path, ...options });
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

/** What `kill -9` right now would leave: the snapshot and the journal (never the temporary file). */
async function crashImage(name: string): Promise<string> {
  const to = join(dir, `${name}.json`);
  await copyFile(path, to);
  await copyFile(`${path}.journal`, `${to}.journal`);
  return to;
}

async function recover(image: string): Promise<State> {
  const p = filePersistence({ path: image });
  const state = await p.load();
  await p.close();
  return state;
}

const msgPut = (id: number, variant = 0): Change => ({
  realm: 'a',
  table: 'messages',
  key: String(id),
  row: testMessage(id, 500, variant),
});
const msgDelete = (id: number): Change => ({ realm: 'a', table: 'messages', key: String(id), row: null });
const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe('compaction alongside appends', () => {
  it('acknowledges writes while a snapshot is being written, and a crash at each step keeps them', async () => {
    const s = await openSession({ compactMinBytes: 64 * 1024, concurrentSnapshotMinBytes: 0 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Only the next body (a crash image's recovery below writes its own snapshot).
    holdBody = () => ((holdBody = async () => {}), gate);
    await s.commit([{ realm: 'a', table: null, key: null, row: testRealm('a') }]);
    // Enough journal to start a compaction, whose body then stops after its first piece.
    for (let id = 1; id <= 200; id++) await s.commit([msgPut(id)]);
    const temp = join(dir, '.state.json.tmp');
    expect(await exists(temp)).toBe(true);
    const snapshotsBefore = s.p.stats.snapshotWrites;

    // Not held up by the snapshot: each of these is acknowledged (durable in the journal) while it waits.
    for (let id = 201; id <= 260; id++) await s.commit([msgPut(id), msgDelete(id - 100)]);
    expect(s.p.stats.snapshotWrites).toBe(snapshotsBefore);
    expect(await recover(await crashImage('mid-body'))).toEqual(s.state);

    // The remaining steps, each stopped for a crash image: the state at the finish includes every write above.
    const images = new Map<Step, string>();
    onStep = async (step) => void images.set(step, await crashImage(step));
    const atFinish = structuredClone(s.state);
    release();
    for (let i = 0; i < 5000 && s.p.stats.snapshotWrites === snapshotsBefore; i++) await new Promise((r) => setTimeout(r, 2));
    onStep = async () => {};
    expect([...images.keys()]).toEqual(['before-rename', 'after-rename']);
    // The new snapshot carries the lines written during its body; the journal still holds them after the
    // rename (a crash there replays none of them twice: they are at or below journal_seq).
    const after = JSON.parse(await readFile(images.get('after-rename')!, 'utf8')) as {
      journal_seq: number;
      journal_tail?: { seq: number }[];
    };
    const tail = (after.journal_tail ?? []).map((l) => l.seq);
    expect(tail.length).toBeGreaterThanOrEqual(60);
    const journal = await readFile(`${images.get('after-rename')!}.journal`, 'utf8');
    const seqs = journal
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as { seq: number }).seq);
    // The tail is the journal's last lines, in order, ending at journal_seq.
    expect(tail).toEqual(seqs.filter((seq) => seq >= tail[0]!));
    expect(seqs[seqs.length - 1]).toBe(after.journal_seq);
    for (const image of images.values()) expect(await recover(image)).toEqual(atFinish);
    expect(await exists(temp)).toBe(false);

    // After the finish: the journal was emptied, new lines follow, a torn last one is dropped.
    for (let id = 261; id <= 270; id++) await s.commit([msgPut(id)]);
    const later = await crashImage('later');
    expect(await recover(later)).toEqual(s.state);
    const torn = await crashImage('torn');
    await appendFile(`${torn}.journal`, '{"seq":999999,"changes":[{"realm":"a","tab');
    expect(await recover(torn)).toEqual(s.state);
    await s.p.close();
    expect(await recover(path)).toEqual(s.state);
  });

  it('reads a snapshot with a tail: the tail, then only the journal lines above journal_seq', async () => {
    const s = await openSession();
    await s.commit([{ realm: 'a', table: null, key: null, row: testRealm('a') }]);
    await s.p.close();
    const doc = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
    const line = (seq: number, changes: Change[]) => ({ seq, changes });
    // Hand-made: the body at seq 1, the tail 2..3; the journal repeats 3 (stale) and adds 4.
    doc.journal_tail = [line(2, [msgPut(1)]), line(3, [msgPut(2), msgDelete(1)])];
    doc.journal_seq = 3;
    await fsp.writeFile(path, JSON.stringify(doc, null, 2));
    await fsp.writeFile(
      `${path}.journal`,
      [line(3, [msgPut(2), msgDelete(1)]), line(4, [msgPut(3)])].map((l) => `${JSON.stringify(l)}\n`).join(''),
    );
    const state = await recover(path);
    expect(Object.keys(state.realms.a!.messages)).toEqual(['2', '3']);
    // A tail out of order, or above journal_seq, is damage (it was written whole before the rename).
    doc.journal_tail = [line(3, []), line(2, [])];
    await fsp.writeFile(path, JSON.stringify(doc, null, 2));
    await expect(filePersistence({ path }).load()).rejects.toThrow(/invalid journal_tail/);
    doc.journal_tail = [line(4, [])];
    await fsp.writeFile(path, JSON.stringify(doc, null, 2));
    await expect(filePersistence({ path }).load()).rejects.toThrow(/invalid journal_tail/);
  });

  it('acknowledges nothing before it is durable, in call order, through many compactions', async () => {
    // Durable: a journal line once its write and fdatasync returned, or a snapshot once it is in place.
    let durableSeq = 0;
    let lineWritten = () => {};
    const append = JournalWriter.prototype.append;
    const finish = SnapshotWriter.prototype.finish;
    JournalWriter.prototype.append = async function (this: JournalWriter, text: string) {
      const bytes = await append.call(this, text);
      durableSeq = Math.max(durableSeq, Number(/^\{"seq":(\d+)/.exec(text)![1]));
      lineWritten();
      return bytes;
    };
    SnapshotWriter.prototype.finish = async function (this: SnapshotWriter, tail: readonly string[], seq: number) {
      const size = await finish.call(this, tail, seq);
      durableSeq = Math.max(durableSeq, seq);
      return size;
    };
    try {
      for (const concurrentSnapshotMinBytes of [0, Infinity]) {
        await rm(path, { force: true });
        await rm(`${path}.journal`, { force: true });
        durableSeq = 0;
        const s = await openSession({ compactMinBytes: 16 * 1024, concurrentSnapshotMinBytes });
        // Alongside appends, each body waits for a journal line written after it started: every snapshot
        // then has a tail (written at once, nothing is appended meanwhile, so nothing to wait for).
        if (concurrentSnapshotMinBytes === 0) holdBody = () => new Promise((resolve) => (lineWritten = resolve));
        const acked: number[] = [];
        const early: number[] = [];
        let seq = 0;
        const commit = (changes: Change[]) => {
          const mine = ++seq;
          return s.commit(changes).then(() => {
            if (mine > durableSeq) early.push(mine);
            acked.push(mine);
          });
        };
        await commit([{ realm: 'a', table: null, key: null, row: testRealm('a') }]);
        for (let round = 0; round < 30; round++) {
          await Promise.all(Array.from({ length: 20 }, (_, i) => commit([msgPut(round * 20 + i, round), msgDelete(round * 20 + i - 40)])));
        }
        expect(early).toEqual([]);
        expect(acked).toEqual(Array.from({ length: seq }, (_, i) => i + 1));
        expect(s.p.stats.snapshotWrites).toBeGreaterThan(3);
        if (concurrentSnapshotMinBytes === 0) expect(s.p.stats.tailLines).toBeGreaterThan(0);
        // A body still held (started after the last line) goes on now.
        const held = lineWritten;
        holdBody = async () => {};
        lineWritten = () => {};
        held();
        await s.p.close();
        expect(await recover(path)).toEqual(s.state);
      }
    } finally {
      JournalWriter.prototype.append = append;
      SnapshotWriter.prototype.finish = finish;
    }
  });
});
