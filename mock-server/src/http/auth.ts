import { basicAuthRequired, invalidApiKey, malformedApiKey, realmDeactivated, unauthorized, userDeactivated } from '../domain/errors.js';
import type { Store } from '../store/store.js';
import type { State, UserRow } from '../store/state.js';

/** Who is calling: a user (or bot) of one realm; the realm comes with the credentials (ARCHITECTURE). */
export interface Actor {
  realmId: string;
  user: UserRow;
}

/** API key → owner. Keys are unique across realms, so the key alone selects the realm. */
export class ApiKeyIndex {
  #byKey = new Map<string, { realmId: string; userId: number }>();

  constructor(store: Store) {
    this.#rebuild(store.state);
    store.watch((change, previous) => {
      if (change.table === null) {
        // A realm was created, replaced or removed: cheaper to rebuild than to diff.
        this.#rebuild(store.state);
      } else if (change.table === 'users') {
        const old = previous as UserRow | undefined;
        if (old) this.#byKey.delete(old.api_key);
        const row = change.row as UserRow | null;
        if (row) this.#byKey.set(row.api_key, { realmId: change.realm, userId: row.user_id });
      }
    });
  }

  lookup(key: string): { realmId: string; userId: number } | undefined {
    return this.#byKey.get(key);
  }

  /**
   * Authorization headers already decoded (text → email and well-formed key): clients send the same
   * header with every request, so decoding is a map lookup after the first. Only the decoding is kept:
   * who owns the key, and whether the account is active, is looked up on every request.
   */
  readonly decoded = new Map<string, Credentials>();

  #rebuild(state: Readonly<State>): void {
    this.#byKey.clear();
    for (const [realmId, realm] of Object.entries(state.realms)) {
      for (const user of Object.values(realm.users)) this.#byKey.set(user.api_key, { realmId, userId: user.user_id });
    }
  }
}

const API_KEY = /^[A-Za-z0-9]{32}$/;

/**
 * HTTP Basic authentication (spec §5) with the reference server's answers, in its order (the spec fixes no
 * status or code; reference rest-error-handling): no header → 401 UNAUTHORIZED; not Basic → 400; unreadable →
 * 401 UNAUTHORIZED; malformed key → 401 INVALID_API_KEY; unknown key or an email that is not the key owner's →
 * 401 INVALID_API_KEY; deactivated organization → 401 REALM_DEACTIVATED, then deactivated account → 401
 * USER_DEACTIVATED.
 * Returns null when there is no Authorization header at all (the caller decides whether anonymous
 * access is allowed for the operation).
 */
export function authenticate(header: string | undefined, store: Store, keys: ApiKeyIndex): Actor | null {
  if (header === undefined || header === '') return null;
  let credentials = keys.decoded.get(header);
  if (!credentials) {
    credentials = decodeHeader(header);
    // Bounded: a client cycling through keys only costs the decoding again.
    if (keys.decoded.size >= DECODED_HEADERS_KEPT) keys.decoded.clear();
    keys.decoded.set(header, credentials);
  }
  const owner = keys.lookup(credentials.key);
  const user = owner ? store.realm(owner.realmId)?.users[owner.userId] : undefined;
  if (!owner || !user || user.email.toLowerCase() !== credentials.email) throw invalidApiKey();
  if (store.realm(owner.realmId)?.realm.realm.deactivated === true) throw realmDeactivated();
  if (!user.is_active) throw userDeactivated();
  return { realmId: owner.realmId, user };
}

/**
 * Who an Authorization header names when `authenticate` refused it for a deactivated account or organization (the
 * header was decoded and its key found by then): the request journal shows such attempts in their realm. null
 * for every other refusal, whose credentials name no one.
 */
export function refusedCaller(header: string | undefined, error: unknown, store: Store, keys: ApiKeyIndex): Actor | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'USER_DEACTIVATED' && code !== 'REALM_DEACTIVATED') return null;
  const credentials = header === undefined ? undefined : keys.decoded.get(header);
  const owner = credentials && keys.lookup(credentials.key);
  const user = owner ? store.realm(owner.realmId)?.users[owner.userId] : undefined;
  return owner && user ? { realmId: owner.realmId, user } : null;
}

interface Credentials {
  /** Lower case: compared without regard to case. */
  email: string;
  key: string;
}

const DECODED_HEADERS_KEPT = 1024;

/** The header's syntax checks, in the reference server's order; throws its errors. */
function decodeHeader(header: string): Credentials {
  const parts = header.trim().split(/\s+/);
  if (parts[0]?.toLowerCase() !== 'basic') {
    throw basicAuthRequired();
  }
  if (parts.length !== 2) throw unauthorized('Invalid authorization header for basic auth');
  const decoded = decodeBase64(parts[1]!);
  const colon = decoded?.indexOf(':') ?? -1;
  if (decoded === null || colon < 0) throw unauthorized('Invalid authorization header for basic auth');
  const key = decoded.slice(colon + 1);
  if (!API_KEY.test(key)) throw malformedApiKey();
  return { email: decoded.slice(0, colon).toLowerCase(), key };
}

export const notLoggedIn = () => unauthorized('Not logged in: API authentication or user session required');

/** Strict, like the reference server's b64decode(...).decode(): padded base64 of valid UTF-8. */
function decodeBase64(text: string): string | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(text, 'base64'));
  } catch {
    return null;
  }
}
