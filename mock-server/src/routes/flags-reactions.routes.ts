import {
  doAddReaction,
  doMarkAllAsRead,
  doMarkStreamAsRead,
  doRemoveReaction,
  doUpdateMessageFlags,
  doUpdateMessageFlagsForNarrow,
} from '../domain/actions/flags-reactions.js';
import { act, defineRoute, type RouteSpec } from '../http/define-routes.js';

/** Companion tier, area flags-reactions: reactions and message flags (reference server behaviour). */
const routes: RouteSpec[] = [
  defineRoute('add-reaction', {
    handle: async (ctx) => {
      await act(ctx, doAddReaction);
      return {};
    },
  }),
  defineRoute('remove-reaction', {
    handle: async (ctx) => {
      await act(ctx, doRemoveReaction);
      return {};
    },
  }),
  defineRoute('update-message-flags', {
    handle: async (ctx) => {
      const { messages, ignored_because_not_subscribed_channels: ignored } = await act(ctx, doUpdateMessageFlags);
      return { messages, ...(ignored ? { ignored_because_not_subscribed_channels: ignored } : {}) };
    },
  }),
  defineRoute('update-message-flags-for-narrow', {
    handle: (ctx) => act(ctx, doUpdateMessageFlagsForNarrow),
  }),
  defineRoute('mark-all-as-read', {
    handle: (ctx) => act(ctx, doMarkAllAsRead),
  }),
  defineRoute('mark-stream-as-read', {
    handle: async (ctx) => {
      await act(ctx, doMarkStreamAsRead);
      return {};
    },
  }),
];

export default routes;
