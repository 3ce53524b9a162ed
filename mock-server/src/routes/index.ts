import type { RouteSpec } from '../http/define-routes.js';
import channels from './channels.routes.js';
import compatLookups from './compat-lookups.routes.js';
import drafts from './drafts.routes.js';
import editDelete from './edit-delete.routes.js';
import events from './events.routes.js';
import flagsReactions from './flags-reactions.routes.js';
import history from './history.routes.js';
import linkifiers from './linkifiers.routes.js';
import live from './live.routes.js';
import messages from './messages.routes.js';
import navigationViews from './navigation-views.routes.js';
import reminders from './reminders.routes.js';
import savedSnippets from './saved-snippets.routes.js';
import scheduledMessages from './scheduled-messages.routes.js';
import server from './server.routes.js';
import subscriptions from './subscriptions.routes.js';
import userAdmin from './user-admin.routes.js';
import userStatus from './user-status.routes.js';
import users from './users.routes.js';

/**
 * THE route table (Zulip's urls.py): which handler serves which operationId of openapi/. Operations
 * of the document without a handler here answer NOT_IMPLEMENTED; test/http/not-implemented.test.ts
 * lists them, and each resource issue empties part of that list.
 */
export const routes: RouteSpec[] = [
  ...channels,
  ...compatLookups,
  ...drafts,
  ...editDelete,
  ...events,
  ...flagsReactions,
  ...history,
  ...linkifiers,
  ...live,
  ...messages,
  ...navigationViews,
  ...reminders,
  ...savedSnippets,
  ...scheduledMessages,
  ...server,
  ...subscriptions,
  ...userAdmin,
  ...userStatus,
  ...users,
];
