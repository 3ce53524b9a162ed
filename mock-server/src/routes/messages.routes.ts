import { doSendMessage } from '../domain/actions/messages.js';
import { doReportMessage } from '../domain/messages/report.js';
import { doMarkTopicAsRead } from '../domain/messages/topic-ops.js';
import { renderMarkdown } from '../domain/markdown.js';
import { fetchMessage } from '../domain/messages/fetch.js';
import { previewContent } from '../domain/messages/send.js';
import { defineAction, defineRoute, type RouteSpec } from '../http/define-routes.js';

const routes: RouteSpec[] = [
  // §4.20: no blank or length check on content; "" renders to "" (reference §4.20); beyond what a message
  // keeps is not rendered (send.ts previewContent).
  defineRoute('render-message', {
    handle: ({ params, tables, actor }) => ({
      rendered: renderMarkdown(previewContent(params.content), { tables, author: actor.user }),
    }),
  }),
  // Companion (sending is "not shown" in the spec): channel and direct messages with the posting and
  // topic rules of §1, §2.3 and §3.
  defineAction('send-message', doSendMessage, { answer: ({ id }) => ({ id }) }),
  defineRoute('get-message', {
    handle: ({ tables, actor, params }) =>
      fetchMessage(tables, actor.user, params.message_id, {
        applyMarkdown: params.apply_markdown,
        allowEmptyTopicName: params.allow_empty_topic_name ?? false,
      }),
  }),
  defineAction('report-message', doReportMessage),
  defineAction('mark-topic-as-read', doMarkTopicAsRead),
];

export default routes;
