import { methodNotAllowed } from '../domain/errors.js';
import { clientName } from '../domain/messages/send-request.js';
import { createScheduledMessage, type CreateParams } from '../domain/scheduled/create.js';
import { deleteScheduledMessage, listScheduledMessages } from '../domain/scheduled/delete.js';
import { editScheduledMessage, type EditParams } from '../domain/scheduled/edit.js';
import { defineRoutes, transactAs, type GateContext } from '../http/define-routes.js';

/**
 * Below feature level 184 the edit operation does not exist (spec §9; x-feature-level of the operation):
 * its path answers as a path without PATCH does, 405 with the methods it has.
 */
function editExists({ app, features }: GateContext): void {
  if (features.has('scheduled_message_edit_endpoint')) return;
  const path = app.operations.find((op) => op.operationId === 'update-scheduled-message')!.path;
  const others = app.operations.filter((op) => op.path === path && op.operationId !== 'update-scheduled-message').map((op) => op.method);
  throw methodNotAllowed([...others, 'OPTIONS']);
}

/** Scheduled messages (§4.1, §4.2 and the list/delete companions). */
export default defineRoutes([
  {
    operationId: 'get-scheduled-messages',
    handle: ({ tables, actor }) => ({ scheduled_messages: listScheduledMessages(tables, actor!.user) }),
  },
  {
    operationId: 'create-scheduled-message',
    handle: async (ctx) => {
      const client = clientName(ctx.client);
      const id = await transactAs(ctx, (tx, actor) => createScheduledMessage(tx, actor, ctx.params as unknown as CreateParams, client));
      return { scheduled_message_id: id };
    },
  },
  {
    operationId: 'update-scheduled-message',
    gate: editExists,
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => editScheduledMessage(tx, actor, ctx.params as unknown as EditParams));
      return {};
    },
  },
  {
    operationId: 'delete-scheduled-message',
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => deleteScheduledMessage(tx, actor.user, ctx.params.scheduled_message_id as number));
      return {};
    },
  },
]);
