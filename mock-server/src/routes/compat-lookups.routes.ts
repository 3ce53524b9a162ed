import { doUpdateUserTopic } from '../domain/compat-lookups/user-topics.js';
import { alertWordsOf, doAddAlertWords, doRemoveAlertWords } from '../domain/compat-lookups/alert-words.js';
import { doRemoveBotStorage, doUpdateBotStorage, readBotStorage } from '../domain/compat-lookups/bot-storage.js';
import { linkifierTuples } from '../domain/compat-lookups/linkifiers-legacy.js';
import { realmEmojiMap } from '../domain/compat-lookups/realm-emoji.js';
import { refuseUserGroupsCaller, userGroupList } from '../domain/compat-lookups/user-groups.js';
import { defineAction, defineRoute, type RouteSpec } from '../http/define-routes.js';

/**
 * Companion tier, compat-lookups: the small reads and the per-account lists stock clients
 * use. Rules in domain/compat-lookups/; GET /users/{email} shares get-user (users.routes.ts).
 */
const routes: RouteSpec[] = [
  defineRoute('get-realm-emoji', {
    handle: ({ tables }) => ({ emoji: realmEmojiMap(tables) }),
  }),
  defineRoute('get-user-groups', {
    gate: ({ actor }) => refuseUserGroupsCaller(actor.user),
    handle: ({ tables, params }) => ({ user_groups: userGroupList(tables, params.include_deactivated_groups) }),
  }),
  defineRoute('get-linkifiers-legacy', {
    handle: ({ tables }) => ({ filters: linkifierTuples(tables) }),
  }),
  defineRoute('get-alert-words', {
    handle: ({ tables, actor }) => ({ alert_words: alertWordsOf(tables, actor.user.user_id) }),
  }),
  defineAction('add-alert-words', doAddAlertWords, { answer: (alert_words) => ({ alert_words }) }),
  defineAction('remove-alert-words', doRemoveAlertWords, { answer: (alert_words) => ({ alert_words }) }),
  defineRoute('get-bot-storage', {
    handle: ({ tables, actor, params }) => ({ storage: readBotStorage(tables, actor.user.user_id, params.keys) }),
  }),
  defineAction('update-bot-storage', doUpdateBotStorage),
  defineAction('remove-bot-storage', doRemoveBotStorage),
  defineAction('update-user-topic', doUpdateUserTopic),
];

export default routes;
