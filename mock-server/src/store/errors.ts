/**
 * The store's own failure. The store sits below domain/, so it knows nothing of the API's error
 * envelope: `http/respond.ts` maps this to STATE_WRITE_FAILED through the catalogue (domain/errors.ts).
 * Once a write failed the store is fail-stopped, so every later write fails the same way.
 */
export class StateWriteFailed extends Error {
  constructor(options?: ErrorOptions) {
    super('The change could not be saved; the store accepts no more writes.', options);
    this.name = 'StateWriteFailed';
  }
}

/**
 * A state file or journal holding what no crash can leave (not JSON, another format, a journal damaged
 * before its last line): loading it could lose or invent data, so the server does not start on it.
 * The message names the file and what is wrong with it, never the file's content.
 */
export class StateDamaged extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StateDamaged';
  }
}

/** The state the server was started on is damaged, and `--reset` was not asked for: one line, what to do. */
export class StateFileUnreadable extends Error {
  constructor(
    readonly path: string,
    damage: StateDamaged,
  ) {
    super(
      `${damage.message}. Start with --reset to keep it aside as ${path}.corrupt-<time> and regenerate the default realm, or pass another --state.`,
    );
    this.name = 'StateFileUnreadable';
  }
}
