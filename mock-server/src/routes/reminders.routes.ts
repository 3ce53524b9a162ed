import { doCreateMessageReminder, doDeleteReminder } from '../domain/actions/reminders.js';
import { listReminders } from '../domain/reminders/create.js';
import { act, defineRoute, type RouteSpec } from '../http/define-routes.js';

/** Message reminders (§4.19 and the list/delete companions). */
const routes: RouteSpec[] = [
  defineRoute('get-reminders', {
    handle: ({ tables, actor }) => ({ reminders: listReminders(tables, actor.user) }),
  }),
  defineRoute('create-message-reminder', {
    handle: async (ctx) => ({ reminder_id: await act(ctx, doCreateMessageReminder) }),
  }),
  defineRoute('delete-reminder', {
    handle: async (ctx) => {
      await act(ctx, doDeleteReminder);
      return {};
    },
  }),
];

export default routes;
