import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { addAlertWords, removeAlertWords } from '../compat-lookups/alert-words.js';
import { removeBotStorage, writeBotStorage } from '../compat-lookups/bot-storage.js';
import { setUserTopicPolicy, type VisibilityPolicy } from '../compat-lookups/user-topics.js';
import { readTopic } from '../topics.js';

/** POST /users/me/alert_words (companion tier): the caller's whole list afterwards. */
export function doAddAlertWords(tx: Tx, actor: ActorContext, params: ParamsOf<'add-alert-words'>): string[] {
  return addAlertWords(tx, actor.user.user_id, params.alert_words);
}

/** DELETE /users/me/alert_words (companion tier): the caller's whole list afterwards. */
export function doRemoveAlertWords(tx: Tx, actor: ActorContext, params: ParamsOf<'remove-alert-words'>): string[] {
  return removeAlertWords(tx, actor.user.user_id, params.alert_words);
}

/** PUT /bot_storage (companion tier). */
export function doUpdateBotStorage(tx: Tx, actor: ActorContext, params: ParamsOf<'update-bot-storage'>): void {
  writeBotStorage(tx, actor.user.user_id, params.storage);
}

/** DELETE /bot_storage (companion tier). */
export function doRemoveBotStorage(tx: Tx, actor: ActorContext, params: ParamsOf<'remove-bot-storage'>): void {
  removeBotStorage(tx, actor.user.user_id, params.keys);
}

/** POST /user_topics (companion tier): the topic read as topics are everywhere (§1). */
export function doUpdateUserTopic(tx: Tx, actor: ActorContext, params: ParamsOf<'update-user-topic'>): void {
  const topic = readTopic(params.topic, actor.features);
  setUserTopicPolicy(tx, actor.user, actor.now, {
    streamId: params.stream_id,
    topic,
    policy: params.visibility_policy as VisibilityPolicy,
  });
}
