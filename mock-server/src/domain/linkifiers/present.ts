import type { LinkifierRow, RealmState } from '../../store/state.js';
import type { SchemaOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import { activeUserIds } from '../users/lookup.js';

/**
 * The linkifier object (spec §2.11; reference §2 "Linkifier": `{pattern, url_template, id}`) and the
 * realm's list of them. GET /realm/linkifiers, the register snapshot (events/snapshot/personal.ts) and
 * the `realm_linkifiers` event all present through here, so the three never disagree.
 */
export function presentLinkifier(row: LinkifierRow): SchemaOf<'Linkifier'> {
  return { pattern: row.pattern, url_template: row.url_template, id: row.id };
}

/**
 * The realm's linkifiers in display order, which is also the order they are applied in (ties, which
 * only a fixture could create, by ID: the renderer's rule in markdown/env.ts).
 */
export function orderedLinkifiers(tables: Pick<RealmState, 'linkifiers'>): LinkifierRow[] {
  return Object.values(tables.linkifiers).sort((a, b) => a.order - b.order || a.id - b.id);
}

export function linkifierList(tables: Pick<RealmState, 'linkifiers'>): SchemaOf<'Linkifier'>[] {
  return orderedLinkifiers(tables).map(presentLinkifier);
}

/**
 * Reference §4.18 and "Event payloads": `realm_linkifiers` with the whole list (no op), computed after
 * the change, to every active user of the realm (bots included, system bots have no queues). Queues
 * without the linkifier_url_template capability never get it (spec §4.21; events/shape.ts drops it).
 */
export function emitLinkifiers(tx: Tx): void {
  tx.emit({ type: 'realm_linkifiers', realm_linkifiers: linkifierList(tx.tables) }, activeUserIds(tx.tables));
}
