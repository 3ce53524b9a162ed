import { CHANNEL_LISTS } from './channels.js';
import type { Row, Snapshot } from './rows.js';
import { REDUCER_STATE } from './unread.js';

/**
 * Keys that differ between two registers for reasons other than state (a new queue, the time), and a
 * stable order for lists a client keeps as sets. is_recently_active and stream_weekly_traffic are traffic
 * statistics that the reference server refreshes by a periodic job, not by events, so no client can
 * follow them from events alone. presence_last_update_id is a polling cursor, like server_timestamp: no
 * presence event carries it (clients read it from update-presence answers).
 *
 * With `reduced` (the snapshot applyEvents gave), keys it no longer has are left out too: a reducer
 * removes a key it cannot follow from events (`max_message_id` after the newest message was deleted), so
 * `comparable(fresh, reduced)` does not judge it.
 *
 * A new snapshot, which shares with `snapshot` every value it does not change (neither is to be mutated): the
 * events oracle makes two per actor judged and step, and a deep copy of each was most of their cost.
 */
export function comparable(snapshot: Snapshot, reduced?: Snapshot): Snapshot {
  const {
    queue_id: _q,
    last_event_id: _l,
    server_timestamp: _t,
    presence_last_update_id: _p,
    result: _r,
    msg: _m,
    [REDUCER_STATE]: _reducer,
    ...rest
  } = snapshot;
  if (reduced) for (const key of Object.keys(rest)) if (!(key in reduced)) delete rest[key];
  for (const key of CHANNEL_LISTS) {
    const list = rest[key];
    if (!Array.isArray(list)) continue;
    rest[key] = (list as unknown[])
      .map((row) => (isObject(row) ? withoutTraffic(row) : row))
      .sort((a, b) => ((a as Row)?.stream_id as number) - ((b as Row)?.stream_id as number));
  }
  return rest;
}

function withoutTraffic(row: Row): Row {
  const { is_recently_active: _active, stream_weekly_traffic: _traffic, ...rest } = row;
  return rest;
}

export interface SnapshotDifference {
  path: string;
  expected: unknown;
  actual: unknown;
}

/** The fields that name a row of a list, tried in this order: the first that names every row of both sides once wins. */
const ROW_KEYS: readonly (readonly string[])[] = [
  ['stream_id'],
  ['stream_id', 'topic'],
  ['stream_id', 'topic_name'],
  ['user_id'],
  ['id'],
  ['scheduled_message_id'],
  ['reminder_id'],
  ['fragment'],
  ['other_user_id'],
  ['user_ids_string'],
  ['user_ids'],
];

const isObject = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
const label = (row: Row, key: readonly string[]) =>
  key.map((k) => `${k}=${Array.isArray(row[k]) ? (row[k] as unknown[]).join(',') : String(row[k])}`).join(',');

function rowKeyOf(a: unknown[], b: unknown[]): readonly string[] | undefined {
  if (![...a, ...b].every(isObject)) return undefined;
  const both = [a as Row[], b as Row[]];
  return ROW_KEYS.find((key) =>
    both.every((list) => {
      if (!list.every((row) => key.every((k) => k in row))) return false;
      return new Set(list.map((row) => label(row, key))).size === list.length;
    }),
  );
}

const member = (path: string, key: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`);

function walk(path: string, expected: unknown, actual: unknown, out: SnapshotDifference[], limit: number): void {
  if (out.length >= limit) return;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const key = expected.length + actual.length > 0 ? rowKeyOf(expected, actual) : undefined;
    if (!key) {
      if (expected.length !== actual.length && !expected.some(isObject)) return void out.push({ path, expected, actual });
      for (let i = 0; i < Math.max(expected.length, actual.length); i++) walk(`${path}[${i}]`, expected[i], actual[i], out, limit);
      return;
    }
    const theirs = new Map((actual as Row[]).map((row) => [label(row, key), row]));
    const ours = new Map((expected as Row[]).map((row) => [label(row, key), row]));
    for (const [name, row] of ours) walk(`${path}[${name}]`, row, theirs.get(name), out, limit);
    for (const [name, row] of theirs) if (!ours.has(name)) walk(`${path}[${name}]`, undefined, row, out, limit);
    const order = (list: Row[]) => list.map((row) => label(row, key));
    if (out.length < limit && String(order(expected as Row[])) !== String(order(actual as Row[])) && ours.size === theirs.size)
      out.push({ path: `${path} (order)`, expected: order(expected as Row[]), actual: order(actual as Row[]) });
    return;
  }
  if (isObject(expected) && isObject(actual)) {
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)]))
      if (!(key in actual) || !(key in expected) || !same(expected[key], actual[key]))
        walk(member(path, key), expected[key], actual[key], out, limit);
    return;
  }
  if (!same(expected, actual)) out.push({ path, expected, actual });
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b) || deepEqual(a, b);
}

/**
 * Key order does not matter (JSON objects are unordered, and a member set to undefined is absent); list order
 * does. One walk, no stringify below: rows a reducer built list their keys in another order than the server's.
 */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => deepEqual(v, (b as unknown[])[i]));
  const keys = definedKeys(a as Row);
  return keys.length === definedKeys(b as Row).length && keys.every((k) => deepEqual((a as Row)[k], (b as Row)[k]));
}

function definedKeys(row: Row): string[] {
  return Object.keys(row).filter((k) => row[k] !== undefined);
}

/**
 * The first `limit` differences between two (comparable) snapshots, each named by a readable path: members
 * by name, rows of a list by the fields that name them (`subscriptions[stream_id=12].subscriber_count`,
 * `unread_msgs.streams[stream_id=12,topic=lunch].unread_message_ids`), other list items by index. A row
 * on one side only is one difference (its `expected` or `actual` undefined); the same rows in another
 * order are one difference at `<list> (order)`.
 */
export function snapshotDiff(expected: Snapshot, actual: Snapshot, limit = 20): SnapshotDifference[] {
  const out: SnapshotDifference[] = [];
  for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    if (out.length >= limit) break;
    if (!(key in expected) || !(key in actual) || !same(expected[key], actual[key]))
      walk(member('', key).replace(/^\./, ''), expected[key], actual[key], out, limit);
  }
  return out;
}
