import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import type { EventOf } from '../../contract/event-types.js';
import type { SubscriptionRow } from '../../store/state.js';
import { channelById } from '../channels/lookup.js';
import { badRequest } from '../errors.js';
import { userNotificationDefault } from '../present/subscriptions.js';

/**
 * POST /users/me/subscriptions/properties (companion: the personal fields of §2.3 need a way to change;
 * the reference server's parameters, texts and `subscription` / `update` events). Every change is checked
 * before any is applied.
 */
export interface PropertyChange {
  stream_id: number;
  property: string;
  value: boolean | string | null;
}

const NOTIFICATIONS = [
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;
type Notification = (typeof NOTIFICATIONS)[number];
const BOOLEANS = ['is_muted', 'in_home_view', 'pin_to_top'] as const;

function checkValue({ property, value }: PropertyChange): void {
  if (property === 'color') {
    if (typeof value !== 'string' || !/^#[0-9a-fA-F]{3,6}$/.test(value)) throw badRequest('color is not a valid hex color code');
    return;
  }
  if ((BOOLEANS as readonly string[]).includes(property)) {
    if (typeof value !== 'boolean') throw badRequest(`${property} is not a boolean`);
    return;
  }
  if ((NOTIFICATIONS as readonly string[]).includes(property)) {
    // null: follow the user-level default again (§2.3 "null means inherit").
    if (typeof value !== 'boolean' && value !== null) throw badRequest(`${property} is not a boolean`);
    return;
  }
  throw badRequest(`Unknown subscription property: ${property}`);
}

export function doUpdateSubscriptionSettings(tx: Tx, actor: ActorContext, params: ParamsOf<'update-subscription-settings'>): void {
  const { user } = actor;
  const changes: readonly PropertyChange[] = params.subscription_data;
  for (const change of changes) checkValue(change);
  for (const change of changes) {
    channelById(tx.tables, user, change.stream_id, { access: 'content', archived: true });
    if (!tx.tables.subscriptions[`${user.user_id}:${change.stream_id}`]?.active)
      throw badRequest(`Not subscribed to channel ID ${change.stream_id}`);
  }
  for (const { stream_id, property, value } of changes) {
    const key = `${user.user_id}:${stream_id}`;
    const row: SubscriptionRow = { ...tx.tables.subscriptions[key]! };
    if (property === 'is_muted' || property === 'in_home_view') {
      const muted = property === 'is_muted' ? value === true : value === false;
      row.is_muted = muted;
      tx.put('subscriptions', key, row);
      tx.emit({ type: 'subscription', op: 'update', stream_id, property: 'in_home_view', value: !muted }, [user.user_id]);
      tx.emit({ type: 'subscription', op: 'update', stream_id, property: 'is_muted', value: muted }, [user.user_id]);
      continue;
    }
    (row as unknown as Record<string, unknown>)[property] = value;
    tx.put('subscriptions', key, row);
    const event: EventOf<'subscription', 'update'> = { type: 'subscription', op: 'update', stream_id, property, value };
    if (value === null && (NOTIFICATIONS as readonly string[]).includes(property)) {
      // Clients without notification_settings_null see the inherited value instead (§4.21).
      const inherited = userNotificationDefault(user, property as Notification);
      tx.emit(event, [user.user_id], (client) => (client.notification_settings_null ? event : { ...event, value: inherited }));
    } else tx.emit(event, [user.user_id]);
  }
}
