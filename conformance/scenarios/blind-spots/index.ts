import type { Scenario } from '../../src/dsl.js';
import derived from './derived.js';
import ids from './ids.js';
import ignored from './ignored.js';
import limits from './limits.js';
import readBack from './read-back.js';
import roles from './roles.js';
import visibility from './visibility.js';

/**
 * Kinds of faults a suite checking each rule once can still miss: length limits at
 * and past the limit, stale reads after updates, events and listings reaching users who may not see
 * them, per-role refusals, list order, id types, ignored parameters, and derived values against their
 * source. Every scenario owns its state (support.ts).
 */
export const BLIND_SPOTS: Scenario<any, any>[] = [...limits, ...readBack, ...visibility, ...derived, ...ids, ...ignored, ...roles]; // eslint-disable-line @typescript-eslint/no-explicit-any
