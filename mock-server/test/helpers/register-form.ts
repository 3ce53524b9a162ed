import { MODERN_CAPABILITIES } from '../../../conformance/src/explore/actors.js';

/**
 * A register form declaring every client capability (spec §4.21), so the snapshot and the events speak the
 * same dialect: the register/events invariant checks (events/invariant.test.ts, user-admin/support.ts) use it.
 * The capabilities are the ones explore's modern actors declare (one list).
 */
export const REGISTER_EVERY_CAPABILITY = {
  client_capabilities: JSON.stringify(MODERN_CAPABILITIES),
  include_subscribers: 'true',
  apply_markdown: 'true',
};

/**
 * A register form of a client that declares nothing (no client_capabilities, no other option): the legacy
 * shapes of the snapshot and the events, for the invariant checks' second kind of observer.
 */
export const REGISTER_NO_CAPABILITY: Readonly<Record<string, string>> = {};
