import type { Scenario } from '../../src/dsl.js';
import anonymous from './anonymous.js';
import capabilities from './capabilities.js';
import delivery from './delivery.js';
import levels from './levels.js';
import levelsLater from './levels-later.js';
import queues from './queues.js';
import registerKeys from './register-keys.js';
import registerParams from './register-params.js';

/** Scenarios of this area: register (§4.21), event queues and message delivery (§6) and the feature levels of §9. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const EVENTS: Scenario<any, any>[] = [
  ...registerKeys,
  ...registerParams,
  ...anonymous,
  ...capabilities,
  ...queues,
  ...levels,
  ...levelsLater,
  ...delivery,
];
