import type { Control } from './control/control.js';
import { checkExpectation, type ExpectedRequest, type RequestFilter } from './control/request-match.js';
import type { JournalEntry } from './http/request-journal.js';

/**
 * The request journal as `createMockServer()`'s library API (docs/library-api.md "Request journal"): what a test's
 * app sent, to assert on. In the default realm unless one is named.
 */
export interface MockRequests {
  /** The requests the realm received (the newest 1,000 at most), oldest first, matching `filter`. */
  requests(filter?: RequestFilter, realmId?: string): JournalEntry[];
  /**
   * The requests matching `expected`: at least one, or exactly `options.times`. Otherwise throws an Error naming the
   * closest request (same operation first, then the fewest differing fields) and how it differs, field by field.
   */
  expectRequest(expected: ExpectedRequest, options?: ExpectRequestOptions): JournalEntry[];
}

export interface ExpectRequestOptions {
  /** Exactly this many must match (0: none may). */
  times?: number;
  /** The realm (default: the server's default realm). */
  realm?: string;
}

export function mockRequests(control: Control, defaultRealm: string): MockRequests {
  const expectRequest: MockRequests['expectRequest'] = (expected, options = {}) => {
    const { matched, failure } = checkExpectation(control.requests(options.realm ?? defaultRealm).requests, expected, options.times);
    if (failure === null) return matched;
    const error = new Error(failure);
    // The stack starts at the test's call, not in here.
    Error.captureStackTrace(error, expectRequest);
    throw error;
  };
  return { requests: (filter = {}, realmId = defaultRealm) => control.requests(realmId, filter).requests, expectRequest };
}
