import type { JournalEntry, RequestSummary } from '../http/request-journal.js';

/**
 * The request journal's filter type and `expectRequest`'s matcher, shared by the in-process library
 * (mock-server/src/mock-requests.ts) and the HTTP control client (control/client.ts): pure, it imports nothing at
 * run time, so the client's bundle stays free of the mock (and small: the server-side filtering is in requests.ts).
 */

/** Which requests to list (`GET /__mock/realms/{id}/requests?…`); every field given must match. */
export interface RequestFilter {
  /** An operation ID of the document (`send-message`). */
  operation?: string;
  /** A user ID, or an email (any case). */
  user?: number | string;
  method?: string;
  /** A status (`429`), or a class of them (`'4xx'`). */
  status?: number | string;
  /** Realm time bounds (UNIX seconds, inclusive). */
  since?: number;
  until?: number;
  /** At most this many, the newest (the count still counts every match). */
  limit?: number;
}

/** What `expectRequest` looks for; `params` and `headers` match partially (what is named must be there and equal). */
export interface ExpectedRequest {
  operation?: string;
  user?: number | string;
  method?: string;
  /**
   * Values compare deeply (arrays item by item, objects by the keys named); a RegExp tests a string. A parameter
   * the document types as text (`to` of send-message) is journaled as sent: a list or number expected for it
   * compares with the JSON the text holds (`[11]` matches `"[11]"`).
   */
  params?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  status?: number;
}

/** Whether the request was made by `user`: an ID, or an email in any case. */
export const sameUser = (r: RequestSummary, user: number | string) =>
  typeof user === 'number' ? r.user_id === user : r.user !== null && r.user.toLowerCase() === user.toLowerCase();

/** One field that differs: its name (`params.to[0]`), what was expected and what the request had. */
type Difference = [field: string, expected: unknown, received: unknown];

/** How `entry` differs from `expected`, field by field (empty: it matches). */
export function differences(entry: JournalEntry, expected: ExpectedRequest): Difference[] {
  const out: Difference[] = [];
  const { operation, user, method, status, params, headers } = expected;
  if (operation !== undefined && entry.operation !== operation) out.push(['operation', operation, entry.operation]);
  if (method !== undefined && entry.method !== method.toUpperCase()) out.push(['method', method, entry.method]);
  if (user !== undefined && !sameUser(entry, user)) out.push(['user', user, typeof user === 'number' ? entry.user_id : entry.user]);
  if (status !== undefined && entry.status !== status) out.push(['status', status, entry.status]);
  if (params !== undefined) compare('params', params, entry.params, out);
  if (headers !== undefined) {
    const lower: Record<string, unknown> = {};
    for (const name of Object.keys(headers)) lower[name.toLowerCase()] = headers[name];
    compare('headers', lower, entry.headers, out);
  }
  return out;
}

function compare(field: string, want: unknown, sent: unknown, out: Difference[]): void {
  const got = asJson(want, sent);
  if (want instanceof RegExp) {
    if (typeof got !== 'string' || !want.test(got)) out.push([field, want, got]);
  } else if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length) out.push([field, want, sent]);
    else want.forEach((item, i) => compare(`${field}[${i}]`, item, got[i], out));
  } else if (isObject(want)) {
    if (!isObject(got) || Array.isArray(got)) out.push([field, want, sent]);
    else for (const key of Object.keys(want)) compare(`${field}.${key}`, want[key], Object.hasOwn(got, key) ? got[key] : undefined, out);
  } else if (want !== got) out.push([field, want, sent]);
}

/** Text sent for a value expected as a list, object, number or boolean: the JSON it holds, if it holds one. */
function asJson(want: unknown, got: unknown): unknown {
  if (typeof got !== 'string' || typeof want === 'string' || want === undefined || want instanceof RegExp) return got;
  try {
    return JSON.parse(got) as unknown;
  } catch {
    return got;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/**
 * The requests matching `expected`, and when they are not what was expected (none, or not exactly `times`) the
 * failure's text: the closest request (same operation first, then fewest differing fields, then the newest) and
 * how it differs, field by field.
 */
export function checkExpectation(
  entries: JournalEntry[],
  expected: ExpectedRequest,
  times?: number,
): { matched: JournalEntry[]; failure: string | null } {
  if (times !== undefined && !(Number.isSafeInteger(times) && times >= 0))
    return { matched: [], failure: `expectRequest: times must be a whole number, 0 or more; got ${show(times)}` };
  const scored = entries.map((entry) => ({ entry, diff: differences(entry, expected) }));
  const matched = scored.filter((s) => s.diff.length === 0).map((s) => s.entry);
  const wanted = show(expected);
  // None matched where some should: the closest one tells more than a count.
  if (times !== undefined && matched.length !== times && matched.length > 0) {
    const count = `${times} request${times === 1 ? '' : 's'}`;
    return { matched, failure: `expectRequest: expected ${count} matching ${wanted}, found ${matched.length}${ids(matched)}` };
  }
  if (matched.length > 0 || times === 0) return { matched, failure: null };
  // No match where some were expected (at least one, or `times`).
  const lines = [`expectRequest: no request matches ${wanted}`];
  if (entries.length === 0) return { matched, failure: `${lines[0]}\nthe realm's journal is empty` };
  const sameOp = expected.operation === undefined ? entries : entries.filter((e) => e.operation === expected.operation);
  if (sameOp.length === 0) lines.push(`no request of operation ${expected.operation} among ${entries.length} (${tally(entries)})`);
  const pool =
    expected.operation === undefined || sameOp.length === 0 ? scored : scored.filter((s) => s.entry.operation === expected.operation);
  const best = pool.reduce((a, b) => (b.diff.length <= a.diff.length ? b : a));
  const e = best.entry;
  lines.push(`closest: #${e.id} ${e.operation} ${e.method} ${e.path} by ${e.user ?? 'anonymous'} → ${e.status ?? 'no answer'}`);
  for (const [field, want, got] of best.diff) lines.push(`  ${field}: expected ${show(want)}, received ${show(got)}`);
  if (sameOp.length > 0 && expected.operation !== undefined)
    lines.push(`(${sameOp.length} of ${entries.length} requests are ${expected.operation})`);
  return { matched, failure: lines.join('\n') };
}

const ids = (entries: JournalEntry[]) => (entries.length === 0 ? '' : `: ${entries.map((e) => `#${e.id}`).join(', ')}`);

/** "get-events ×3, register-queue ×1", most frequent first. */
function tally(entries: JournalEntry[]): string {
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.operation, (counts.get(e.operation) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([op, n]) => `${op} ×${n}`)
    .join(', ');
}

/** A value as the failure shows it: JSON, cut to 120 characters; nothing for an absent one. */
function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value instanceof RegExp) return String(value);
  const text = JSON.stringify(value, (_k, v: unknown) => (v instanceof RegExp ? String(v) : v)) ?? String(value);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
