import { createReminder, deleteReminder, listReminders, type ReminderParams } from '../domain/reminders/create.js';
import { defineRoutes, transactAs } from '../http/define-routes.js';

/** Message reminders (§4.19 and the list/delete companions). */
export default defineRoutes([
  {
    operationId: 'get-reminders',
    handle: ({ tables, actor }) => ({ reminders: listReminders(tables, actor!.user) }),
  },
  {
    operationId: 'create-message-reminder',
    handle: async (ctx) => ({ reminder_id: await transactAs(ctx, (tx, actor) => createReminder(tx, actor, ctx.params as unknown as ReminderParams)) }),
  },
  {
    operationId: 'delete-reminder',
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => deleteReminder(tx, actor.user, ctx.params.reminder_id as number));
      return {};
    },
  },
]);
