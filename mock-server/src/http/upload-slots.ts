import type { ServerResponse } from 'node:http';
import { tooManyPendingUploads } from '../domain/errors.js';
import type { Actor } from './auth.js';

/**
 * Uploads in progress (POST /user_uploads from its authentication to its answer): each may buffer a whole
 * file (`maxFileUploadMib`), so one client opening many and never finishing them could hold memory without
 * bound. A slot is taken before the body is read and given back when the answer's connection closes (sent,
 * refused, cut by the request deadline or abandoned by the client), so no path keeps one.
 */
export class UploadSlots {
  #total = 0;
  readonly #byUser = new Map<string, number>();

  constructor(
    private readonly maxTotal: number,
    private readonly maxPerUser: number,
  ) {}

  get inUse(): number {
    return this.#total;
  }

  /** Takes a slot for the request answered on `res`, or throws the cap's 429. */
  take(actor: Actor, res: ServerResponse): void {
    const user = `${actor.realmId}\u0000${actor.user.user_id}`;
    const mine = this.#byUser.get(user) ?? 0;
    if (mine >= this.maxPerUser) throw tooManyPendingUploads(this.maxPerUser, 'user');
    if (this.#total >= this.maxTotal) throw tooManyPendingUploads(this.maxTotal, 'server');
    this.#total++;
    this.#byUser.set(user, mine + 1);
    res.once('close', () => {
      this.#total--;
      const left = (this.#byUser.get(user) ?? 1) - 1;
      if (left > 0) this.#byUser.set(user, left);
      else this.#byUser.delete(user);
    });
  }
}
