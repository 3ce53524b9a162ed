import { isSecretName } from '../../cli/secret-names.js';
import type { KeyVariable, ScenarioResult } from './model.js';

/**
 * Reports are published by CI, and the proxy sees real credentials (HTTP Basic, `api_key` fields, passwords of
 * user creation, keys in fetch_api_key answers): nothing the suite or the proxy prints or writes holds one. Every
 * recorded request and answer (`conform`'s client, the proxy's recorder) passes through here first. Names are
 * matched by cli/secret-names.ts, in any case or spelling (`api_key`, `apiKey`, `API-KEY`).
 */

export const REDACTED = '<redacted>';

/** Response headers never recorded nor handed to a scenario: they carry credentials or sessions. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set(['set-cookie', 'authorization', 'proxy-authorization']);

export function redactParams(params: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) out[k] = isSecretName(k) ? REDACTED : v;
  return out;
}

/** Path and query with secret query values replaced (`?api_key=…` → `?api_key=<redacted>`). */
export function redactPath(pathAndQuery: string): string {
  const at = pathAndQuery.indexOf('?');
  if (at < 0) return pathAndQuery;
  const query = new URLSearchParams(pathAndQuery.slice(at + 1));
  let changed = false;
  for (const key of new Set(query.keys()))
    if (isSecretName(key)) {
      query.set(key, REDACTED);
      changed = true;
    }
  return changed ? `${pathAndQuery.slice(0, at)}?${query.toString()}` : pathAndQuery;
}

/**
 * A JSON answer with every string under a secret name replaced, at any depth: the value itself, or every string
 * inside it (`"api_keys": ["…"]`). Numbers and booleans stay (`password_min_length` says nothing secret).
 */
export function redactBody(value: unknown, secret = false): unknown {
  if (typeof value === 'string') return secret ? REDACTED : value;
  if (Array.isArray(value)) return value.map((item) => redactBody(item, secret));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = redactBody(v, secret || isSecretName(k));
  return out;
}

/** Headers by lower-case name, one string each, without those named in `dropped` or with a secret name. */
export function redactHeaders(
  headers: Record<string, string | string[] | undefined>,
  dropped: ReadonlySet<string> = SECRET_HEADERS,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined && !dropped.has(k.toLowerCase()) && !isSecretName(k)) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
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

/**
 * The shell variable a curl line takes a role's API key from: `KEY_member`, `KEY_member_2`. Each request is
 * made as some user, so each line names whose key it needs; reports list what each variable stands for
 * (role and e-mail), never the key.
 */
export const keyVariable = (role: string): string => `KEY_${role.replace(/[^A-Za-z0-9_]/g, '_') || 'user'}`;

/** The API key variables the curl lines use (`$KEY_member`), each with the role and e-mails it stood for. */
export function keyVariables(results: readonly ScenarioResult[]): KeyVariable[] {
  const byVariable = new Map<string, KeyVariable>();
  for (const x of results.flatMap((r) => r.exchanges)) {
    if (x.as === null || !x.user) continue;
    const variable = keyVariable(x.as);
    const entry = byVariable.get(variable) ?? { variable, role: x.as, emails: [] };
    if (!entry.emails.includes(x.user)) entry.emails.push(x.user);
    byVariable.set(variable, entry);
  }
  return [...byVariable.values()].sort((a, b) => a.variable.localeCompare(b.variable));
}

/** A curl command repeating the request, the API key left as a variable (`$KEY_member`) so reports hold no secret. */
export function curlLine(
  base: string,
  method: string,
  pathAndQuery: string,
  form: Record<string, string> | null,
  user: string | null,
  /** The variable holding the caller's key (`keyVariable(role)`); the proxy, which knows no roles, uses API_KEY. */
  variable = 'API_KEY',
): string {
  const parts = ['curl', '-sS', '-X', method];
  if (user) parts.push('-u', shellQuote(`${user}:`) + `"$${variable}"`);
  for (const [k, v] of Object.entries(form ?? {})) parts.push('--data-urlencode', shellQuote(`${k}=${v}`));
  parts.push(shellQuote(base + pathAndQuery));
  return parts.join(' ');
}
