import { constants } from 'node:fs';
import { mkdtemp, readFile, readdir, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JournalWriter } from '../../src/store/journal.js';

/**
 * How the journal makes a line durable: in fsync mode its writes are synchronous (O_DSYNC, one trip to the thread
 * pool per line) and no separate fdatasync follows; in write mode neither. The open file's flags are read back from
 * the kernel, so a journal that skipped the flush without the flag (acknowledging lines a power loss could take
 * back) fails here. Linux only: the flags come from /proc.
 */
const linux = process.platform === 'linux' && constants.O_DSYNC !== undefined;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'teamchat-journal-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The flags of this process's open file at `path` (octal in /proc/self/fdinfo). */
async function openFlags(path: string): Promise<number> {
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target !== path) continue;
    const info = await readFile(`/proc/self/fdinfo/${fd}`, 'utf8');
    return parseInt(/^flags:\s+([0-7]+)/m.exec(info)![1]!, 8);
  }
  throw new Error(`${path} is not open`);
}

describe.skipIf(!linux)('journal durability (reads open flags from /proc, so Linux only)', () => {
  it('opens the journal O_DSYNC and O_APPEND in fsync mode, and writes each line whole', async () => {
    const path = join(dir, 'state.json.journal');
    const journal = await JournalWriter.open(path, true);
    try {
      const flags = await openFlags(path);
      expect(flags & constants.O_DSYNC).toBe(constants.O_DSYNC);
      expect(flags & constants.O_APPEND).toBe(constants.O_APPEND);
      await journal.append('{"seq":1,"changes":[]}\n');
      await journal.append('{"seq":2,"changes":[]}\n');
      expect(await readFile(path, 'utf8')).toBe('{"seq":1,"changes":[]}\n{"seq":2,"changes":[]}\n');
      expect(journal.size).toBe(46);
    } finally {
      await journal.close();
    }
  });

  it('does not ask the disk to flush in write mode', async () => {
    const path = join(dir, 'write.json.journal');
    const journal = await JournalWriter.open(path, false);
    try {
      expect((await openFlags(path)) & constants.O_DSYNC).toBe(0);
    } finally {
      await journal.close();
    }
  });
});
