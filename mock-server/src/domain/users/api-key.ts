import { randomInt } from 'node:crypto';
import { indexOf, type IndexedTables } from '../../store/indexes.js';
import { authenticationFailed, userDeactivated } from '../errors.js';
import { verifyPassword } from '../passwords.js';

/**
 * API keys (spec §5: HTTP Basic with the API email and the key). How a client obtains one is "not
 * shown" in the spec; the reference server's POST /fetch_api_key exchanges an email and a password for
 * it, and the stock JavaScript client calls it when configured with a password (reference
 * "Compatibility with stock client libraries").
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_LENGTH = 32;

/** A fresh key: 32 alphanumeric characters (§5 "Malformed API key" otherwise), from the system's CSPRNG. */
export function newApiKey(): string {
  let key = '';
  for (let i = 0; i < KEY_LENGTH; i++) key += ALPHABET[randomInt(ALPHABET.length)];
  return key;
}

/** One text for an unknown user name and a wrong password, so the answer does not say which (the text is ours). */
const incorrect = authenticationFailed;

/**
 * POST /fetch_api_key, in the realm the request addresses (anonymous requests pick it by Host,
 * http/pipeline.ts). Checks in the reference server's order: an empty password matches nothing; the
 * user name is a delivery email of the realm, compared case-insensitively; bots (system bots included)
 * log in with keys only, so they never match; a deactivated account is told so before the password is
 * checked (the reference server does the same: 401 USER_DEACTIVATED `Account is deactivated`); an account
 * without a password, or a wrong password, does not match.
 */
export function fetchApiKey(
  tables: IndexedTables,
  username: string,
  password: string,
): { api_key: string; email: string; user_id: number } {
  if (password === '') throw incorrect();
  const id = indexOf(tables).people.withDeliveryEmail(username)[0];
  const user = id === undefined ? undefined : tables.users[String(id)];
  if (!user || user.is_bot) throw incorrect();
  if (!user.is_active) throw userDeactivated();
  if (user.password_hash === null || !verifyPassword(password, user.password_hash)) throw incorrect();
  // `email` is the API email, the user name of Basic authentication with this key.
  return { api_key: user.api_key, email: user.email, user_id: user.user_id };
}
