import { constants } from 'node:fs';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { StateDamaged } from './errors.js';
import type { Change } from './state.js';

/**
 * The append-only journal: one JSON line per group commit, `{"seq": N, "changes": [...]}`, where N is
 * the sequence number of the last `append` call in the line (one sequence number per call, so a
 * transaction's changes always share a line and replay all-or-nothing).
 */
export interface JournalLine {
  seq: number;
  changes: Change[];
}

export interface ParsedJournal {
  lines: JournalLine[];
  /** Bytes at the end that were dropped as a torn write (never acknowledged). */
  tornBytes: number;
}

/** Thrown for damage that a crash cannot explain: replaying past it could silently lose or invent data. */
export class JournalCorruptError extends StateDamaged {
  constructor(path: string, lineNo: number, reason: string) {
    super(`state journal ${path} is corrupt at line ${lineNo}: ${reason}`);
    this.name = 'JournalCorruptError';
  }
}

/** A parsed journal line, or null when `value` is not one. */
export function asLine(value: unknown): JournalLine | null {
  if (typeof value !== 'object' || value === null) return null;
  const { seq, changes } = value as { seq?: unknown; changes?: unknown };
  if (typeof seq !== 'number' || !Number.isInteger(seq) || !Array.isArray(changes)) return null;
  return { seq, changes: changes as Change[] };
}

function parseLine(text: string): JournalLine | null {
  try {
    return asLine(JSON.parse(text));
  } catch {
    return null;
  }
}

/**
 * Reads the journal. A crash can only tear the *last* line (lines are written in order and a line is
 * acknowledged only once it is fully written), so an unreadable last line is dropped: it held no
 * acknowledged change. Damage anywhere else cannot come from a crash and is reported as corruption.
 */
export async function readJournal(path: string): Promise<ParsedJournal> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], tornBytes: 0 };
    throw e;
  }
  const parts = text.split('\n');
  // After a trailing newline, split yields a final ''; anything else there is an unterminated line.
  if (parts[parts.length - 1] === '') parts.pop();
  const lines: JournalLine[] = [];
  let tornBytes = 0;
  let previousSeq = -Infinity;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const line = parseLine(part);
    if (line === null) {
      if (i === parts.length - 1) {
        tornBytes = Buffer.byteLength(part) + (text.endsWith('\n') ? 1 : 0);
        break;
      }
      throw new JournalCorruptError(path, i + 1, 'unparseable line before the end of the file');
    }
    if (line.seq <= previousSeq) {
      throw new JournalCorruptError(path, i + 1, `sequence ${line.seq} does not follow ${previousSeq}`);
    }
    previousSeq = line.seq;
    lines.push(line);
  }
  return { lines, tornBytes };
}

/**
 * In fsync mode the journal is opened with O_DSYNC where the platform has it: each write returns once its data
 * (and the length needed to read it) is on stable storage, as write + fdatasync would, in one trip to the
 * thread pool instead of two. Every trip waits for the event loop to take its completion, so under load the
 * second one added a whole turn of the loop to every group commit.
 */
const DSYNC = constants.O_DSYNC as number | undefined;

/** The open journal. Only the persistence flusher calls it, one operation at a time. */
export class JournalWriter {
  private constructor(
    private readonly handle: FileHandle,
    private readonly sync: boolean,
    /** Current length of the file. */
    public size: number,
    /** Writes are durable on return (O_DSYNC): no separate flush after them. */
    private readonly durableWrites: boolean,
  ) {}

  /** O_APPEND: every write lands at the end, also right after a truncation. */
  static async open(path: string, sync: boolean): Promise<JournalWriter> {
    const dsync = sync && DSYNC !== undefined;
    const handle = await open(path, dsync ? constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | DSYNC : 'a');
    try {
      const { size } = await handle.stat();
      return new JournalWriter(handle, sync, size, dsync);
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  /** Appends `text` and, in fsync mode, waits until it is on stable storage. Returns bytes written. */
  async append(text: string): Promise<number> {
    const buffer = Buffer.from(text, 'utf8');
    let offset = 0;
    // write(2) may be short (e.g. a signal, a full disk); the rest must follow before we acknowledge.
    while (offset < buffer.length) {
      const { bytesWritten } = await this.handle.write(buffer, offset, buffer.length - offset);
      if (bytesWritten === 0) throw new Error('journal write made no progress');
      offset += bytesWritten;
    }
    this.size += buffer.length;
    // datasync suffices: the file's length is metadata needed to read the data, which datasync covers.
    if (this.sync && !this.durableWrites) await this.handle.datasync();
    return buffer.length;
  }

  /**
   * Empties the journal. Only ever called once a snapshot covering every line is durable. `flush` false leaves
   * the new length to the next append's fdatasync: until then a crash leaves the old lines, all covered by
   * that snapshot (skipped on load), or an empty or torn journal, never a line lost.
   */
  async truncate(flush = true): Promise<void> {
    await this.handle.truncate(0);
    this.size = 0;
    if (this.sync && flush) await this.handle.datasync();
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}
