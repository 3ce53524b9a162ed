import { spawn } from 'node:child_process';
import { access, copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filePersistence } from '../../src/store/file-persistence.js';
import type { CrashPoint } from './fixtures/crash-points.js';

const root = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const writer = fileURLToPath(new URL('./fixtures/kill-writer.ts', import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamchat-kill-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Plan {
  compactMinBytes: number;
  inFlight: number;
  /** The parent SIGKILLs the writer after this many acknowledgements... */
  killAfter?: number;
  /** ...or the writer SIGKILLs itself at this step, once `armAfter` acknowledgements were printed. */
  crashAt?: CrashPoint;
  armAfter?: number;
}

/** Runs the writer until it is killed. Returns the acknowledged IDs. */
function runAndKill(path: string, plan: Plan, ballast: number): Promise<number[]> {
  const args = [path, plan.compactMinBytes, plan.inFlight, ballast, plan.crashAt ?? 'none', plan.armAfter ?? 0].map(String);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writer, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const acked: number[] = [];
    let buffer = '';
    let stderr = '';
    let killed = false;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) if (line !== 'ready') acked.push(Number(line));
      // A crash point that is never reached must not hang the test: the assertions below catch it.
      if (!killed && acked.length >= (plan.killAfter ?? 50_000)) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    // 'close', not 'exit': the acknowledgements still in the pipe when the writer died are read first.
    child.on('close', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`writer exited with ${code}: ${stderr}`));
      else if (plan.crashAt && killed) reject(new Error(`writer never reached crash point ${plan.crashAt}`));
      else resolvePromise(acked);
    });
  });
}

interface Image {
  /** The journal holds lines the snapshot already covers (died between snapshot and truncation). */
  staleLines: boolean;
  /** steno's temp file is there (died before the snapshot's rename). */
  tempLeft: boolean;
  /** The journal ends in an unfinished line. */
  torn: boolean;
}

/** Kills a writer once per plan, all on one state file; checks each crash image. */
async function killSeries(name: string, plans: Plan[], ballast: number): Promise<Image[]> {
  const path = join(dir, `${name}.json`);
  let maxAcked = 0;
  const images: Image[] = [];
  for (const plan of plans) {
    const acked = await runAndKill(path, plan, ballast);
    expect(acked.length).toBeGreaterThanOrEqual(plan.killAfter ?? plan.armAfter ?? 0);
    // Acknowledged in call order.
    for (let i = 1; i < acked.length; i++) expect(acked[i]).toBeGreaterThan(acked[i - 1]!);
    maxAcked = Math.max(maxAcked, ...acked);

    // Recover a copy, so that the next writer also starts from the raw crash image.
    const image = join(dir, `${name}-image.json`);
    await rm(`${image}.journal`, { force: true });
    await copyFile(path, image);
    await copyFile(`${path}.journal`, `${image}.journal`).catch(() => {});
    const snapshotSeq = (JSON.parse(await readFile(image, 'utf8')) as { journal_seq: number }).journal_seq;
    const journal = await readFile(`${image}.journal`, 'utf8').catch(() => '');
    images.push({
      staleLines: journal.split('\n').some((l) => Number(/^\{"seq":(\d+)/.exec(l)?.[1] ?? Infinity) <= snapshotSeq),
      tempLeft: await access(join(dir, `.${name}.json.tmp`)).then(
        () => true,
        () => false,
      ),
      torn: journal.length > 0 && !journal.endsWith('\n'),
    });

    const p = filePersistence({ path: image });
    const state = await p.load();
    await p.close();
    // Transactions are durable as a prefix: k puts message k and deletes k-25, so the state must be
    // exactly the window (M-25, M] for some M at or beyond the last acknowledged transaction.
    const ids = Object.keys(state.realms.k!.messages)
      .map(Number)
      .sort((a, b) => a - b);
    const m = ids[ids.length - 1]!;
    expect(m).toBeGreaterThanOrEqual(maxAcked);
    const width = Math.min(25, m);
    expect(ids).toEqual(Array.from({ length: width }, (_, i) => m - width + 1 + i));
    expect(state.realms.k!.messages[String(m)]!.content).toMatch(new RegExp(`^message ${m}/`));
    expect(Object.keys(state.realms.ballast!.messages)).toHaveLength(ballast);
  }
  return images;
}

describe('kill -9', () => {
  it('loses no acknowledged change when killed from outside at arbitrary moments', { timeout: 180_000 }, async () => {
    // Small compactMinBytes: a compaction every few dozen transactions, so kills land in them too.
    const small = await killSeries(
      'small',
      [
        { killAfter: 300, compactMinBytes: 32 * 1024, inFlight: 16 },
        { killAfter: 450, compactMinBytes: 32 * 1024, inFlight: 64 },
        { killAfter: 200, compactMinBytes: 4 * 1024, inFlight: 1 },
        { killAfter: 700, compactMinBytes: 64 * 1024, inFlight: 32 },
        { killAfter: 333, compactMinBytes: 8 * 1024, inFlight: 8 },
        { killAfter: 250, compactMinBytes: 1, inFlight: 4 },
      ],
      0,
    );
    // A ~400 KB snapshot: each compaction takes long enough to be hit mid-way.
    const large = await killSeries(
      'large',
      [
        { killAfter: 500, compactMinBytes: 1, inFlight: 32 },
        { killAfter: 800, compactMinBytes: 1, inFlight: 64 },
        { killAfter: 650, compactMinBytes: 1, inFlight: 16 },
        { killAfter: 1000, compactMinBytes: 1, inFlight: 64 },
      ],
      300,
    );
    // Informational (timing-dependent, so not asserted).
    const mid = [...small, ...large].filter((i) => i.staleLines || i.tempLeft || i.torn).length;
    console.info(`kill -9 from outside: 10 kills, ${mid} of them mid-compaction or mid-write`);
  });

  it('loses no acknowledged change when killed at each step of a compaction and mid-write', { timeout: 180_000 }, async () => {
    const at = (crashAt: CrashPoint, armAfter: number, inFlight = 16): Plan => ({ crashAt, armAfter, inFlight, compactMinBytes: 1 });
    const images = await killSeries(
      'steps',
      [
        at('before-rename', 150),
        at('after-rename', 200),
        at('after-truncate', 120, 64),
        at('torn-write', 100),
        at('after-rename', 50, 1),
        at('torn-write', 300, 64),
        at('before-rename', 80, 1),
      ],
      100,
    );
    expect(images.map((i) => [i.tempLeft, i.staleLines, i.torn])).toEqual([
      [true, false, false],
      [false, true, false],
      [false, false, false],
      [false, false, true],
      [false, true, false],
      [false, false, true],
      [true, false, false],
    ]);
  });
});
