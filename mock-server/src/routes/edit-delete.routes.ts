import { doDeleteMessage, doUpdateMessage, doUpdateRealm } from '../domain/actions/edit-delete.js';
import { messageHistory } from '../domain/edit-delete/history.js';
import { act, defineRoute, type RouteSpec } from '../http/define-routes.js';

/** Companion tier, area edit-delete: editing, moving and deleting messages, and their edit history. */
const routes: RouteSpec[] = [
  defineRoute('update-message', {
    handle: (ctx) => act(ctx, doUpdateMessage),
  }),
  defineRoute('delete-message', {
    handle: async (ctx) => {
      await act(ctx, doDeleteMessage);
      return {};
    },
  }),
  defineRoute('update-realm', {
    handle: (ctx) => act(ctx, doUpdateRealm),
  }),
  defineRoute('get-message-history', {
    handle: ({ tables, actor, params }) => messageHistory(tables, actor.user, params.message_id, params.allow_empty_topic_name ?? false),
  }),
];

export default routes;
