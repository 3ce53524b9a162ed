import { realmTables } from './checks.js';
import type { AppContext } from '../app-context.js';
import { badRequest, clipped } from '../domain/errors.js';
import type { JournalEntry, RequestSummary } from '../http/request-journal.js';
import { sameUser, type RequestFilter } from './request-match.js';

/**
 * `GET` and `DELETE /__mock/realms/{id}/requests` (`Control.requests`, `Control.clearRequests`): the realm's
 * request journal (http/request-journal.ts), filtered. The filter comes typed from the library and as query text
 * from the HTTP route: both are read here, and a value that is neither is a 400 naming the field.
 */
export interface RequestList {
  /** The matching requests, oldest first; with `limit`, only the newest that many. */
  requests: JournalEntry[];
  /** Every matching request, whatever `limit` kept. */
  count: number;
}

const FIELDS = new Set(['operation', 'user', 'method', 'status', 'since', 'until', 'limit']);

export function listRequests(app: AppContext, realmId: string, raw: RequestFilter | Record<string, unknown> = {}): RequestList {
  realmTables(app.store, realmId);
  const filter = readFilter(app, raw);
  const matching = app.requests.list(realmId).filter((r) => matchesFilter(r, filter));
  const shown = filter.limit === undefined ? matching : matching.slice(Math.max(0, matching.length - filter.limit));
  return { requests: shown.map((r) => app.requests.present(r)), count: matching.length };
}

export function clearRequests(app: AppContext, realmId: string): void {
  realmTables(app.store, realmId);
  app.requests.clear(realmId);
}

/** Every field given must match. */
function matchesFilter(r: RequestSummary, f: RequestFilter): boolean {
  return (
    (f.operation === undefined || r.operation === f.operation) &&
    (f.user === undefined || sameUser(r, f.user)) &&
    (f.method === undefined || r.method === f.method.toUpperCase()) &&
    (f.status === undefined || sameStatus(r.status, f.status)) &&
    (f.since === undefined || r.at >= f.since) &&
    (f.until === undefined || r.at <= f.until)
  );
}

function sameStatus(status: number | null, wanted: number | string): boolean {
  if (status === null) return false;
  return typeof wanted === 'number' ? status === wanted : String(status)[0] === wanted[0];
}

/** The filter's values checked (numbers may come as text from a query string); unknown names are refused too. */
function readFilter(app: AppContext, raw: RequestFilter | Record<string, unknown>): RequestFilter {
  const filter: RequestFilter = {};
  for (const [name, value] of Object.entries(raw)) {
    // A query parameter given twice: the last one, as the API reads forms.
    const given: unknown = Array.isArray(value) ? (value as unknown[]).at(-1) : value;
    if (given === undefined || given === null || given === '') continue;
    if (!FIELDS.has(name)) throw badRequest(`Unknown filter: ${name} (known: ${[...FIELDS].join(', ')}).`);
    if (name === 'operation') filter.operation = operation(app, given);
    else if (name === 'user') filter.user = user(given);
    else if (name === 'method') filter.method = method(given);
    else if (name === 'status') filter.status = status(given);
    else if (name === 'limit') filter.limit = count(given);
    else filter[name as 'since' | 'until'] = time(name, given);
  }
  // Inverted bounds match nothing: a swapped pair, told as such rather than answered with an empty list.
  if (filter.since !== undefined && filter.until !== undefined && filter.since > filter.until) {
    throw badRequest(`since (${filter.since}) is later than until (${filter.until}).`);
  }
  return filter;
}

/** An unknown operation is a typo more often than a question: it would silently match nothing. */
function operation(app: AppContext, value: unknown): string {
  if (typeof value === 'string' && app.operations.some((op) => op.operationId === value)) return value;
  throw badRequest(`operation must be an operation ID of the document (send-message); got ${shown(value)}.`);
}

/** A refused value as the error names it: enough to spot the typo, never a whole 60 KiB query echoed back. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  const cut = clipped(text);
  return cut !== text && text.startsWith('"') ? `${cut}"` : cut;
}

function user(value: unknown): number | string {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  if (typeof value === 'string' && value.includes('@')) return value;
  throw badRequest('user must be a user ID or an email.');
}

function method(value: unknown): string {
  if (typeof value === 'string' && /^[A-Za-z]{1,10}$/.test(value)) return value.toUpperCase();
  throw badRequest('method must be an HTTP method (GET, POST, PATCH, PUT, DELETE).');
}

function status(value: unknown): number | string {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n === 'number' && Number.isInteger(n) && n >= 100 && n <= 599) return n;
  if (typeof n === 'string' && /^[1-5]xx$/i.test(n)) return n.toLowerCase();
  throw badRequest('status must be an HTTP status (429) or a class of them (4xx).');
}

function count(value: unknown): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 0) return n;
  throw badRequest('limit must be a whole number, 0 or more.');
}

function time(name: string, value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n === 'number' && Number.isFinite(n) && n >= 0) return n;
  throw badRequest(`${name} must be a realm time in UNIX seconds.`);
}
