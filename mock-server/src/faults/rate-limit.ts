import type { Clock } from '../clock/clock.js';
import type { RateLimitSetting } from '../config/config.js';

/**
 * Real rate limiting, opt-in: the reference server's scheme, per realm, in realm time.
 *
 * What the reference does (zulip/zulip, read for this module):
 * - zerver/lib/rate_limiter.py `RedisRateLimiterBackend`: per user (`RateLimitedUser`, domain `api_by_user`) a
 *   list of the times of its last `max_api_calls` requests; a request is refused when the N-th newest is less
 *   than the window old (`is_ratelimited`), and then it is not recorded (a 429 spends no budget); the seconds to
 *   freedom are that time plus the window minus now, a float. After an admitted request `get_api_calls_left`
 *   answers remaining = limit − requests within the window, and reset = the newest request (this one) + window.
 * - zerver/middleware.py `RateLimitMiddleware.set_response_headers`, on every answer of a limited request,
 *   errors included: `X-RateLimit-Limit` (the rule's request count), `X-RateLimit-Remaining` (an integer),
 *   `X-RateLimit-Reset` = str(int(time.time() + secs_to_freedom)), an integer UNIX time.
 * - zerver/lib/exceptions.py `RateLimitedError`: 429 RATE_LIMIT_HIT, "API usage exceeded rate limit",
 *   `retry-after` in the body and `Retry-After` header, both the float secs_to_freedom (domain/errors.ts).
 * - zerver/decorator.py `authenticated_rest_api_view`: the limit applies after authentication and before the
 *   view, to every /api request with credentials (so a refused key gets no headers, a refused parameter does);
 *   zerver/lib/rest.py lets no anonymous /api request through rest_dispatch, so anonymous requests are not
 *   limited here either; zerver/views/auth.py `api_get_server_settings` is outside it, never limited.
 * - zproject/default_settings.py: the default rule is 200 requests per 60 s (config.ts REFERENCE_RATE_LIMIT);
 *   api_docs/http-headers.md documents the three headers and that default.
 * - zproject/computed_settings.py `RATE_LIMITING_DOMAINS_FOR_TORNADO`: the event queue's GET and DELETE /events
 *   (zproject/urls.py: served by Tornado) are limited by the same rule with buckets of their own, separate from
 *   every other request's. So here: `bucket` 'events' for those two operations, 'api' for the rest. (Tornado's
 *   in-memory backend approximates the window more loosely; the mock counts both buckets the same exact way.)
 *
 * Deliberate difference: a request exactly one window after the N-th newest is admitted (the reference refuses
 * it with 0 seconds to freedom), so a client honouring `Retry-After` against a frozen clock advanced by exactly
 * the answer's seconds never loops on a zero wait.
 */
export type RateBucket = 'api' | 'events';

/** What a limited realm answers about one request: the headers, and for a refused one the 429's seconds. */
export interface RateVerdict {
  limit: number;
  remaining: number;
  /** `X-RateLimit-Reset`: UNIX seconds (whole) after which the user could send a full burst again. */
  reset: number;
  /** Seconds to freedom (with a millisecond fraction) when refused; null when admitted. */
  retryAfter: number | null;
}

/** The state of a realm's limit, as the control API answers it. */
export interface RateLimitState {
  /** The realm's rule, or null for none. */
  rate_limit: RateLimitSetting | null;
  /** `server`: the server's option (`--rate-limit`, config `rateLimit`) applies; `realm`: set for this realm. */
  source: 'server' | 'realm';
  /** 429s this realm answered since its setting or state last changed. */
  rejected: number;
}

export class RateLimits {
  readonly #default: RateLimitSetting | null;
  /** Realms with a setting of their own (null: explicitly off). */
  readonly #own = new Map<string, RateLimitSetting | null>();
  readonly #windows = new Map<string, { api: Map<number, SlidingLog>; events: Map<number, SlidingLog> }>();
  readonly #rejected = new Map<string, number>();
  /**
   * Whether any realm may be limited: the pipeline's only check on the default path. False whenever no server
   * option is given and no realm set a rule of its own (a realm turned off under a server option keeps it true).
   */
  active: boolean;

