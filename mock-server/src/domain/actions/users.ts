import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { createUser } from '../users/create.js';
import { deactivateUser } from '../users/deactivate.js';
import { updateOwnStatus, updateStatusForUser } from '../users/status.js';
import { updateUser } from '../users/update.js';

/** POST /users (§4.10): the new user's ID. */
export function doCreateUser(tx: Tx, actor: ActorContext, params: ParamsOf<'create-user'>): { user_id: number } {
  return createUser(tx, actor, params);
}

/** PATCH /users/{user_id} (§4.7). */
export function doUpdateUser(tx: Tx, actor: ActorContext, params: ParamsOf<'update-user'>): void {
  updateUser(tx, actor, params);
}

/** DELETE /users/{user_id} (§4.17). */
export function doDeactivateUser(tx: Tx, actor: ActorContext, params: ParamsOf<'deactivate-user'>): void {
  deactivateUser(tx, actor, params);
}

/** POST /users/me/status (§4.5). */
export function doUpdateStatus(tx: Tx, actor: ActorContext, params: ParamsOf<'update-status'>): void {
  updateOwnStatus(tx, actor, params);
}

/** POST /users/{user_id}/status (§4.4). */
export function doUpdateStatusForUser(tx: Tx, actor: ActorContext, params: ParamsOf<'update-status-for-user'>): void {
  const { user_id: userId, ...status } = params;
  updateStatusForUser(tx, actor, userId, status);
}
