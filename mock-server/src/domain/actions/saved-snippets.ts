import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { createSavedSnippet, deleteSavedSnippet, editSavedSnippet } from '../saved-snippets.js';

/** POST /saved_snippets (§4.14 companion): the new snippet's ID. */
export function doCreateSavedSnippet(tx: Tx, actor: ActorContext, params: ParamsOf<'create-saved-snippet'>): number {
  return createSavedSnippet(tx, actor, params);
}

export function doEditSavedSnippet(tx: Tx, actor: ActorContext, params: ParamsOf<'edit-saved-snippet'>): void {
  editSavedSnippet(tx, actor, params.saved_snippet_id, params);
}

export function doDeleteSavedSnippet(tx: Tx, actor: ActorContext, params: ParamsOf<'delete-saved-snippet'>): void {
  deleteSavedSnippet(tx, actor, params.saved_snippet_id);
}
