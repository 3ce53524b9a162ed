/**
 * The proxy sees real credentials (HTTP Basic, `api_key` fields, passwords of user creation, keys in
 * fetch_api_key answers). It forwards them untouched, and nothing it prints or writes holds one: every
 * value recorded for the console and the reports passes through here first.
 */

/** Parameter and field names whose values are secrets (the same names `conform`'s client redacts). */
const SECRET = /password|api_key|token|secret|cookie|authorization/i;
export const REDACTED = '<redacted>';

/** Response headers never recorded: they carry credentials or sessions. */
const SECRET_HEADERS = new Set(['set-cookie', 'authorization', 'proxy-authorization', 'cookie', 'www-authenticate']);

export function redactParams(params: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) out[k] = SECRET.test(k) ? REDACTED : v;
  return out;
}

/** Path and query with secret query values replaced (`?api_key=…` → `?api_key=<redacted>`). */
export function redactPath(pathAndQuery: string): string {
  const at = pathAndQuery.indexOf('?');
  if (at < 0) return pathAndQuery;
  const query = new URLSearchParams(pathAndQuery.slice(at + 1));
  let changed = false;
  for (const key of new Set(query.keys()))
    if (SECRET.test(key)) {
      query.set(key, REDACTED);
      changed = true;
    }
  return changed ? `${pathAndQuery.slice(0, at)}?${query.toString()}` : pathAndQuery;
}

/** A JSON answer with every secret-named string replaced, at any depth. */
export function redactBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactBody);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET.test(k) && typeof v === 'string' ? REDACTED : redactBody(v);
  return out;
}

export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined && !SECRET_HEADERS.has(k.toLowerCase())) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** The user an `Authorization: Basic` header names (its e-mail, never the key), or null. */
export function basicUser(header: string | undefined): string | null {
  const m = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : null;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A curl command repeating the request, the key left as $API_KEY (as `conform`'s reports do). */
export function curlLine(
  base: string,
  method: string,
  pathAndQuery: string,
  form: Record<string, string> | null,
  user: string | null,
): string {
  const parts = ['curl', '-sS', '-X', method];
  if (user) parts.push('-u', shellQuote(`${user}:`) + '"$API_KEY"');
  for (const [k, v] of Object.entries(form ?? {})) parts.push('--data-urlencode', shellQuote(`${k}=${v}`));
  parts.push(shellQuote(base + pathAndQuery));
  return parts.join(' ');
}
