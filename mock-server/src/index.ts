/**
 * The package's programmatic entry (`import { createMockServer } from 'teamchat-kit'`): what a test runner
 * needs to start a mock in-process and drive its control API, and nothing of the internals, so those can
 * move without breaking importers. README "Programmatic API" shows the use.
 */
export { createMockServer, type MockServer, type StartHooks } from './app.js';
export { DEFAULT_CONFIG, REFERENCE_RATE_LIMIT, type RateLimitSetting, type ServerConfig } from './config/config.js';
export { CURRENT_FEATURE_LEVEL, MIN_FEATURE_LEVEL } from './config/features.js';
export type { Control, Credential, RealmSummary } from './control/control.js';
export type { RateLimitState } from './faults/rate-limit.js';
