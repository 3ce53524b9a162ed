import type { ParamsOf } from '../contract/operation-types.js';
import { ownedRows } from '../store/indexes.js';
import type { EventOf, WithoutType } from '../contract/event-types.js';
import type { SchemaOf } from '../contract/operation-types.js';
import type { Tx } from '../store/store.js';
import type { RealmState, SavedSnippetRow, UserRow } from '../store/state.js';
import type { ActorContext } from './actor.js';
import { missingResource } from './errors.js';

/**
 * Saved snippets (spec §2.10, §4.14; the list, create and delete companions follow the reference
 * server). A snippet belongs to one user: every role, guests and bots included, manages its own and no
 * one else's, so there is no permission rule to consult, only ownership (the spec names none; the
 * reference server has none either). Lengths and blank values are refused by the parameter pipeline
 * from the document (title 1..60, content 1..10000, both stripped).
 */

/** The wire object (spec §2.10): the register snapshot, the list and the events all present it here. */
export function presentSavedSnippet(row: SavedSnippetRow): SchemaOf<'SavedSnippet'> {
  return { id: row.id, title: row.title, content: row.content, date_created: row.date_created };
}

/** A user's snippets by ID, i.e. in creation order (the order a client appending `add` events keeps). */
export function ownSavedSnippets(tables: Pick<RealmState, 'saved_snippets'>, userId: number): SavedSnippetRow[] {
  return ownedRows(tables, 'saved_snippets', userId).sort((a, b) => a.id - b.id);
}

/** GET /saved_snippets (companion). */
export function listSavedSnippets(tables: RealmState, user: UserRow): SchemaOf<'SavedSnippet'>[] {
  return ownSavedSnippets(tables, user.user_id).map(presentSavedSnippet);
}

/**
 * Another user's snippet answers exactly as a missing one: 404 with code BAD_REQUEST (reference §7,
 * "Readings that are not conflicts"), so an ID reveals nothing about other users' snippets.
 */
function ownSnippet(tx: Tx, user: UserRow, id: number): SavedSnippetRow {
  const row = tx.tables.saved_snippets[String(id)];
  if (!row || row.user_id !== user.user_id) throw missingResource('Saved snippet does not exist.');
  return row;
}

/** Per-user data: every queue of the owner, the calling client's included, and nobody else (reference §6). */
function emitSnippet(tx: Tx, userId: number, event: WithoutType<EventOf<'saved_snippets'>>): void {
  tx.emit({ type: 'saved_snippets', ...event }, [userId]);
}

/** POST /saved_snippets (companion of §4.14): `{saved_snippet_id}`; date_created is the realm's time. */
export function doCreateSavedSnippet(tx: Tx, actor: ActorContext, p: ParamsOf<'create-saved-snippet'>): number {
  const id = tx.nextId('saved_snippets');
  const row: SavedSnippetRow = { id, user_id: actor.user.user_id, title: p.title, content: p.content, date_created: actor.now };
  tx.put('saved_snippets', id, row);
  emitSnippet(tx, row.user_id, { op: 'add', saved_snippet: presentSavedSnippet(row) });
  return id;
}

/**
 * PATCH /saved_snippets/{id} (spec §4.14, reference §4.14). The parameters were read in the reference
 * order (content, path ID, title) by the pipeline. The snippet must exist and be the caller's even when
 * nothing is sent: the spec makes a missing snippet an error without exception (C15; the reference
 * server skips the lookup then). With nothing sent the call succeeds and emits nothing, since nothing
 * changed. Otherwise the event carries the whole snippet, as the reference server's does.
 */
export function doEditSavedSnippet(tx: Tx, actor: ActorContext, p: ParamsOf<'edit-saved-snippet'>): void {
  const id = p.saved_snippet_id;
  const row = ownSnippet(tx, actor.user, id);
  if (p.title === undefined && p.content === undefined) return;
  const next: SavedSnippetRow = { ...row, title: p.title ?? row.title, content: p.content ?? row.content };
  tx.put('saved_snippets', id, next);
  emitSnippet(tx, row.user_id, { op: 'update', saved_snippet: presentSavedSnippet(next) });
}

/** DELETE /saved_snippets/{id} (companion): event `remove` with the ID (reference "Event payloads"). */
export function doDeleteSavedSnippet(tx: Tx, actor: ActorContext, params: ParamsOf<'delete-saved-snippet'>): void {
  const id = params.saved_snippet_id;
  const row = ownSnippet(tx, actor.user, id);
  tx.delete('saved_snippets', id);
  emitSnippet(tx, row.user_id, { op: 'remove', saved_snippet_id: id });
}
