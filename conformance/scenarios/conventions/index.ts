import type { Scenario } from '../../src/dsl.js';
import envelope from './envelope.js';

/** §1 conventions that hold for every operation. */
export const CONVENTIONS: Scenario<any, any>[] = [...envelope]; // eslint-disable-line @typescript-eslint/no-explicit-any
