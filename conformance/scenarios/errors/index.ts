import type { Scenario } from '../../src/dsl.js';
import adminRefusals from './admin-refusals.js';
import badRequest from './bad-request.js';
import channelOptions from './channel-options.js';
import codes from './codes.js';
import conventions from './conventions.js';
import failedScheduled from './failed-scheduled.js';
import limits from './limits.js';
import register from './register.js';
import statusRules from './status-rules.js';
import successChannels from './success-channels.js';
import successMessages from './success-messages.js';
import successPersonal from './success-personal.js';
import successScheduled from './success-scheduled.js';
import successUsers from './success-users.js';

/**
 * Every error code of spec §7 and limit of §8 (bad-request, status-rules, admin-refusals, codes,
 * limits), the success shape of each operation of §4 with the §2 fields it shows (success-*,
 * register), and the §1 conventions on unsupported parameters (conventions).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const ERRORS: Scenario<any, any>[] = [
  ...badRequest,
  ...statusRules,
  ...adminRefusals,
  ...codes,
  ...limits,
  ...conventions,
  ...successScheduled,
  failedScheduled,
  ...successMessages,
  ...successUsers,
  ...successChannels,
  ...channelOptions,
  ...successPersonal,
  ...register,
];
