import { scryptSync, timingSafeEqual } from 'node:crypto';

/**
 * Password hashes as stored in `UserRow.password_hash`: `salt:hexhash`, scrypt with fixed parameters.
 * The cost parameters are fixed rather than stored, so changing them would invalidate every stored hash;
 * acceptable for a mock whose state is rebuilt from fixtures.
 */
const KEY_LENGTH = 32;
/** N = 2^12: cheap on purpose (about 8 ms), since tests create realms on demand and no real secret is stored. */
const COST = { N: 4096 };

export function hashPassword(password: string, salt: string): string {
  if (salt.includes(':')) throw new Error('password salt must not contain ":"');
  return `${salt}:${scryptSync(password, salt, KEY_LENGTH, COST).toString('hex')}`;
}

/** Constant-time comparison, so response timing does not reveal how much of a guess matched. */
export function verifyPassword(password: string, stored: string): boolean {
  const colon = stored.indexOf(':');
  if (colon <= 0) return false;
  const expected = Buffer.from(stored.slice(colon + 1), 'hex');
  if (expected.length !== KEY_LENGTH) return false;
  const actual = scryptSync(password, stored.slice(0, colon), KEY_LENGTH, COST);
  return timingSafeEqual(actual, expected);
}
