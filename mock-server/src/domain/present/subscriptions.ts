import type { Features } from '../../config/features.js';
import type { ClientView } from '../../contract/client-view.js';
import type { SchemaOf } from '../../contract/operation-types.js';
import type { ChannelRow, RealmState, SubscriptionRow, UserRow } from '../../store/state.js';
import { canKnowSubscribers } from '../access.js';
import { channelStats, presentChannel } from './channels.js';

/** Spec §2.3 subscription object: the channel (§2.2) plus the user's personal settings. */

const DAY = 86_400;
/** Spec §8: channels below this size always get the full list with include_subscribers partial. */
export const PARTIAL_SUBSCRIBERS_THRESHOLD = 250;
/** Spec §8: partial_subscribers holds every user active within this window. */
export const PARTIAL_RECENCY_DAYS = 14;

export type IncludeSubscribers = boolean | 'partial';

export interface PresentSubscriptionOptions {
  features: Features;
  client: Pick<ClientView, 'notification_settings_null'>;
  includeSubscribers: IncludeSubscribers;
  now: number;
}

type NotificationField =
  'desktop_notifications' | 'email_notifications' | 'wildcard_mentions_notify' | 'push_notifications' | 'audible_notifications';

/**
 * The user-level defaults a null notification setting inherits (spec §2.3 "null means inherit the
 * user-level default"). Read from the user's settings under the reference server's names when stored,
 * otherwise the reference server's defaults for a new account.
 */
const USER_DEFAULTS: Record<NotificationField, [setting: string, fallback: boolean]> = {
  desktop_notifications: ['enable_stream_desktop_notifications', false],
  email_notifications: ['enable_stream_email_notifications', false],
  wildcard_mentions_notify: ['wildcard_mentions_notify', true],
  push_notifications: ['enable_stream_push_notifications', false],
  audible_notifications: ['enable_stream_audible_notifications', false],
};

export function userNotificationDefault(user: UserRow | null, field: NotificationField): boolean {
  const [setting, fallback] = USER_DEFAULTS[field];
  const stored = user?.settings[setting];
  return typeof stored === 'boolean' ? stored : fallback;
}

type Tables = Pick<RealmState, 'messages' | 'user_messages' | 'subscriptions' | 'users' | 'user_groups'>;

/**
 * The subscriber keys of spec §2.3 and §4.21 include_subscribers:
 * - false: neither key;
 * - true: `subscribers`, all active subscribers, or `[]` when the viewer may not know them;
 * - partial (level 412, §9): full `subscribers` below 250 subscribers (§8), otherwise
 *   `partial_subscribers` = bots plus users active within 14 days of `now`. Below level 412 the
 *   value is not understood, so it acts as true.
 */
export function subscriberKeys(
  tables: Tables,
  channel: ChannelRow,
  viewer: UserRow | null,
  opts: Pick<PresentSubscriptionOptions, 'features' | 'includeSubscribers' | 'now'>,
): Pick<SchemaOf<'Subscription'>, 'subscribers' | 'partial_subscribers'> {
  if (opts.includeSubscribers === false) return {};
  if (!canKnowSubscribers(tables, viewer, channel)) return { subscribers: [] };
  const all = channelStats(tables, channel.stream_id).subscribers;
  const partial = opts.includeSubscribers === 'partial' && opts.features.has('include_subscribers_partial');
  if (!partial || all.length < PARTIAL_SUBSCRIBERS_THRESHOLD) return { subscribers: [...all] };
  const since = opts.now - PARTIAL_RECENCY_DAYS * DAY;
  return {
    partial_subscribers: all.filter((id) => {
      const user = tables.users[String(id)];
      return user !== undefined && (user.is_bot || user.last_active >= since);
    }),
  };
}

/**
 * Spec §2.3. `in_home_view` is the inverse of is_muted. Null notification settings stay null for
 * clients declaring notification_settings_null (§4.21); older clients get the inherited value.
 */
export function presentSubscription(
  tables: Tables,
  sub: SubscriptionRow,
  channel: ChannelRow,
  viewer: UserRow | null,
  opts: PresentSubscriptionOptions,
): SchemaOf<'Subscription'> {
  const notify = (field: NotificationField) => {
    const value = sub[field];
    return value === null && !opts.client.notification_settings_null ? userNotificationDefault(viewer, field) : value;
  };
  return {
    ...presentChannel(tables, channel, { now: opts.now }),
    ...subscriberKeys(tables, channel, viewer, opts),
    desktop_notifications: notify('desktop_notifications'),
    email_notifications: notify('email_notifications'),
    wildcard_mentions_notify: notify('wildcard_mentions_notify'),
    push_notifications: notify('push_notifications'),
    audible_notifications: notify('audible_notifications'),
    pin_to_top: sub.pin_to_top,
    is_muted: sub.is_muted,
    in_home_view: !sub.is_muted,
    color: sub.color,
  };
}
