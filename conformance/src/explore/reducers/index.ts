/** Temporary entry point (replaced by the reducers module). */
export { applyEvents, comparable } from './apply-events.js';
export type { Snapshot } from './snapshot-rows.js';
export type PolledEvent = Record<string, unknown> & { type: string };
import { isDeepStrictEqual } from 'node:util';
/** Temporary: the first differences, by path. */
export function snapshotDiff(
  expected: unknown,
  actual: unknown,
  limit = 10,
  path = '',
): { path: string; expected: unknown; actual: unknown }[] {
  if (isDeepStrictEqual(expected, actual)) return [];
  if (
    expected &&
    actual &&
    typeof expected === 'object' &&
    typeof actual === 'object' &&
    Array.isArray(expected) === Array.isArray(actual)
  ) {
    const out: { path: string; expected: unknown; actual: unknown }[] = [];
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const key of keys) {
      out.push(
        ...snapshotDiff(
          (expected as Record<string, unknown>)[key],
          (actual as Record<string, unknown>)[key],
          limit,
          Array.isArray(expected) ? `${path}[${key}]` : path ? `${path}.${key}` : key,
        ),
      );
      if (out.length >= limit) return out.slice(0, limit);
    }
    return out;
  }
  return [{ path, expected, actual }];
}
