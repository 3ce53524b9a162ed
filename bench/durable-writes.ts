/**
 * Durable single-row writes per second against a realm of `messages` rows.
 *
 *   npx tsx bench/durable-writes.ts [--messages 10000] [--seconds 5] [--concurrency 64]
 *
 * Measures acknowledged puts (each `append` resolved = fsynced journal line or snapshot) with many
 * appenders in flight, their latency (p50/p99/max, compactions included), and compares with the naive
 * approach — lowdb `db.write()` per change, which rewrites the whole file each time (and, since steno does
 * not fsync, is not even power-safe). First it measures what bounds the latency on this disk: one small
 * append and its fdatasync, alone.
 */
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { filePersistence } from '../mock-server/src/store/file-persistence.js';
import {
  applyChange,
  emptyRealmTables,
  emptyState,
  type Change,
  type MessageRow,
  type RealmState,
  type State,
} from '../mock-server/src/store/state.js';

export interface DurableWritesResult {
  messages: number;
  concurrency: number;
  /** Size of the snapshot on disk before the run. */
  stateBytes: number;
  seconds: number;
  acknowledged: number;
  writesPerSecond: number;
  /** Time from `append` to its acknowledgement, ms. */
  latency: Percentiles;
  /** One ~300-byte append plus its fdatasync, alone on the same disk, ms: the floor under `latency`. */
  fdatasync: Percentiles;
  /** Journal lines written while a snapshot was being written (so not held up by it). */
  tailLines: number;
  /** Journal writes (each one fsync), and acknowledged puts per journal write (group commit). */
  journalWrites: number;
  averageBatch: number;
  compactions: number;
  /** Journal + snapshot bytes written per acknowledged put. */
  bytesPerWrite: number;
  baseline: { seconds: number; acknowledged: number; writesPerSecond: number; writeCalls: number };
}

export interface Percentiles {
  p50: number;
  p99: number;
  max: number;
}

function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0) * 100) / 100;
  return { p50: at(0.5), p99: at(0.99), max: at(1) };
}

/** `samples` appends of one short line, each followed by fdatasync, one at a time. */
async function fdatasyncAlone(path: string, samples: number): Promise<Percentiles> {
  const handle = await open(path, 'a');
  const line = Buffer.from(`${'x'.repeat(299)}\n`);
  const times: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      const began = performance.now();
      await handle.write(line, 0, line.length);
      await handle.datasync();
      times.push(performance.now() - began);
    }
  } finally {
    await handle.close();
  }
  return percentiles(times);
}

function benchRealm(messages: number): RealmState {
  const realm = emptyRealmTables({
    id: 'bench',
    name: 'Bench',
    fixture: 'bench',
    seed: 1,
    date_created: 1_700_000_000,
    feature_level: 400,
    clock_offset: 0,
    enable_spectator_access: false,
    web_public_streams_enabled: false,
    topics_policy: 'allow_empty_topic',
    moderation_request_channel_id: null,
    require_unique_names: false,
    waiting_period_threshold: 0,
    message_content_allowed_in_email_notifications: true,
    can_create_public_channel_group: 1,
    can_create_private_channel_group: 1,
    can_create_web_public_channel_group: 1,
    can_set_topics_policy_group: 1,
    can_set_delete_message_policy_group: 1,
    can_add_custom_emoji_group: 1,
    default_stream_ids: [],
    notification_bot_id: 1,
  });
  for (let id = 1; id <= messages; id++) realm.messages[String(id)] = message(id, 0);
  return realm;
}

function message(id: number, edit: number): MessageRow {
  const content = `Message ${id}, edit ${edit}. `.padEnd(500, 'The quick brown fox jumps over the lazy dog. ');
  return {
    id,
    sender_id: 10 + (id % 50),
    type: 'stream',
    stream_id: 3,
    dm_user_ids: null,
    recipient_id: 7,
    subject: `topic ${id % 100}`,
    content,
    rendered_content: `<p>${content}</p>`,
    timestamp: 1_700_000_000 + id,
    client: 'bench',
    is_me_message: false,
    edit_history: [],
    last_edit_timestamp: null,
    last_moved_timestamp: null,
    reactions: [],
    submessages: [],
  };
}

