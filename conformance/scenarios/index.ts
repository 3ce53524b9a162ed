import type { Scenario } from '../src/dsl.js';
import { BLIND_SPOTS } from './blind-spots/index.js';
import { COMPANION } from './companion/index.js';
import { CONVENTIONS } from './conventions/index.js';
import { COVERAGE } from './coverage/index.js';
import { ERRORS } from './errors/index.js';
import { EVENTS } from './events/index.js';
import { PERMISSIONS } from './permissions/index.js';
import { TOPICS } from './topics/index.js';

/**
 * Every scenario of the suite, by area (one index per area folder): the spec tier, then the companion
 * tier, whose scenarios are marked here so that no scenario module has to say it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const SCENARIOS: Scenario<any, any>[] = [
  ...CONVENTIONS,
  ...PERMISSIONS,
  ...TOPICS,
  ...EVENTS,
  ...ERRORS,
  ...COVERAGE,
  ...BLIND_SPOTS,
  ...COMPANION.map((s) => ({ ...s, tier: 'companion' as const })),
];
