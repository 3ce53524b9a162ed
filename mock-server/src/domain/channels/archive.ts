import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import { badRequest } from '../errors.js';
import { mayArchiveChannel } from '../permissions.js';
import { emitArchiveChange, metadataAudience, type EmitContext } from './events.js';
import { channelById } from './lookup.js';
import type { ActorContext } from '../actor.js';
import { setDefault } from './update.js';

/**
 * DELETE /streams/{stream_id}: archiving a channel. The spec leaves "how a channel becomes archived" unshown
 * (§3); the reference server archives through this operation. Whoever may administer the channel may
 * archive it; an archived channel leaves the default channels. PATCH with is_archived undoes it (§3, C4).
 */
export function doArchiveStream(tx: Tx, actor: ActorContext, params: ParamsOf<'archive-stream'>): void {
  const channel = channelById(tx.tables, actor.user, params.stream_id, { access: 'metadata', archived: true });
  if (!mayArchiveChannel(tx.tables, actor.user, channel)) throw badRequest('You do not have permission to administer this channel.');
  if (channel.is_archived) throw badRequest('Channel is already deactivated');
  const ctx: EmitContext = { tx, features: actor.features, now: actor.now };
  const next = { ...channel, is_archived: true };
  tx.put('channels', channel.stream_id, next);
  emitArchiveChange(
    ctx,
    next,
    metadataAudience(tx, next).map((u) => u.user_id),
  );
  if (tx.tables.realm.realm.default_stream_ids.includes(channel.stream_id)) setDefault(tx, ctx, next, false);
}