/** Runs `concurrency` loops of `put` until `seconds` have passed; returns the acknowledged puts and their latencies. */
async function saturate(
  seconds: number,
  concurrency: number,
  put: (n: number) => Promise<void>,
): Promise<{ count: number; elapsed: number; latencies: number[] }> {
  let count = 0;
  let n = 0;
  const latencies: number[] = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const began = performance.now();
        await put(n++);
        latencies.push(performance.now() - began);
        count++;
      }
    }),
  );
  return { count, elapsed: (performance.now() - start) / 1000, latencies };
}

export async function benchDurableWrites(opts: {
  messages: number;
  seconds: number;
  concurrency?: number;
  baselineSeconds?: number;
}): Promise<DurableWritesResult> {
  const concurrency = opts.concurrency ?? 64;
  const dir = await mkdtemp(join(tmpdir(), 'teamchat-bench-'));
  try {
    const fdatasync = await fdatasyncAlone(join(dir, 'probe'), 200);
    // Journal + snapshot, fsync durability.
    const path = join(dir, 'state.json');
    const seed = filePersistence({ path });
    const seeded = await seed.load();
    const realmChange: Change = { realm: 'bench', table: null, key: null, row: benchRealm(opts.messages) };
    applyChange(seeded, realmChange);
    seed.attach(() => seeded);
    await seed.append([realmChange]);
    await seed.close();

    const p = filePersistence({ path, durability: 'fsync' });
    const state = await p.load();
    p.attach(() => state);
    const stateBytes = (await stat(path)).size;
    const before = { ...p.stats };
    const run = await saturate(opts.seconds, concurrency, (n) => {
      const id = (n % opts.messages) + 1;
      const change: Change = { realm: 'bench', table: 'messages', key: String(id), row: message(id, n) };
      applyChange(state, change);
      return p.append([change]);
    });
    const journalWrites = p.stats.journalWrites - before.journalWrites;
    const tailLines = p.stats.tailLines - before.tailLines;
    const compactions = p.stats.snapshotWrites - before.snapshotWrites;
    const bytes = p.stats.journalBytes - before.journalBytes + (p.stats.snapshotBytes - before.snapshotBytes);
    await p.close();

    // Baseline: lowdb, the whole state rewritten per change (steno coalesces concurrent writes).
    const naivePath = join(dir, 'naive.json');
    const db = new Low<State>(new JSONFile<State>(naivePath), emptyState());
    applyChange(db.data, { realm: 'bench', table: null, key: null, row: benchRealm(opts.messages) });
    await db.write();
    let writeCalls = 0;
    const baselineSeconds = opts.baselineSeconds ?? Math.min(2, opts.seconds);
    const naive = await saturate(baselineSeconds, concurrency, async (n) => {
      const id = (n % opts.messages) + 1;
      applyChange(db.data, { realm: 'bench', table: 'messages', key: String(id), row: message(id, n) });
      writeCalls++;
      await db.write();
    });

    return {
      messages: opts.messages,
      concurrency,
      stateBytes,
      seconds: run.elapsed,
      acknowledged: run.count,
      writesPerSecond: Math.round(run.count / run.elapsed),
      latency: percentiles(run.latencies),
      fdatasync,
      tailLines,
      journalWrites,
      averageBatch: journalWrites > 0 ? Math.round((run.count / journalWrites) * 10) / 10 : 0,
      compactions,
      bytesPerWrite: Math.round(bytes / Math.max(1, run.count)),
      baseline: {
        seconds: naive.elapsed,
        acknowledged: naive.count,
        writesPerSecond: Math.round(naive.count / naive.elapsed),
        writeCalls,
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (name: string, fallback: number): number => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 && process.argv[i + 1] ? Number(process.argv[i + 1]) : fallback;
  };
  const result = await benchDurableWrites({
    messages: arg('messages', 10_000),
    seconds: arg('seconds', 5),
    concurrency: arg('concurrency', 64),
  });
  console.log(JSON.stringify(result, null, 2));
}
