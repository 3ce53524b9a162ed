import type { ParamsOf, SchemaOf } from '../../contract/operation-types.js';
import type { LinkifierRow, RealmState, UserRow } from '../../store/state.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { badRequest, insufficientPermission, type ApiError } from '../errors.js';
import { checkLinkifier, type LinkifierError } from '../markdown/linkifier-patterns.js';
import { mayManageLinkifiers } from '../permissions.js';
import { emitLinkifiers, linkifierList, orderedLinkifiers } from './present.js';

/**
 * Linkifiers (spec §2.11, §4.18; the list, update, remove and reorder companions follow the reference
 * server). Every change re-sends the whole list as `realm_linkifiers` (present.ts), and the renderer
 * reads the realm's rows on every rendering (markdown/env.ts), so a change applies to the next message
 * or POST /messages/render at once; messages already sent keep the HTML they were stored with, while
 * their topic_links follow the current set (domain/present/messages.ts).
 */

export interface LinkifierParams {
  pattern: string;
  url_template: string;
}

/**
 * C19: administrators only, `Insufficient permission` (BAD_REQUEST) for everyone else. The reference
 * server's administrator decorator wraps the parameter parsing, so the routes call this as a gate,
 * before any parameter is read: a member sending nothing gets this, not `Missing 'pattern' argument`.
 * The actions check again, so they are safe whoever calls them.
 */
export function requireLinkifierManager(user: UserRow): void {
  if (!mayManageLinkifiers(user)) throw insufficientPermission();
}

/** GET /realm/linkifiers (companion): any user of the realm, guests and bots included (reference server). */
export function listLinkifiers(tables: Pick<RealmState, 'linkifiers'>): SchemaOf<'Linkifier'>[] {
  return linkifierList(tables);
}

/** POST /realm/filters (spec §4.18): the new linkifier goes last in the display order (reference §2). */
export function doAddLinkifier(tx: Tx, actor: ActorContext, params: ParamsOf<'add-linkifier'>): number {
  requireLinkifierManager(actor.user);
  const fields = validated(tx.tables, params, null);
  const last = orderedLinkifiers(tx.tables).at(-1);
  const id = tx.nextId('linkifiers');
  tx.put('linkifiers', id, { id, ...fields, order: last === undefined ? 0 : last.order + 1 });
  emitLinkifiers(tx);
  return id;
}

/**
 * PATCH /realm/filters/{filter_id} (companion): the reference looks the linkifier up before it
 * validates, so an unknown ID with a bad pattern answers `Linkifier not found.`. Keeps its place.
 */
export function doUpdateLinkifier(tx: Tx, actor: ActorContext, params: ParamsOf<'update-linkifier'>): void {
  requireLinkifierManager(actor.user);
  const id = params.filter_id;
  const row = existing(tx.tables, id);
  tx.put('linkifiers', id, { ...row, ...validated(tx.tables, params, id) });
  emitLinkifiers(tx);
}

/** DELETE /realm/filters/{filter_id} (companion). The others keep their relative order. */
export function doRemoveLinkifier(tx: Tx, actor: ActorContext, params: ParamsOf<'remove-linkifier'>): void {
  requireLinkifierManager(actor.user);
  const id = params.filter_id;
  existing(tx.tables, id);
  tx.delete('linkifiers', id);
  emitLinkifiers(tx);
}

/**
 * PATCH /realm/linkifiers (companion): the list must name every linkifier exactly once. Checks and
 * texts are the reference server's: duplicates first, then any difference from the realm's set (an
 * unknown ID or a missing one). A realm without linkifiers accepts `[]` and changes nothing, so no
 * event (the reference returns before it writes). Otherwise the list is re-sent even if the order is
 * the same, as the reference does.
 */
export function doReorderLinkifiers(tx: Tx, actor: ActorContext, params: ParamsOf<'reorder-linkifiers'>): void {
  requireLinkifierManager(actor.user);
  const orderedIds = params.ordered_linkifier_ids;
  if (new Set(orderedIds).size < orderedIds.length) throw badRequest('The ordered list must not contain duplicated linkifiers');
  const rows = Object.values(tx.tables.linkifiers);
  const wanted = new Set(orderedIds);
  if (rows.length !== wanted.size || rows.some((row) => !wanted.has(row.id))) {
    throw badRequest('The ordered list must enumerate all existing linkifiers exactly once');
  }
  if (rows.length === 0) return;
  orderedIds.forEach((id, order) => {
    const row = tx.tables.linkifiers[String(id)]!;
    if (row.order !== order) tx.put('linkifiers', id, { ...row, order });
  });
  emitLinkifiers(tx);
}

function existing(tables: Pick<RealmState, 'linkifiers'>, id: number): LinkifierRow {
  const row = tables.linkifiers[String(id)];
  if (!row) throw badRequest('Linkifier not found.');
  return row;
}

/**
 * The reference strips both values before validating them (so `"  "` is a blank pattern), then runs
 * its model validation: markdown/linkifier-patterns.ts checkLinkifier gives the first error in the reference's
 * order, then a pattern the realm already has (the reference's unique (realm, pattern) constraint;
 * Django's text for it, likely; the spec and the reference notes are silent). `self` is the linkifier
 * being updated, which may keep its own pattern.
 */
function validated(tables: Pick<RealmState, 'linkifiers'>, params: LinkifierParams, self: number | null): LinkifierParams {
  const pattern = params.pattern.trim();
  const urlTemplate = params.url_template.trim();
  const error = checkLinkifier(pattern, urlTemplate);
  if (error) throw validationError(error);
  if (Object.values(tables.linkifiers).some((row) => row.pattern === pattern && row.id !== self)) {
    throw validationError({ field: '__all__', message: 'Realm filter with this Realm and Pattern already exists.' });
  }
  return { pattern, url_template: urlTemplate };
}

/**
 * Reference §4.18: a validation error carries `errors: {field: [messages]}` and the first message as
 * `msg`. Keys as in the OpenAPI document's examples: `pattern` (blank, bad regular expression),
 * `url_template` (blank, invalid template), and `__all__` (Django's key for whole-object errors) for
 * the group mismatches and the duplicate.
 */
function validationError(error: LinkifierError): ApiError {
  return badRequest(error.message, { errors: { [error.field]: [error.message] } });
}
