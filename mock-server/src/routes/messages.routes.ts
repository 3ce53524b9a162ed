import { doMarkTopicAsRead, doReportMessage, doSendMessage } from '../domain/actions/messages.js';
import { renderMarkdown } from '../domain/markdown.js';
import { fetchMessage } from '../domain/messages/fetch.js';
import { previewContent } from '../domain/messages/send.js';
import { act, defineRoute, type RouteSpec } from '../http/define-routes.js';

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
  defineRoute('send-message', {
    handle: async (ctx) => ({ id: (await act(ctx, doSendMessage)).id }),
  }),
  defineRoute('get-message', {
    handle: ({ tables, actor, params }) =>
      fetchMessage(tables, actor.user, params.message_id, {
        applyMarkdown: params.apply_markdown,
        allowEmptyTopicName: params.allow_empty_topic_name ?? false,
      }),
  }),
  defineRoute('report-message', {
    handle: async (ctx) => {
      await act(ctx, doReportMessage);
      return {};
    },
  }),
  defineRoute('mark-topic-as-read', {
    handle: async (ctx) => {
      await act(ctx, doMarkTopicAsRead);
      return {};
    },
  }),
];

export default routes;
