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
