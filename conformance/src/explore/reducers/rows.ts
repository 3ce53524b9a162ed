/**
 * What every reducer shares: the snapshot and event types, and the row helpers a client uses to keep the
 * lists of its register snapshot. Events are parsed JSON from any server, so fields are read defensively:
 * the response schema checks hold a server to the document, the reducers only follow what arrived.
 */

/** A register answer (POST /register), as JSON. */
export type Snapshot = Record<string, unknown>;
/** An event as GET /events' JSON gives it. */
export type PolledEvent = Record<string, unknown> & { type: string };
export type Row = Record<string, unknown>;

/**
 * What a client knows about its own registration besides the snapshot's keys. `includeSubscribers`:
 * whether the snapshot's channel rows carry `subscribers` (register's include_subscribers).
 */
export interface ReduceContext {
  includeSubscribers: boolean;
}

export type Reducer = (s: Snapshot, e: PolledEvent, ctx: ReduceContext) => void;
export type Reducers = Readonly<Record<string, Reducer>>;

/** Thrown for an event type, or an op of a known type, that no reducer follows. */
export class UnknownEvent extends Error {
  override readonly name = 'UnknownEvent';
  constructor(
    readonly eventType: string,
    readonly op: string | undefined,
  ) {
    super(`no reducer for the event ${op === undefined ? `type '${eventType}'` : `'${eventType}' / '${op}'`}`);
  }
}

/** For an op no reducer handles. */
export function unhandled(e: PolledEvent): never {
  throw new UnknownEvent(e.type, typeof e.op === 'string' ? e.op : String(e.op));
}

export const rows = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : []);
export const numbers = (value: unknown): number[] => (Array.isArray(value) ? (value as number[]) : []);
export const byKey = (list: unknown, key: string) => new Map(rows(list).map((row) => [row[key], row]));
export const ascending = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);
/** Strings in code-unit order, as the server sorts them (not localeCompare, which depends on the machine). */
export const byText = (a: unknown, b: unknown) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);

/** The event's list form or its legacy single form (`stream_ids` / `stream_id`, `message_ids` / `message_id`). */
export function idsOf(e: PolledEvent, plural: string, singular: string): number[] {
  if (Array.isArray(e[plural])) return e[plural] as number[];
  return typeof e[singular] === 'number' ? [e[singular]] : [];
}

export function upsertAll(snapshot: Snapshot, field: string, key: string, list: Row[]): void {
  const map = byKey(snapshot[field], key);
  for (const row of list) map.set(row[key], row);
  snapshot[field] = [...map.values()];
}

export function removeOne(snapshot: Snapshot, field: string, key: string, id: unknown): void {
  if (!(field in snapshot)) return;
  snapshot[field] = rows(snapshot[field]).filter((row) => row[key] !== id);
}

/**
 * Keys a reducer cannot follow from events (the newest message a user still has after a deletion, …) are
 * removed from the reduced snapshot: `comparable(fresh, reduced)` then leaves them out of the comparison.
 */
export function markUnknown(s: Snapshot, key: string): void {
  delete s[key];
}
