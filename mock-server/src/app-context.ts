import type { Clock } from './clock/clock.js';
import type { Scheduler } from './delivery/scheduler.js';
import type { QueueRegistry } from './events/registry.js';
import type { ServerConfig } from './config/config.js';
import type { FaultRules } from './faults/rules.js';
import type { RateLimits } from './faults/rate-limit.js';
import type { AnswerCache } from './http/answer-cache.js';
import type { ApiKeyIndex } from './http/auth.js';
import type { RequestJournal } from './http/request-journal.js';
import type { OperationSpec } from './http/openapi.js';
import type { Store } from './store/store.js';

/** The composition root's products, handed to every request (ARCHITECTURE.md "Layers"). */
export interface AppContext {
  config: ServerConfig;
  store: Store;
  clock: Clock;
  keys: ApiKeyIndex;
  /** Event queues, in memory only (§6). */
  queues: QueueRegistry;
  /** Delivery of scheduled messages and reminders on the realm clocks (spec §3, §4.19). */
  scheduler: Scheduler;
  operations: OperationSpec[];
  /** Fault rules per realm (control API "Fault rules"); `active` is false while no realm has one. */
  faults: FaultRules;
  /** Per realm, the last API requests, for tests to assert on (control/requests.ts). */
  requests: RequestJournal;
  /** Per-realm rate limits, off unless configured (faults/rate-limit.ts). */
  rateLimits: RateLimits;
  /** Answers of the reads that opt in (`defineRoute(id, { cache })`), per realm version, bounded by bytes. */
  answers: AnswerCache;
  /** Where the server listens, once it does (`http://127.0.0.1:9991`). */
  baseUrl: string;
}
