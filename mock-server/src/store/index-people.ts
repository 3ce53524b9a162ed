import { SortedList } from './sorted-ids.js';
import type { RealmState, SubscriptionRow, UserRow } from './state.js';

/**
 * Facts of the `users` and `subscriptions` tables, kept by store/indexes.ts: each channel's active
 * subscribers whose accounts are active (§2.3 subscriber_count's population), the channels each user
 * is actively subscribed to, and users by API email and by delivery email (lower-cased: an address
 * names one mailbox whatever its case).
 */
export class PeopleFacts {
  /** Channel → active subscribers with active accounts, ascending. */
  readonly #subscribers = new Map<number, SortedList>();
  /** User → channels with an active subscription row (whether or not the account is active). */
  readonly #subscribed = new Map<number, Set<number>>();
  readonly #byEmail = new Map<string, SortedList>();
  readonly #byDeliveryEmail = new Map<string, SortedList>();

  constructor(private readonly tables: Pick<RealmState, 'users' | 'subscriptions'>) {
    for (const user of Object.values(tables.users)) this.#addEmails(user);
    for (const sub of Object.values(tables.subscriptions)) this.updateSubscription(undefined, sub);
  }

  /** Active subscribers of a channel with active accounts, ascending (a copy). */
  subscribers(streamId: number): number[] {
    return this.#subscribers.get(streamId)?.toArray() ?? [];
  }

  subscriberCount(streamId: number): number {
    return this.#subscribers.get(streamId)?.size ?? 0;
  }

  /** Channels the user is actively subscribed to, in no particular order. */
  subscribedChannels(userId: number): ReadonlySet<number> {
    return this.#subscribed.get(userId) ?? new Set();
  }

  /** IDs of users whose API email is `email` (any case), ascending. */
  withEmail(email: string): readonly number[] {
    return this.#byEmail.get(email.toLowerCase())?.toArray() ?? [];
  }

  /** IDs of users whose delivery email is `email` (any case), ascending. */
  withDeliveryEmail(email: string): readonly number[] {
    return this.#byDeliveryEmail.get(email.toLowerCase())?.toArray() ?? [];
  }

  /** Everything this facet holds, as plain sorted data (the property test compares it with a recomputation). */
  describe(): Record<string, Record<string, number[]>> {
    const plain = <K extends string | number>(map: Map<K, Iterable<number>>) =>
      Object.fromEntries(
        [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, ids]) => [String(k), [...ids].sort((x, y) => x - y)]),
      );
    return {
      subscribers: plain(this.#subscribers),
      subscribed: plain(this.#subscribed),
      byEmail: plain(this.#byEmail),
      byDeliveryEmail: plain(this.#byDeliveryEmail),
    };
  }

  updateSubscription(previous: SubscriptionRow | undefined, next: SubscriptionRow | null): void {
    if (previous?.active) {
      this.#subscribers.get(previous.stream_id)?.remove(previous.user_id);
      if (this.#subscribers.get(previous.stream_id)?.size === 0) this.#subscribers.delete(previous.stream_id);
      this.#subscribed.get(previous.user_id)?.delete(previous.stream_id);
      if (this.#subscribed.get(previous.user_id)?.size === 0) this.#subscribed.delete(previous.user_id);
    }
    if (next?.active) {
      let channels = this.#subscribed.get(next.user_id);
      if (!channels) this.#subscribed.set(next.user_id, (channels = new Set()));
      channels.add(next.stream_id);
      if (this.tables.users[String(next.user_id)]?.is_active) this.#addSubscriber(next.stream_id, next.user_id);
    }
  }

  updateUser(previous: UserRow | undefined, next: UserRow | null): void {
    if (previous) this.#removeEmails(previous);
    if (next) this.#addEmails(next);
    const userId = (next ?? previous)!.user_id;
    const was = previous?.is_active === true;
    const is = next?.is_active === true;
    if (was === is) return;
    for (const streamId of this.#subscribed.get(userId) ?? []) {
      if (is) this.#addSubscriber(streamId, userId);
      else {
        const list = this.#subscribers.get(streamId);
        if (list?.remove(userId) && list.size === 0) this.#subscribers.delete(streamId);
      }
    }
  }

  #addSubscriber(streamId: number, userId: number): void {
    let list = this.#subscribers.get(streamId);
    if (!list) this.#subscribers.set(streamId, (list = new SortedList()));
    if (!list.has(userId)) list.insert(userId);
  }

  #addEmails(user: UserRow): void {
    add(this.#byEmail, user.email.toLowerCase(), user.user_id);
    add(this.#byDeliveryEmail, user.delivery_email.toLowerCase(), user.user_id);
  }

  #removeEmails(user: UserRow): void {
    remove(this.#byEmail, user.email.toLowerCase(), user.user_id);
    remove(this.#byDeliveryEmail, user.delivery_email.toLowerCase(), user.user_id);
  }
}

function add(map: Map<string, SortedList>, key: string, id: number): void {
  let list = map.get(key);
  if (!list) map.set(key, (list = new SortedList()));
  list.insert(id);
}

function remove(map: Map<string, SortedList>, key: string, id: number): void {
  const list = map.get(key);
  if (list?.remove(id) && list.size === 0) map.delete(key);
}
