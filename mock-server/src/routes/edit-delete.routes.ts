import { doUpdateRealm } from '../domain/edit-delete/update-settings.js';
import { doUpdateMessage } from '../domain/actions/messages.js';
import { doDeleteMessage } from '../domain/edit-delete/delete.js';
import { messageHistory } from '../domain/edit-delete/history.js';
import { defineAction, defineRoute, type RouteSpec } from '../http/define-routes.js';

/** Companion tier, area edit-delete: editing, moving and deleting messages, and their edit history. */
const routes: RouteSpec[] = [
  defineAction('update-message', doUpdateMessage),
  defineAction('delete-message', doDeleteMessage),
  defineAction('update-realm', doUpdateRealm),
  defineRoute('get-message-history', {
    handle: ({ tables, actor, params }) => messageHistory(tables, actor.user, params.message_id, params.allow_empty_topic_name ?? false),
  }),
];

export default routes;
