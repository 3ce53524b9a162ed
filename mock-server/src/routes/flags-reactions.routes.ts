import { doUpdateMessageFlagsForNarrow } from '../domain/flags-reactions/flags-narrow.js';
import { doMarkAllAsRead, doMarkStreamAsRead, doUpdateMessageFlags } from '../domain/flags-reactions/flags.js';
import { doAddReaction, doRemoveReaction } from '../domain/flags-reactions/reactions.js';
import { defineAction, type RouteSpec } from '../http/define-routes.js';

/** Companion tier, area flags-reactions: reactions and message flags (reference server behaviour). */
const routes: RouteSpec[] = [
  defineAction('add-reaction', doAddReaction),
  defineAction('remove-reaction', doRemoveReaction),
  defineAction('update-message-flags', doUpdateMessageFlags, {
    answer: ({ messages, ignored_because_not_subscribed_channels: ignored }) => ({
      messages,
      ...(ignored ? { ignored_because_not_subscribed_channels: ignored } : {}),
    }),
  }),
  defineAction('update-message-flags-for-narrow', doUpdateMessageFlagsForNarrow),
  defineAction('mark-all-as-read', doMarkAllAsRead),
  defineAction('mark-stream-as-read', doMarkStreamAsRead),
];

export default routes;
