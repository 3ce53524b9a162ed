import type { ParamsOf } from '../contract/operation-types.js';
import { ownedRows } from '../store/indexes.js';
import type { EventOf, WithoutType } from '../contract/event-types.js';
import type { SchemaOf } from '../contract/operation-types.js';
import type { Tx } from '../store/store.js';
import type { NavigationViewRow, RealmState, UserRow } from '../store/state.js';
import type { ActorContext } from './actor.js';
import { badRequest, navigationViewNotFound } from './errors.js';

/**
 * Navigation views (spec §2.9, §4.12; the list, add and remove companions follow the reference
 * server). Views belong to one user: every role, guests and bots included, manages its own and no one
 * else's, so there is no permission rule, only ownership (the spec names none; neither does the
 * reference server). Rows are keyed `${user_id}:${fragment}` (store/state.ts). Fragments are stripped
 * and non-blank, names stripped and non-blank: the parameter pipeline enforces both from the document.
 */

/** Reference §2: the fragments of the built-in views, which never carry a name. */
export const BUILT_IN_FRAGMENTS: ReadonlySet<string> = new Set([
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
]);

const isBuiltIn = (fragment: string) => BUILT_IN_FRAGMENTS.has(fragment);

/**
 * The wire object. Spec §2.9: `name` is omitted for built-in views (the reference server sends null; the
 * document allows both). The register snapshot, the list and the `add` event all present it here.
 */
export function presentNavigationView(row: NavigationViewRow): SchemaOf<'NavigationView'> {
  return row.name === null
    ? { fragment: row.fragment, is_pinned: row.is_pinned }
    : { fragment: row.fragment, is_pinned: row.is_pinned, name: row.name };
}

/**
 * A user's stored views, by fragment. The spec states no order; the reference server lists its rows in
 * creation order, which these rows do not record, so the order is the fragment's: stable across
 * restarts and independent of how the state file was written.
 */
export function ownNavigationViews(tables: Pick<RealmState, 'navigation_views'>, userId: number): NavigationViewRow[] {
  return ownedRows(tables, 'navigation_views', userId).sort((a, b) => (a.fragment < b.fragment ? -1 : a.fragment > b.fragment ? 1 : 0));
}

/** GET /navigation_views (companion): stored views only; a built-in view appears once stored. */
export function listNavigationViews(tables: RealmState, user: UserRow): SchemaOf<'NavigationView'>[] {
  return ownNavigationViews(tables, user.user_id).map(presentNavigationView);
}

const key = (userId: number, fragment: string) => `${userId}:${fragment}`;

const viewExists = () => badRequest('Navigation view already exists.');

/** Whether another of the user's views (not the one at `except`) already has this name. */
function nameTaken(tables: RealmState, userId: number, name: string, except?: string): boolean {
  return ownedRows(tables, 'navigation_views', userId).some((v) => v.name === name && v.fragment !== except);
}

/** Per-user data: every queue of the owner, the calling client's included, and nobody else (reference §6). */
function emitView(tx: Tx, userId: number, event: WithoutType<EventOf<'navigation_view'>>): void {
  tx.emit({ type: 'navigation_view', ...event }, [userId]);
}

/**
 * POST /navigation_views (companion of §4.12, reference §4.12 "Related"). Checks in the reference's
 * order: a built-in view with a name, a custom view without one, then a duplicate (the fragment already
 * stored, or the name used by another of the caller's views); texts from the reference server. `is_pinned`
 * is required by the document (the reference declares it without a default, and §2.9 gives none), so the
 * pipeline answers `Missing 'is_pinned' argument` before this runs.
 */
export function doAddNavigationView(tx: Tx, actor: ActorContext, p: ParamsOf<'add-navigation-view'>): void {
  const userId = actor.user.user_id;
  if (isBuiltIn(p.fragment) && p.name !== undefined) throw badRequest('Built-in views cannot have a custom name.');
  if (!isBuiltIn(p.fragment) && p.name === undefined) throw badRequest('Custom views must have a valid name.');
  if (tx.tables.navigation_views[key(userId, p.fragment)] || (p.name !== undefined && nameTaken(tx.tables, userId, p.name)))
    throw viewExists();
  const row: NavigationViewRow = { user_id: userId, fragment: p.fragment, is_pinned: p.is_pinned, name: p.name ?? null };
  tx.put('navigation_views', key(userId, p.fragment), row);
  emitView(tx, userId, { op: 'add', navigation_view: presentNavigationView(row) });
}

/**
 * PATCH /navigation_views/{fragment} (spec §4.12). Checks in the reference's order (reference §4.12): a
 * name for a built-in fragment (400 even when that view was never stored), a name another of the
 * caller's views uses, then no stored view with the fragment (404 NOT_FOUND, C14).
 *
 * The event's `data` holds the fields the request set, as the reference server's does. A request with
 * neither field (the spec makes both optional and is silent on it) still answers 404 for an unknown
 * view, and otherwise succeeds without an event: nothing changed, so there is nothing to tell (as for a
 * snippet edit with nothing sent, reference §4.14), and an `update` with empty `data` would be noise.
 */
export function doEditNavigationView(tx: Tx, actor: ActorContext, p: ParamsOf<'edit-navigation-view'>): void {
  const userId = actor.user.user_id;
  if (isBuiltIn(p.fragment) && p.name !== undefined) throw badRequest('Built-in views cannot have a custom name.');
  if (p.name !== undefined && nameTaken(tx.tables, userId, p.name, p.fragment)) throw viewExists();
  const row = tx.tables.navigation_views[key(userId, p.fragment)];
  if (!row) throw navigationViewNotFound();
  const data: Record<string, unknown> = {};
  if (p.is_pinned !== undefined) data.is_pinned = p.is_pinned;
  if (p.name !== undefined) data.name = p.name;
  if (Object.keys(data).length === 0) return;
  tx.put('navigation_views', key(userId, p.fragment), { ...row, is_pinned: p.is_pinned ?? row.is_pinned, name: p.name ?? row.name });
  emitView(tx, userId, { op: 'update', fragment: row.fragment, data });
}

/** DELETE /navigation_views/{fragment} (companion): a view never stored, built-in or not, is 404 (C14). */
export function doRemoveNavigationView(tx: Tx, actor: ActorContext, params: ParamsOf<'remove-navigation-view'>): void {
  const userId = actor.user.user_id;
  const fragment = params.fragment;
  const row = tx.tables.navigation_views[key(userId, fragment)];
  if (!row) throw navigationViewNotFound();
  tx.delete('navigation_views', key(userId, fragment));
  emitView(tx, userId, { op: 'remove', fragment: row.fragment });
}
