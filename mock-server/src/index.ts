/**
 * The package's programmatic entry (`import { createMockServer } from 'teamchat-kit'`): what a test runner
 * needs to start a mock in-process and drive its control API, and nothing of the internals, so those can
 * move without breaking importers. README "Programmatic API" shows the use.
 */
export { createMockServer, type MockServer, type StartHooks } from './app.js';
export { DEFAULT_CONFIG, type ServerConfig } from './config/config.js';
export { CURRENT_FEATURE_LEVEL, MIN_FEATURE_LEVEL } from './config/features.js';
export type { Control, Credential, RealmSummary } from './control/control.js';
export type { FaultEffect, FaultPhase, FaultPreset, FaultRule, FaultRuleInput, NormalEffect, WireFault } from './faults/rules.js';
export type { ErrorOptions, FaultMatch, LatencyOptions, MockFaults, PhasedMatch } from './mock-faults.js';
