import type { RouteSpec } from '../http/define-routes.js';
import channels from './channels.routes.js';
import events from './events.routes.js';
import messages from './messages.routes.js';
import reminders from './reminders.routes.js';
import scheduledMessages from './scheduled-messages.routes.js';
import server from './server.routes.js';
import subscriptions from './subscriptions.routes.js';

/**
 * THE route table (Zulip's urls.py): which handler serves which operationId of openapi/. Operations
 * of the document without a handler here answer NOT_IMPLEMENTED; test/http/not-implemented.test.ts
 * lists them, and each resource issue empties part of that list.
 */
export const routes: RouteSpec[] = [...channels, ...events, ...messages, ...reminders, ...scheduledMessages, ...server, ...subscriptions];
