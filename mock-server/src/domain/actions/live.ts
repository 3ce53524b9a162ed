import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { updatePresence } from '../live/presence.js';
import { sendTyping } from '../live/typing.js';
import { removeAttachment, uploadFile, type UploadedFile, type UploadLimits } from '../live/uploads.js';

/** POST /typing (companion, area live): events only. */
export function doSetTypingStatus(tx: Tx, actor: ActorContext, params: ParamsOf<'set-typing-status'>): void {
  sendTyping(tx, actor, params);
}

/** POST /users/me/presence: the presence data the caller asked for. */
export function doUpdatePresence(tx: Tx, actor: ActorContext, params: ParamsOf<'update-presence'>): Record<string, unknown> {
  return updatePresence(tx, actor, params);
}

/** POST /user_uploads: the stored file's URL and name. The files come from the body parser, not the document. */
export function doUploadFile(files: readonly UploadedFile[], limits: UploadLimits) {
  return (tx: Tx, actor: ActorContext, _params: ParamsOf<'upload-file'>) => uploadFile(tx, actor, files, limits);
}

export function doRemoveAttachment(tx: Tx, actor: ActorContext, params: ParamsOf<'remove-attachment'>): void {
  removeAttachment(tx, actor, params.attachment_id);
}
