import type { Change, State } from './state.js';

/**
 * Where committed changes go. The store applies a transaction to the live state in memory, hands its
 * changes to `append`, and answers the request only when `append` resolves: an acknowledged write is
 * durable (it survives `kill -9`).
 */
export interface Persistence {
  /** Reads the state back (snapshot plus journal); an empty state when nothing was saved yet. */
  load(): Promise<State>;
  /**
   * Gives persistence read access to the live state, for compaction. Called once, after `load`.
   * The getter returns the state with every change passed to `append` so far already applied.
   */
  attach(getState: () => State): void;
  /**
   * Makes `changes` durable. Calls made while a write is in progress are coalesced into the next single
   * write (group commit). Resolves in call order; rejects if the changes could not be written.
   */
  append(changes: readonly Change[]): Promise<void>;
  /** Writes everything pending and a compact snapshot, then releases the files. */
  close(): Promise<void>;
  /** Human-readable description for logs ("memory", "file /path/state.json"). */
  readonly description: string;
}

/** In-memory mode (tests, `--in-memory`): nothing to write, so every change is durable at once. */
export function memoryPersistence(initial?: State): Persistence {
  return {
    description: 'memory',
    load: async () => initial ?? { format: 'teamchat-kit/state@1', realms: {} },
    attach: () => {},
    append: async () => {},
    close: async () => {},
  };
}
