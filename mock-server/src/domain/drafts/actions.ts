import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { DraftRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { missingResource } from '../errors.js';
import { emitDraftRemove, emitDraftsAdd, emitDraftUpdate } from './present.js';
import { checkContentsNotBlank, checkDraft, type DraftInput } from './validate.js';

/**
 * Creating, editing and deleting drafts (spec §4.6 and the companions of reference §4.6 "Related").
 * Each action runs inside one transaction: every check comes before the first write, so a refusal
 * changes nothing (no row, no ID taken, no event).
 */

/**
 * POST /drafts (spec §4.6). `drafts` is optional (C6): the pipeline gives the document's default `[]`
 * when it is absent. The first draft that fails aborts the whole batch (reference §4.6). An empty batch
 * creates nothing and so announces nothing. IDs come back in input order.
 */
export function doCreateDrafts(tx: Tx, actor: ActorContext, params: ParamsOf<'create-drafts'>): number[] {
  const drafts: readonly DraftInput[] = params.drafts;
  checkContentsNotBlank(drafts, (index) => `drafts[${index}]`);
  const checked = drafts.map((draft) => checkDraft(tx.tables, actor, draft));
  if (checked.length === 0) return [];
  const rows = checked.map((fields): DraftRow => ({ id: tx.nextId('drafts'), user_id: actor.user.user_id, ...fields }));
  for (const row of rows) tx.put('drafts', row.id, row);
  emitDraftsAdd(tx, actor.user.user_id, rows, actor.features);
  return rows.map((row) => row.id);
}

/**
 * One of the caller's drafts. Another user's draft and a missing one answer alike (HTTP 404, code
 * BAD_REQUEST, reference §4.6 "Related" and §7), so IDs of other users' drafts leak nothing.
 */
function ownDraft(tx: Tx, actor: ActorContext, draftId: number): DraftRow {
  const row = tx.tables.drafts[String(draftId)];
  if (!row || row.user_id !== actor.user.user_id) throw missingResource('Draft does not exist');
  return row;
}

/**
 * PATCH /drafts/{draft_id} (companion): the draft is replaced by `draft`, checked as one element of
 * §4.6's batch; a missing timestamp is now. Order: the document's x-parse-order reads `draft_id` and
 * then `draft` (the blank-content rule belongs to parsing), and only then is the draft looked up,
 * before its own checks, as the reference server does (a parse error beats an existence error,
 * reference §1 "Order of checks").
 */
export function doEditDraft(tx: Tx, actor: ActorContext, params: ParamsOf<'edit-draft'>): void {
  const { draft_id: draftId, draft } = params;
  checkContentsNotBlank([draft], () => 'draft');
  const row = ownDraft(tx, actor, draftId);
  const next: DraftRow = { id: row.id, user_id: row.user_id, ...checkDraft(tx.tables, actor, draft) };
  tx.put('drafts', next.id, next);
  emitDraftUpdate(tx, next, actor.features);
}

/** DELETE /drafts/{draft_id} (companion). */
export function doDeleteDraft(tx: Tx, actor: ActorContext, params: ParamsOf<'delete-draft'>): void {
  const row = ownDraft(tx, actor, params.draft_id);
  tx.delete('drafts', row.id);
  emitDraftRemove(tx, row);
}
