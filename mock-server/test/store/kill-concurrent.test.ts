import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CrashPoint } from './fixtures/crash-points.js';
import { copyCrashImage, expectRecovered, runAndKill } from './fixtures/kill-run.js';

/**
 * kill -9 at each step of a compaction written alongside appends: the same writer and crash points as
 * kill.test.ts, with a ballast that makes every snapshot larger than the size below which snapshots are
 * written at once, so each crash lands in or around a concurrent compaction (a torn journal line while a
 * snapshot body is half written, the rename of a snapshot carrying a tail, the emptying of the journal).
 */

/** ~360 KB of snapshot: above the 256 KiB default of concurrentSnapshotMinBytes. */
const BALLAST = 300;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamchat-kill-concurrent-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('kill -9 during a compaction written alongside appends', () => {
  it('loses no acknowledged change at any step', { timeout: 180_000 }, async () => {
    const path = join(dir, 'c.json');
    const plans: [CrashPoint, number, number][] = [
      ['torn-write', 150, 16],
      ['before-rename', 120, 64],
      ['after-rename', 200, 16],
      ['after-truncate', 90, 64],
      ['torn-write', 400, 64],
      ['after-rename', 60, 1],
      ['before-rename', 250, 4],
    ];
    let maxAcked = 0;
    const seen = { tailed: 0, midBody: 0 };
    for (const [crashAt, armAfter, inFlight] of plans) {
      const acked = await runAndKill(path, { crashAt, armAfter, inFlight, compactMinBytes: 1 }, BALLAST);
      expect(acked.length).toBeGreaterThanOrEqual(armAfter);
      for (let i = 1; i < acked.length; i++) expect(acked[i]).toBeGreaterThan(acked[i - 1]!);
      maxAcked = Math.max(maxAcked, ...acked);

      const image = join(dir, 'image.json');
      await copyCrashImage(path, image);
      const doc = JSON.parse(await readFile(image, 'utf8')) as { journal_tail?: unknown[] };
      if ((doc.journal_tail?.length ?? 0) > 0) seen.tailed++;
      const temp = await access(join(dir, '.c.json.tmp')).then(
        () => true,
        () => false,
      );
      if (crashAt === 'torn-write' && temp) seen.midBody++;

      await expectRecovered(image, maxAcked, BALLAST);
    }
    // The after-rename crashes leave a snapshot whose tail holds lines acknowledged during its body.
    expect(seen.tailed).toBeGreaterThan(0);
    // Informational (timing-dependent): torn journal lines written while a snapshot body was half written.
    console.info(`kill -9 alongside compaction: ${seen.midBody} of 2 torn writes landed mid-body`);
  });
});
