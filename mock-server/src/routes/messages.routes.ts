import { renderMarkdown } from '../domain/markdown.js';
import { clientName, defaultReadBySender, readRecipient } from '../domain/messages/send-request.js';
import { checkChannelSend, readContent, sendMessage } from '../domain/messages/send.js';
import { fetchMessage } from '../domain/messages/fetch.js';
import { reportMessage } from '../domain/messages/report.js';
import { markTopicAsRead } from '../domain/messages/topic-ops.js';
import { defineRoutes, transactAs } from '../http/define-routes.js';

export default defineRoutes([
  {
    // §4.20: no blank or length check on content; "" renders to "" (reference §4.20).
    operationId: 'render-message',
    handle: ({ params, tables, actor }) => ({ rendered: renderMarkdown(params.content as string, { tables, author: actor!.user }) }),
  },
  {
    // Companion (sending is "not shown" in the spec): channel and direct messages with the posting and
    // topic rules of §1, §2.3 and §3.
    operationId: 'send-message',
    handle: async (ctx) => {
      const { params } = ctx;
      const client = clientName(ctx.client);
      const message = await transactAs(ctx, (tx, actor) => {
        const recipient = readRecipient(tx.tables, actor.user, params.type as string, params.to as string, params.topic as string | undefined, actor.features);
        if (recipient.type === 'stream') checkChannelSend(tx, actor, actor.user, recipient.channel, recipient.topic);
        const content = readContent(params.content as string);
        const readBySender = (params.read_by_sender as boolean | undefined) ?? defaultReadBySender(client, actor.user, recipient);
        return sendMessage(tx, actor, { sender: actor.user, recipient, content, client, readBySender });
      });
      return { id: message.id };
    },
  },
  {
    operationId: 'get-message',
    handle: ({ tables, actor, params }) =>
      fetchMessage(tables, actor!.user, params.message_id as number, {
        applyMarkdown: params.apply_markdown as boolean,
        allowEmptyTopicName: params.allow_empty_topic_name as boolean,
      }),
  },
  {
    operationId: 'report-message',
    handle: async (ctx) => {
      const { params } = ctx;
      await transactAs(ctx, (tx, actor) => reportMessage(tx, actor, params.message_id as number, params.report_type as string, params.description as string));
      return {};
    },
  },
  {
    operationId: 'mark-topic-as-read',
    handle: async (ctx) => {
      await transactAs(ctx, (tx, actor) => markTopicAsRead(tx, actor.user, ctx.params.stream_id as number, ctx.params.topic_name as string, actor.features));
      return {};
    },
  },
]);
