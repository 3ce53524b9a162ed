import type { Operation } from './invariant-operations.js';

/** Issue 6 operations for the register/events invariant (invariant.test.ts runs them after the others, in order). */
export const LINKIFIER_OPERATIONS: Operation[] = [];
