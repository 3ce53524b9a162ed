import type { Features } from '../config/features.js';
import type { RealmRow, UserRow } from '../store/state.js';

/** Who acts, in which realm, at which feature level and realm time: what every domain action is given. */
export interface ActorContext {
  realm: RealmRow;
  user: UserRow;
  features: Features;
  now: number;
  /** The caller's User-Agent, as sent (messages record the client that sent them, reference §4.1). */
  userAgent: string;
}
