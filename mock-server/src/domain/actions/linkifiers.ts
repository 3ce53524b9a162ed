import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { addLinkifier, removeLinkifier, reorderLinkifiers, updateLinkifier } from '../linkifiers/actions.js';

/** POST /realm/filters (§4.18): the new linkifier's ID. */
export function doAddLinkifier(tx: Tx, actor: ActorContext, params: ParamsOf<'add-linkifier'>): number {
  return addLinkifier(tx, actor, params);
}

export function doUpdateLinkifier(tx: Tx, actor: ActorContext, params: ParamsOf<'update-linkifier'>): void {
  updateLinkifier(tx, actor, params.filter_id, params);
}

export function doRemoveLinkifier(tx: Tx, actor: ActorContext, params: ParamsOf<'remove-linkifier'>): void {
  removeLinkifier(tx, actor, params.filter_id);
}

export function doReorderLinkifiers(tx: Tx, actor: ActorContext, params: ParamsOf<'reorder-linkifiers'>): void {
  reorderLinkifiers(tx, actor, params.ordered_linkifier_ids);
}
