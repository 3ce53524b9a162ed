import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { createDrafts, deleteDraft, editDraft } from '../drafts/actions.js';

/** POST /drafts (§4.6): the new drafts' IDs, in the order sent. */
export function doCreateDrafts(tx: Tx, actor: ActorContext, params: ParamsOf<'create-drafts'>): number[] {
  return createDrafts(tx, actor, params.drafts);
}

export function doEditDraft(tx: Tx, actor: ActorContext, params: ParamsOf<'edit-draft'>): void {
  editDraft(tx, actor, params.draft_id, params.draft);
}

export function doDeleteDraft(tx: Tx, actor: ActorContext, params: ParamsOf<'delete-draft'>): void {
  deleteDraft(tx, actor, params.draft_id);
}
