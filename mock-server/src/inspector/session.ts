import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { setCookie } from '../http/web-answers.js';

/**
 * Who may see the inspector: the page is the control API's web face and follows its rule.
 * Without a control token (loopback only, config.ts `controlExposure`) it is open. With one, a browser cannot
 * put `Authorization: Bearer` on a navigation or an EventSource, so the token is given once as `/?token=…`;
 * the server answers with an HttpOnly SameSite=Strict session cookie and a redirect to `/` (the token leaves
 * the address bar and the history). The cookie holds a random value drawn at start-up, never the token, and
 * dies with the process.
 *
 * The control API accepts the cookie only together with the header PAGE_HEADER, which the page's fetch calls
 * send: a cross-site form cannot add a header, and a cross-site script needs a CORS preflight the server never
 * grants, so the cookie alone (SameSite already keeps it off cross-site requests) cannot drive the control API.
 * The cookie has no `Secure` flag: the mock speaks plain HTTP (docs/security.md says to use a tunnel or TLS
 * proxy beyond a trusted network).
 */
export const SESSION_COOKIE = 'teamchat_inspector';
export const PAGE_HEADER = 'x-teamchat-inspector';

export class InspectorSession {
  readonly #token: Buffer | null;
  readonly #value: string | null;
  /** The cookie value's digest, what a given cookie is compared with (in constant time). */
  readonly #valueDigest: Buffer | null;

  constructor(token?: string) {
    this.#token = token ? digest(token) : null;
    this.#value = token ? randomBytes(32).toString('base64url') : null;
    this.#valueDigest = this.#value === null ? null : digest(this.#value);
  }

  /** A token is needed (the server has a control token). */
  get guarded(): boolean {
    return this.#token !== null;
  }

  /** The control token, compared in constant time (as the control API's bearer check). */
  tokenMatches(given: string): boolean {
    return this.#token !== null && timingSafeEqual(digest(given), this.#token);
  }

  /** The browser holds the session cookie (always true on an open server). */
  admits(req: Request): boolean {
    if (this.#valueDigest === null) return true;
    const given = cookieOf(req, SESSION_COOKIE);
    return given !== null && timingSafeEqual(digest(given), this.#valueDigest);
  }

  /** A control API call made by the page: the cookie and the page's header (see above). */
  readonly pageCall = (req: Request): boolean => this.#value !== null && req.headers[PAGE_HEADER] === '1' && this.admits(req);

  issue(res: Response): void {
    if (this.#value === null) return;
    setCookie(res, SESSION_COOKIE, this.#value, { httpOnly: true, sameSite: 'strict', path: '/' });
  }
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * One cookie's value from the Cookie header. express 5 parses no cookies without the cookie-parser middleware,
 * and this is the only cookie the server reads: a split on `;` for one name we set ourselves (base64url, so no
 * quoting or escaping to undo) is all the parsing it needs.
 */
function cookieOf(req: Request, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}
