import { doCreateMessageReminder, doDeleteReminder, listReminders } from '../domain/reminders/create.js';
import { defineAction, defineRoute, type RouteSpec } from '../http/define-routes.js';

/** Message reminders (§4.19 and the list/delete companions). */
const routes: RouteSpec[] = [
  defineRoute('get-reminders', {
    handle: ({ tables, actor }) => ({ reminders: listReminders(tables, actor.user) }),
  }),
  defineAction('create-message-reminder', doCreateMessageReminder, { answer: (reminder_id) => ({ reminder_id }) }),
  defineAction('delete-reminder', doDeleteReminder),
];

export default routes;
