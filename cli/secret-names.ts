/**
 * The one list of names whose values are secrets, read by everything that writes a request down: the mock's
 * request log and its inspector (mock-server/src/http/request-log.ts, inspector/view.ts), and the suite's and
 * the proxy's reports (conformance/src/redact.ts). Two lists drifted apart before: the request log missed
 * `token` (the control token of `GET /?token=…` stood in clear at debug), and the reports missed a camelCase
 * `apiKey`. Both the mock and the suite import this module, so it imports neither (ESLint).
 *
 * A name is compared without regard to case or separators (`api_key`, `apiKey`, `API-KEY` and `api key` are
 * one name), because clients spell parameters and headers every way and a server may accept them all.
 */

/** A name containing one of these (once normalised) is secret: `new_password`, `x-api-key`, `access_token`. */
const CONTAINED = ['password', 'passwd', 'apikey', 'token', 'secret', 'cookie', 'authorization'] as const;

/**
 * Secret only as the whole name: `key` (the control API's and zuliprc's word for an API key) would otherwise
 * hide `keys`, `monkey` or a bot-storage `key_count`.
 */
const WHOLE = ['key'] as const;

/** The names as the README lists them. */
export const SECRET_NAMES: readonly string[] = [...CONTAINED, ...WHOLE];

/** The name lower-cased without `_`, `-`, `.` or spaces: the form the lists above are written in. */
const normalised = (name: string): string => name.toLowerCase().replace(/[-_.\s]/g, '');

/** Whether a parameter, field, header or cookie of this name carries a secret. */
export function isSecretName(name: string): boolean {
  const n = normalised(name);
  return (WHOLE as readonly string[]).includes(n) || CONTAINED.some((part) => n.includes(part));
}