  constructor(
    private readonly clock: Clock,
    serverDefault: RateLimitSetting | null,
  ) {
    this.#default = serverDefault && { ...serverDefault };
    this.active = this.#default !== null;
  }

  /** The rule that applies to a realm. */
  setting(realmId: string): RateLimitSetting | null {
    return this.#own.has(realmId) ? this.#own.get(realmId)! : this.#default;
  }

  state(realmId: string): RateLimitState {
    const rule = this.setting(realmId);
    return {
      rate_limit: rule && { ...rule },
      source: this.#own.has(realmId) ? 'realm' : 'server',
      rejected: this.#rejected.get(realmId) ?? 0,
    };
  }

  /** Gives a realm its own rule (null: none); windows start afresh under it. The caller validated it. */
  set(realmId: string, setting: RateLimitSetting | null): void {
    this.#own.set(realmId, setting && { requests: setting.requests, seconds: setting.seconds });
    this.#clear(realmId);
  }

  /**
   * A realm was created, replaced (reset, snapshot restored) or deleted: a new server state, so its windows,
   * count and own rule go; the server's option applies again (a test's tight limit never leaks into the next).
   */
  forgetRealm(realmId: string): void {
    if (!this.#own.delete(realmId) && !this.#windows.has(realmId) && !this.#rejected.has(realmId)) return;
    this.#clear(realmId);
  }

  /** Counts one request of a user against the realm's rule; null when the realm is not limited. */
  take(realmId: string, userId: number, bucket: RateBucket): RateVerdict | null {
    const rule = this.setting(realmId);
    if (!rule) return null;
    let windows = this.#windows.get(realmId);
    if (!windows) this.#windows.set(realmId, (windows = { api: new Map(), events: new Map() }));
    const logs = windows[bucket];
    let log = logs.get(userId);
    if (!log) logs.set(userId, (log = new SlidingLog()));
    const nowMs = this.clock.realmNowMs(realmId);
    const windowMs = rule.seconds * 1000;
    const freeInMs = log.take(nowMs, rule.requests, windowMs);
    if (freeInMs > 0) {
      this.#rejected.set(realmId, (this.#rejected.get(realmId) ?? 0) + 1);
      return { limit: rule.requests, remaining: 0, reset: Math.floor((nowMs + freeInMs) / 1000), retryAfter: freeInMs / 1000 };
    }
    return {
      limit: rule.requests,
      remaining: rule.requests - log.within(nowMs - windowMs),
      reset: Math.floor((nowMs + windowMs) / 1000),
      retryAfter: null,
    };
  }

  #clear(realmId: string): void {
    this.#windows.delete(realmId);
    this.#rejected.delete(realmId);
    this.active = this.#default !== null || [...this.#own.values()].some((s) => s !== null);
  }
}

/**
 * The times (realm ms) of a user's latest admitted requests, at most `requests` of them: a ring, oldest at
 * `#head` once full. Times only grow, so the ones within the window are found by binary search.
 */
class SlidingLog {
  #stamps: number[] = [];
  #head = 0;

  /** Admits and records a request at `nowMs` (answers 0), or answers the ms until one more is admitted. */
  take(nowMs: number, requests: number, windowMs: number): number {
    const size = this.#stamps.length;
    // The realm's clock was set back: the recorded times lie in its future, so start over.
    if (size > 0 && this.#at(size - 1) > nowMs) this.#reset();
    // A log is only ever filled under one rule: a realm's new rule starts new logs (RateLimits.set).
    if (this.#stamps.length === requests) {
      const freeAt = this.#at(0) + windowMs;
      if (freeAt > nowMs) return freeAt - nowMs;
      this.#stamps[this.#head] = nowMs;
      this.#head = (this.#head + 1) % requests;
    } else {
      this.#stamps.push(nowMs);
    }
    return 0;
  }

  /** How many recorded times are later than `sinceMs`. */
  within(sinceMs: number): number {
    const size = this.#stamps.length;
    let low = 0;
    let high = size;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.#at(mid) > sinceMs) high = mid;
      else low = mid + 1;
    }
    return size - low;
  }

  /** The i-th oldest recorded time. */
  #at(i: number): number {
    return this.#stamps[(this.#head + i) % this.#stamps.length]!;
  }

  #reset(): void {
    this.#stamps = [];
    this.#head = 0;
  }
}
