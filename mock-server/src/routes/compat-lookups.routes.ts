import {
  doAddAlertWords,
  doRemoveAlertWords,
  doRemoveBotStorage,
  doUpdateBotStorage,
  doUpdateUserTopic,
} from '../domain/actions/compat-lookups.js';
import { alertWordsOf } from '../domain/compat-lookups/alert-words.js';
import { readBotStorage } from '../domain/compat-lookups/bot-storage.js';
import { linkifierTuples } from '../domain/compat-lookups/linkifiers-legacy.js';
import { realmEmojiMap } from '../domain/compat-lookups/realm-emoji.js';
import { userGroupList } from '../domain/compat-lookups/user-groups.js';
import { act, defineRoute, type RouteSpec } from '../http/define-routes.js';

/**
 * Companion tier, compat-lookups (issue 18): the small reads and the per-account lists stock clients
 * use. Rules in domain/compat-lookups/; GET /users/{email} shares get-user (users.routes.ts).
 */
const routes: RouteSpec[] = [
  defineRoute('get-realm-emoji', {
    handle: ({ tables }) => ({ emoji: realmEmojiMap(tables) }),
  }),
  defineRoute('get-user-groups', {
    handle: ({ tables, params }) => ({ user_groups: userGroupList(tables, params.include_deactivated_groups) }),
  }),
  defineRoute('get-linkifiers-legacy', {
    handle: ({ tables }) => ({ filters: linkifierTuples(tables) }),
  }),
  defineRoute('get-alert-words', {
    handle: ({ tables, actor }) => ({ alert_words: alertWordsOf(tables, actor.user.user_id) }),
  }),
  defineRoute('add-alert-words', {
    handle: async (ctx) => ({ alert_words: await act(ctx, doAddAlertWords) }),
  }),
  defineRoute('remove-alert-words', {
    handle: async (ctx) => ({ alert_words: await act(ctx, doRemoveAlertWords) }),
  }),
  defineRoute('get-bot-storage', {
    handle: ({ tables, actor, params }) => ({ storage: readBotStorage(tables, actor.user.user_id, params.keys) }),
  }),
  defineRoute('update-bot-storage', {
    handle: async (ctx) => {
      await act(ctx, doUpdateBotStorage);
      return {};
    },
  }),
  defineRoute('remove-bot-storage', {
    handle: async (ctx) => {
      await act(ctx, doRemoveBotStorage);
      return {};
    },
  }),
  defineRoute('update-user-topic', {
    handle: async (ctx) => {
      await act(ctx, doUpdateUserTopic);
      return {};
    },
  }),
];

export default routes;
