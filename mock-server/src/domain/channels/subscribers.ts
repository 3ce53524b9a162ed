import type { RealmState } from '../../store/state.js';

/** §2.3 subscriber_count's population: active subscriptions of active accounts, bots included, ascending. */
export function activeSubscriberIds(tables: Pick<RealmState, 'subscriptions' | 'users'>, streamId: number): number[] {
  const ids: number[] = [];
  for (const sub of Object.values(tables.subscriptions)) {
    if (sub.stream_id === streamId && sub.active && tables.users[String(sub.user_id)]?.is_active) ids.push(sub.user_id);
  }
  return ids.sort((a, b) => a - b);
}
