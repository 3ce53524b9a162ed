/**
 * How deep a JSON value may nest where the server reads one (JSON-encoded API parameters, control bodies):
 * generous for real clients (the deepest the API defines is a handful of levels), and far below what the
 * recursive code downstream (validation, x-strip, presenters, JSON.stringify of answers and events) can
 * walk without overflowing the stack: 20,000 nested arrays in an injected event used to make every later
 * answer that showed it a 500, and the inspector's push an uncaught exception.
 */
export const MAX_JSON_DEPTH = 100;

/**
 * Whether `value` nests arrays or objects more than `limit` levels deep (a scalar is level 0, `[1]` level 1).
 * Iterative, so a value of any depth is measured without recursion; stops at the first level too deep.
 */
export function nestedDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  // Two parallel stacks rather than a pair object per value: a realm export given to the control API is
  // measured too, hundreds of thousands of objects.
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const item = values.pop();
    const depth = depths.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= limit) return true;
    for (const inner of Array.isArray(item) ? item : Object.values(item)) {
      if (inner !== null && typeof inner === 'object') {
        values.push(inner);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** The same check on a JSON text about to be parsed: no value nests deeper than its length in characters. */
export const mayNestDeeperThan = (text: string, limit: number = MAX_JSON_DEPTH): boolean => text.length > limit * 2;
