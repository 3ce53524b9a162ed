import type { ParamsOf } from '../../contract/operation-types.js';
import { CHANNEL_GROUP_SETTINGS } from '../../store/state.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { updateSubscriptionProperties } from '../subscriptions/properties.js';
import { subscribe, type SubscribeParams } from '../subscriptions/subscribe.js';
import { unsubscribe } from '../subscriptions/unsubscribe.js';

/** POST /users/me/subscriptions (§4.8 companion): new channels take the permission settings sent, one field each. */
export function doSubscribe(tx: Tx, actor: ActorContext, params: ParamsOf<'subscribe'>): ReturnType<typeof subscribe> {
  const groups: SubscribeParams['groups'] = {};
  for (const setting of CHANNEL_GROUP_SETTINGS) {
    const value = params[setting];
    if (value !== undefined) groups[setting] = value;
  }
  return subscribe(tx, actor, { ...params, groups });
}

/** DELETE /users/me/subscriptions (§4.8). */
export function doUnsubscribe(tx: Tx, actor: ActorContext, params: ParamsOf<'unsubscribe'>): ReturnType<typeof unsubscribe> {
  return unsubscribe(tx, actor, params);
}

export function doUpdateSubscriptionSettings(tx: Tx, actor: ActorContext, params: ParamsOf<'update-subscription-settings'>): void {
  updateSubscriptionProperties(tx, actor.user, params.subscription_data);
}
