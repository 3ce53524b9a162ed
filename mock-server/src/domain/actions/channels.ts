import type { ParamsOf } from '../../contract/operation-types.js';
import { CHANNEL_GROUP_SETTINGS } from '../../store/state.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { archiveChannel } from '../channels/archive.js';
import { updateChannel } from '../channels/update.js';
import type { UpdateChannelParams } from '../channels/update-plan.js';

/** PATCH /streams/{stream_id} (§4.16): the permission settings arrive one field each and change as one set. */
export function doUpdateStream(tx: Tx, actor: ActorContext, params: ParamsOf<'update-stream'>): void {
  const groups: UpdateChannelParams['groups'] = {};
  for (const setting of CHANNEL_GROUP_SETTINGS) {
    const update = params[setting];
    if (update !== undefined) groups[setting] = update;
  }
  updateChannel(tx, actor, { ...params, groups });
}

/** DELETE /streams/{stream_id} (companion). */
export function doArchiveStream(tx: Tx, actor: ActorContext, params: ParamsOf<'archive-stream'>): void {
  archiveChannel(tx, actor, params.stream_id);
}
