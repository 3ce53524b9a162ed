import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CrashPoint } from './fixtures/crash-points.js';
import { copyCrashImage, expectRecovered, runAndKill, type KillPlan } from './fixtures/kill-run.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamchat-kill-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Image {
  /** The journal holds lines the snapshot already covers (died between snapshot and truncation). */
  staleLines: boolean;
  /** steno's temp file is there (died before the snapshot's rename). */
  tempLeft: boolean;
  /** The journal ends in an unfinished line. */
  torn: boolean;
}

/** Kills a writer once per plan, all on one state file; checks each crash image. */
async function killSeries(name: string, plans: KillPlan[], ballast: number): Promise<Image[]> {
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
    await copyCrashImage(path, image);
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

    await expectRecovered(image, maxAcked, ballast);
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
    const at = (crashAt: CrashPoint, armAfter: number, inFlight = 16): KillPlan => ({ crashAt, armAfter, inFlight, compactMinBytes: 1 });
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
