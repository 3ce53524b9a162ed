import { missingArgument } from '../domain/errors.js';
import { findMessages, presentHistory } from '../domain/messages/history.js';
import { parseNarrow } from '../domain/messages/narrow.js';
import { notLoggedIn } from '../http/auth.js';
import { defineRoute, type RouteSpec } from '../http/define-routes.js';

/** Message history (companion tier, area: history). A read: no action, no transaction. */
const routes: RouteSpec[] = [
  defineRoute('get-messages', {
    // Spectators (no credentials) only where the realm opens web-public channels to them (reference
    // allow_web_public_streams_access); an authentication answer, so before any parameter is read.
    gate: ({ actor, realm }) => {
      if (!actor && !(realm.enable_spectator_access && realm.web_public_streams_enabled)) throw notLoggedIn();
    },
    handle: ({ tables, actor, params }) => {
      // reference get-messages documents both sizes as required unless message_ids is given, at every level
      // (its server has read an absent size as 0 since level 300; the published description is followed here).
      if (params.message_ids === undefined) {
        if (params.num_before === undefined) throw missingArgument('num_before');
        if (params.num_after === undefined) throw missingArgument('num_after');
      }
      const viewer = actor?.user ?? null;
      const found = findMessages(tables, viewer, {
        anchor: params.anchor,
        useFirstUnreadAnchor: params.use_first_unread_anchor ?? false,
        includeAnchor: params.include_anchor ?? true,
        numBefore: params.num_before ?? 0,
        numAfter: params.num_after ?? 0,
        narrow: parseNarrow(params.narrow ?? []),
        ...(params.message_ids === undefined ? {} : { messageIds: params.message_ids }),
      });
      return presentHistory(tables, viewer, found, {
        applyMarkdown: params.apply_markdown ?? true,
        clientGravatar: params.client_gravatar ?? true,
        allowEmptyTopicName: params.allow_empty_topic_name ?? false,
      });
    },
  }),
];

export default routes;
