import { doRemoveAttachment, doSetTypingStatus, doUpdatePresence, doUploadFile } from '../domain/actions/live.js';
import { PRESENCE_HISTORY_DAYS, realmPresences, userPresence } from '../domain/live/presence.js';
import { listAttachments } from '../domain/live/uploads.js';
import { refuseBotCallers } from '../domain/users/status.js';
import { act, defineRoute, type RouteSpec } from '../http/define-routes.js';

/** Typing, presence and uploads (companion tier, area live); rules in domain/live/. */
const routes: RouteSpec[] = [
  defineRoute('set-typing-status', {
    handle: async (ctx) => {
      await act(ctx, doSetTypingStatus);
      return {};
    },
  }),
  defineRoute('update-presence', {
    // The reference refuses bots before reading any parameter (human_users_only).
    gate: ({ actor }) => refuseBotCallers(actor.user),
    handle: (ctx) => act(ctx, doUpdatePresence),
  }),
  defineRoute('get-user-presence', {
    handle: ({ tables, params, now }) => ({ presence: userPresence(tables, params.user_id_or_email, now) }),
  }),
  defineRoute('get-presence', {
    handle: ({ tables, now }) => ({
      presences: realmPresences(tables, { slim: false, historyDays: PRESENCE_HISTORY_DAYS, now }),
      server_timestamp: now,
    }),
  }),
  defineRoute('upload-file', {
    handle: async (ctx) => {
      const limits = { maxFileMib: ctx.app.config.maxFileUploadMib, quotaMib: ctx.app.config.uploadQuotaMib };
      const { url, filename } = await act(ctx, doUploadFile(ctx.files, limits));
      // `uri` is the reference's older name of the same URL, kept for clients that still read it.
      return { uri: url, url, filename };
    },
  }),
  defineRoute('get-attachments', {
    handle: ({ tables, actor }) => listAttachments(tables, actor.user),
  }),
  defineRoute('remove-attachment', {
    handle: async (ctx) => {
      await act(ctx, doRemoveAttachment);
      return {};
    },
  }),
];

export default routes;
