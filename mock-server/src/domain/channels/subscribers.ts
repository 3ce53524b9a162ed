import { indexOf } from '../../store/indexes.js';
import type { RealmState } from '../../store/state.js';

/** §2.3 subscriber_count's population: active subscriptions of active accounts, bots included, ascending. */
export function activeSubscriberIds(
  tables: Pick<RealmState, 'messages' | 'user_messages' | 'subscriptions' | 'users'>,
  streamId: number,
): number[] {
  return indexOf(tables).people.subscribers(streamId);
}
