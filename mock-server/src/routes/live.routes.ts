import { doSetTypingStatus } from '../domain/live/typing.js';
import { doUpdatePresence, legacyPresences, PRESENCE_HISTORY_DAYS, userPresence } from '../domain/live/presence.js';
import { temporaryFileUrl } from '../domain/live/file-tokens.js';
import { doRemoveAttachment, doUploadFile, listAttachments } from '../domain/live/uploads.js';
import { refuseBotCallers } from '../domain/users/status.js';
import { defineAction, defineRoute, type RouteSpec, transactAs } from '../http/define-routes.js';

/** Typing, presence and uploads (companion tier, area live); rules in domain/live/. */
const routes: RouteSpec[] = [
  defineAction('set-typing-status', doSetTypingStatus),
  // The reference refuses bots before reading any parameter (human_users_only).
  defineAction('update-presence', doUpdatePresence, { gate: ({ actor }) => refuseBotCallers(actor.user) }),
  defineRoute('get-user-presence', {
    handle: ({ tables, params, now }) => ({ presence: userPresence(tables, params.user_id_or_email, now) }),
  }),
  defineRoute('get-presence', {
    handle: ({ tables, now }) => ({
      presences: legacyPresences(tables, { historyDays: PRESENCE_HISTORY_DAYS, now }),
      server_timestamp: now,
    }),
  }),
  defineRoute('upload-file', {
    handle: async (ctx) => {
      const limits = { maxFileMib: ctx.app.config.maxFileUploadMib, quotaMib: ctx.app.config.uploadQuotaMib };
      const { url, filename } = await transactAs(ctx, (tx, actor) => doUploadFile(tx, actor, { files: ctx.files, limits }));
      // `uri` is the reference's older name of the same URL, kept for clients that still read it.
      return { uri: url, url, filename };
    },
  }),
  defineRoute('get-attachments', {
    handle: ({ tables, actor }) => listAttachments(tables, actor.user),
  }),
  defineAction('remove-attachment', doRemoveAttachment),
  defineRoute('get-file-temporary-url', {
    handle: ({ tables, actor, params, now }) => temporaryFileUrl(tables, actor.realmId, actor.user, now, params),
  }),
];

export default routes;
