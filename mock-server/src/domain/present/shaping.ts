import type { ShapingKeys } from '../../contract/event-types.js';

/**
 * Presenters build an object once for every reader, with `_` keys saying what may differ per reader
 * (contract/event-types.ts ShapingKeys); a per-reader view decides those fields and drops the keys.
 */
export type Unshaped<T> = { [K in keyof T as K extends `_${string}` ? never : K]: T[K] };

/**
 * A copy of `value` without its `_` keys. Which keys go is decided at run time by their prefix, which the
 * compiler cannot follow through `delete`, so the result's type is stated here, once, for every caller.
 */
export function unshaped<T extends Record<string, unknown>>(value: T): Unshaped<T> {
  const out: Record<string, unknown> = { ...value };
  for (const key of Object.keys(out)) if (key.startsWith('_')) delete out[key];
  return out as Unshaped<T>;
}

export type { ShapingKeys };
