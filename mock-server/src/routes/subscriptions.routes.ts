import { doUpdateSubscriptionSettings } from '../domain/subscriptions/properties.js';
import { doUnsubscribe } from '../domain/subscriptions/unsubscribe.js';
import { doSubscribe } from '../domain/subscriptions/subscribe.js';
import { presentSubscription } from '../domain/present/subscriptions.js';
import { defineAction, defineRoute, type RouteSpec } from '../http/define-routes.js';
import { indexOf } from '../store/indexes.js';

/** Subscriptions: §4.8 and the companions subscribe, list and personal settings. */
const routes: RouteSpec[] = [
  defineRoute('get-subscriptions', {
    // The caller's own subscriptions; the channel fields follow the time (activity, weekly traffic).
    cache: { caller: 'user', time: true },
    handle: ({ tables, actor, params, features, now }) => {
      const user = actor.user;
      // The user's active subscriptions from the store's index, not a scan of every subscription row.
      const subscriptions = [...indexOf(tables).people.subscribedChannels(user.user_id)]
        .map((streamId) => tables.subscriptions[`${user.user_id}:${streamId}`]!)
        .flatMap((s) => {
          const c = tables.channels[String(s.stream_id)];
          // Archived channels appear in listings from level 315 (§9).
          return c !== undefined && (!c.is_archived || features.has('archived_channels')) ? [{ s, c }] : [];
        })
        .sort(({ c: a }, { c: b }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        .map(({ s, c }) =>
          presentSubscription(tables, s, c, user, {
            features,
            // A plain listing shows the stored settings: null means "inherit" (§2.3).
            client: { notification_settings_null: true },
            includeSubscribers: params.include_subscribers === true,
            now,
          }),
        );
      return { subscriptions };
    },
  }),
  defineAction('subscribe', doSubscribe),
  defineAction('unsubscribe', doUnsubscribe),
  defineAction('update-subscription-settings', doUpdateSubscriptionSettings),
];

export default routes;
