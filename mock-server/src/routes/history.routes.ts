import { findMessages, presentHistory } from '../domain/messages/history.js';
import { parseNarrow } from '../domain/messages/narrow.js';
import { defineRoute, type RouteSpec } from '../http/define-routes.js';

/** Message history (companion tier, area: history). A read: no action, no transaction. */
const routes: RouteSpec[] = [
  defineRoute('get-messages', {
    handle: ({ tables, actor, params }) => {
      const found = findMessages(tables, actor.user, {
        anchor: params.anchor,
        useFirstUnreadAnchor: params.use_first_unread_anchor ?? false,
        includeAnchor: params.include_anchor ?? true,
        numBefore: params.num_before ?? 0,
        numAfter: params.num_after ?? 0,
        narrow: parseNarrow(params.narrow ?? []),
      });
      return presentHistory(tables, actor.user, found, {
        applyMarkdown: params.apply_markdown ?? true,
        clientGravatar: params.client_gravatar ?? true,
        allowEmptyTopicName: params.allow_empty_topic_name ?? false,
      });
    },
  }),
];

export default routes;
