import { buildChannelIndex } from '../domain/present/channels.js';
import { presentSubscription } from '../domain/present/subscriptions.js';
import { updateSubscriptionProperties, type PropertyChange } from '../domain/subscriptions/properties.js';
import { subscribe, type SubscribeParams } from '../domain/subscriptions/subscribe.js';
import { unsubscribe, type UnsubscribeParams } from '../domain/subscriptions/unsubscribe.js';
import { CHANNEL_GROUP_SETTINGS } from '../store/state.js';
import { defineRoutes, transactAs } from '../http/define-routes.js';

/** Subscriptions: §4.8 and the companions subscribe, list and personal settings. */
export default defineRoutes([
  {
    operationId: 'get-subscriptions',
    handle: ({ tables, actor, params, features, now }) => {
      const user = actor!.user;
      const index = buildChannelIndex(tables);
      const subscriptions = Object.values(tables.subscriptions)
        .filter((s) => s.user_id === user.user_id && s.active)
        .map((s) => [s, tables.channels[String(s.stream_id)]!] as const)
        // Archived channels appear in listings from level 315 (§9).
        .filter(([, c]) => c !== undefined && (!c.is_archived || features.has('archived_channels')))
        .sort(([, a], [, b]) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
        .map(([s, c]) =>
          presentSubscription(tables, s, c, user, {
            features,
            // A plain listing shows the settings as stored: null means "inherit" (§2.3).
            client: { notification_settings_null: true },
            includeSubscribers: params.include_subscribers === true,
            now,
            index,
          }),
        );
      return { subscriptions };
    },
  },
  {
    operationId: 'subscribe',
    handle: (ctx) => {
      const groups: SubscribeParams['groups'] = {};
      for (const setting of CHANNEL_GROUP_SETTINGS) if (ctx.params[setting] !== undefined) groups[setting] = ctx.params[setting] as never;
      return transactAs(ctx, (tx, actor) => subscribe(tx, actor, { ...(ctx.params as unknown as SubscribeParams), groups }));
    },
  },
  {
    operationId: 'unsubscribe',
    handle: (ctx) => transactAs(ctx, (tx, actor) => unsubscribe(tx, actor, ctx.params as unknown as UnsubscribeParams)),
  },
  {
    operationId: 'update-subscription-settings',
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => updateSubscriptionProperties(tx, actor.user, ctx.params.subscription_data as PropertyChange[]));
      return {};
    },
  },
]);
