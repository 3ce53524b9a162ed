/** Test-only: rows of a register snapshot as a client keeps them (shared by the event reducers). */
export type Snapshot = Record<string, unknown>;
export type Event = Record<string, unknown> & { type: string; op?: string };
export type Row = Record<string, unknown>;

export const byKey = (list: unknown, key: string) => new Map((list as Row[]).map((row) => [row[key], row]));

export function upsertAll(snapshot: Snapshot, field: string, key: string, rows: Row[]): void {
  const map = byKey(snapshot[field] ?? [], key);
  for (const row of rows) map.set(row[key], row);
  snapshot[field] = [...map.values()];
}

export function removeOne(snapshot: Snapshot, field: string, key: string, id: unknown): void {
  snapshot[field] = ((snapshot[field] ?? []) as Row[]).filter((row) => row[key] !== id);
}
