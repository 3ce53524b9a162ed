/** Test-only: rows of a register snapshot as a client keeps them (shared by the event reducers). */
export type Snapshot = Record<string, unknown>;
export type Row = Record<string, unknown>;

/**
 * The reducers of each event type take that type's events as the document describes them
 * (contract/event-types.ts), with the queue's `id`, so a reducer reading a field the document does not
 * name does not compile.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Reducers = Record<string, (s: Snapshot, e: any) => void>;

/** For an op no reducer handles: the type says it cannot arrive, the message says what did. */
export function unhandled(e: { type: string; op?: unknown }): never {
  throw new Error(`apply-events: ${e.type}/${String(e.op)} is not handled`);
}

export const byKey = (list: unknown, key: string) => new Map((list as Row[]).map((row) => [row[key], row]));

export function upsertAll(snapshot: Snapshot, field: string, key: string, rows: Row[]): void {
  const map = byKey(snapshot[field] ?? [], key);
  for (const row of rows) map.set(row[key], row);
  snapshot[field] = [...map.values()];
}

export function removeOne(snapshot: Snapshot, field: string, key: string, id: unknown): void {
  if (!(field in snapshot)) return;
  snapshot[field] = ((snapshot[field] ?? []) as Row[]).filter((row) => row[key] !== id);
}
