import { doUpdateScheduledMessage } from '../domain/scheduled/edit.js';
import { doCreateScheduledMessage } from '../domain/scheduled/create.js';
import { methodNotAllowed } from '../domain/errors.js';
import { doDeleteScheduledMessage, listScheduledMessages } from '../domain/scheduled/delete.js';
import { defineAction, defineRoute, type GateContext, type RouteSpec } from '../http/define-routes.js';

/**
 * Below feature level 184 the edit operation does not exist (spec §9; x-feature-level of the operation):
 * its path answers like a path without PATCH does, 405 with the methods it has.
 */
function editExists({ app, features }: GateContext<'update-scheduled-message'>): void {
  if (features.has('scheduled_message_edit_endpoint')) return;
  const path = app.operations.find((op) => op.operationId === 'update-scheduled-message')!.path;
  const others = app.operations.filter((op) => op.path === path && op.operationId !== 'update-scheduled-message').map((op) => op.method);
  throw methodNotAllowed([...others, 'OPTIONS']);
}

/** Scheduled messages (§4.1, §4.2 and the list/delete companions). */
const routes: RouteSpec[] = [
  defineRoute('get-scheduled-messages', {
    handle: ({ tables, actor }) => ({ scheduled_messages: listScheduledMessages(tables, actor.user) }),
  }),
  defineAction('create-scheduled-message', doCreateScheduledMessage, { answer: (scheduled_message_id) => ({ scheduled_message_id }) }),
  defineAction('update-scheduled-message', doUpdateScheduledMessage, { gate: editExists }),
  defineAction('delete-scheduled-message', doDeleteScheduledMessage),
];

export default routes;
