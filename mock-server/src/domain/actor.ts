import type { Features } from '../config/features.js';
import type { RealmRow, UserRow } from '../store/state.js';

/** Who acts, in which realm, at which feature level and realm time: what every domain action is given. */
export interface ActorContext {
  realm: RealmRow;
  user: UserRow;
  features: Features;
  now: number;
}
