import { CURRENT_FEATURE_LEVEL, MIN_FEATURE_LEVEL } from '../config/features.js';
import { badRequest, realmNotFound } from '../domain/errors.js';
import type { RealmState } from '../store/state.js';
import type { Store } from '../store/store.js';

/** Checks of the control operations' time and feature-level arguments: a bad value is a 400 naming its range. */

/** 9999-12-31T23:59:59Z: later times cannot be shown as HTTP dates (the Date header) or JS dates. */
export const MAX_REALM_TIME = 253_402_300_799;

export function checkEpoch(epoch: number | undefined): number | undefined {
  if (epoch !== undefined && (!Number.isSafeInteger(epoch) || epoch < 0 || epoch > MAX_REALM_TIME)) {
    throw badRequest(`epoch must be a UNIX time in seconds from 0 to ${MAX_REALM_TIME}.`);
  }
  return epoch;
}

export function checkSeconds(seconds: number): void {
  if (!(seconds >= 0) || seconds > MAX_REALM_TIME) throw badRequest(`seconds must be a number from 0 to ${MAX_REALM_TIME}.`);
}

export function checkLevel(level: number): number {
  if (!Number.isInteger(level) || level < MIN_FEATURE_LEVEL || level > CURRENT_FEATURE_LEVEL) {
    throw badRequest(`feature_level must be an integer from ${MIN_FEATURE_LEVEL} to ${CURRENT_FEATURE_LEVEL}.`);
  }
  return level;
}

/** The realm a control operation names, or 404 NOT_FOUND: every control call about a realm starts here. */
export function realmTables(store: Pick<Store, 'realm'>, realmId: string): RealmState {
  const tables = store.realm(realmId);
  if (!tables) throw realmNotFound(realmId);
  return tables;
}
