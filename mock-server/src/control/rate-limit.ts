import { realmTables } from './checks.js';
import type { AppContext } from '../app-context.js';
import { rateLimitProblem, type RateLimitSetting } from '../config/config.js';
import { badRequest } from '../domain/errors.js';
import type { RateLimitState } from '../faults/rate-limit.js';

/**
 * A realm's rate limit through the control API (`GET`/`PUT /__mock/realms/{id}/rate-limit`, `Control.rateLimit`,
 * `Control.setRateLimit`). A realm's own rule lasts until the realm is reset, restored or replaced: that is a new
 * server state, where the server's option (`--rate-limit`) applies again.
 */
export function rateLimitOf(app: AppContext, realmId: string): RateLimitState {
  realmTables(app.store, realmId);
  return app.rateLimits.state(realmId);
}

/** Sets a realm's rule (null: no limit, whatever the server's option); every user's window starts afresh. */
export function changeRateLimit(app: AppContext, realmId: string, setting: RateLimitSetting | null): RateLimitState {
  realmTables(app.store, realmId);
  if (setting !== null) {
    if (typeof setting !== 'object') throw badRequest('Give the rate limit as {requests, seconds}, or {off: true} for none.');
    const problem = rateLimitProblem(setting);
    if (problem) throw badRequest(problem);
  }
  app.rateLimits.set(realmId, setting);
  return app.rateLimits.state(realmId);
}

/** The wire form of `PUT …/rate-limit`: `{requests, seconds}`, or `{off: true}` for none. */
export function rateLimitFromWire(off: unknown, requests: number | undefined, seconds: number | undefined): RateLimitSetting | null {
  const isOff = off === true || off === 'true';
  if (off !== undefined && !isOff) throw badRequest('off must be true (or left out, with requests and seconds).');
  if (isOff && (requests !== undefined || seconds !== undefined))
    throw badRequest('Give either off: true or requests and seconds, not both.');
  if (isOff) return null;
  if (requests === undefined || seconds === undefined)
    throw badRequest('Give the rate limit as {requests, seconds} (e.g. {"requests": 200, "seconds": 60}), or {off: true} for none.');
  return { requests, seconds };
}
