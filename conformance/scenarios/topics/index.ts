import type { Scenario } from '../../src/dsl.js';
import events from './events.js';
import failed from './failed.js';
import history from './history.js';
import levels from './levels.js';
import messages from './messages.js';
import names from './names.js';
import policy from './policy.js';
import scheduled from './scheduled.js';
import scheduling from './scheduling.js';

/**
 * Topic rules and messages: §1 topic names, topics_policy (§2.2, §3, §4.16), protected history (§4.11,
 * §4.3), scheduled messages (§4.1, §4.2), fetch, render, report, reminders and mark-as-read, and the
 * level boundaries 184, 248, 334 and 370 (§9), and message events (by capability, all_public_streams,
 * narrows, bots).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const TOPICS: Scenario<any, any>[] = [
  ...names,
  ...levels,
  ...policy,
  ...history,
  ...scheduling,
  ...scheduled,
  ...failed,
  ...messages,
  ...events,
];
