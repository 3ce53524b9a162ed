import type { Features } from '../../config/features.js';
import type { EventOf } from '../../contract/event-types.js';
import type { SchemaOf } from '../../contract/operation-types.js';
import type { ClientView } from '../../contract/client-view.js';
import { ownedRows } from '../../store/indexes.js';
import type { DraftRow, RealmState } from '../../store/state.js';
import type { Tx } from '../../store/store.js';
import { presentTopic } from '../topics.js';

/**
 * The draft object (spec §2.6, reference §2) and its events, in one place: GET /drafts, the register
 * snapshot and the `drafts` events all present rows through here, so a client that follows the events
 * ends up with what a new snapshot shows.
 */

/** How a reader sees topics: the realm's level and what the reader's client declared. */
export interface DraftView {
  features: Features;
  client: Pick<ClientView, 'empty_topic_name'>;
}

/**
 * GET /drafts has no way to declare the empty_topic_name capability, so it answers as to a client that
 * did not: spec §1 ("responses replace the empty string topic by that display name" for such clients)
 * wins over the reference server, which returns the stored "". GET /scheduled_messages does the same.
 */
const LIST_CLIENT = { empty_topic_name: false } as const;

/**
 * The reference server caps the drafts of the register snapshot (reference §4.21 "newest first,
 * capped"); its limit is 1000.
 */
export const MAX_DRAFTS_IN_REGISTER = 1000;

/**
 * `topic` only means something for channel drafts (spec §2.6): there "" is the empty topic and shows as
 * the display name to clients without empty_topic_name (§1). Below level 334 the empty topic does not
 * exist (§9), so a channel draft's "" is a topic not typed yet and goes out as it is, capability or not.
 */
export function presentDraft(row: DraftRow, view: DraftView): SchemaOf<'Draft'> {
  const shown = row.type === 'stream' && view.features.has('empty_topic_name') ? presentTopic(row.topic, view.client) : row.topic;
  return { id: row.id, type: row.type, to: [...row.to], topic: shown, content: row.content, timestamp: row.timestamp };
}

function ownDrafts(tables: Pick<RealmState, 'drafts'>, userId: number): DraftRow[] {
  return ownedRows(tables, 'drafts', userId);
}

/** GET /drafts (companion of §4.6, reference §4.6 "Related"): oldest first, by timestamp then ID. */
export function listDrafts(tables: Pick<RealmState, 'drafts'>, userId: number, features: Features): SchemaOf<'Draft'>[] {
  return ownDrafts(tables, userId)
    .sort((a, b) => a.timestamp - b.timestamp || a.id - b.id)
    .map((d) => presentDraft(d, { features, client: LIST_CLIENT }));
}

/** Register type `drafts` (reference §4.21): newest first (ties by ID, newest first), capped. */
export function draftsSnapshot(tables: Pick<RealmState, 'drafts'>, userId: number, view: DraftView): SchemaOf<'Draft'>[] {
  return ownDrafts(tables, userId)
    .sort((a, b) => b.timestamp - a.timestamp || b.id - a.id)
    .slice(0, MAX_DRAFTS_IN_REGISTER)
    .map((d) => presentDraft(d, view));
}

/**
 * `drafts` events (reference "Event payloads") go to every queue of the owner, the creating client's
 * included (spec §6 item 5; reference §6: the server cannot tell which queue is the caller's). Each
 * queue gets the topics its client can read; events/shape.ts rewrites only top-level topic keys, so the
 * nested drafts are shaped here, at the realm's level when the change happened.
 */
export function emitDraftsAdd(tx: Tx, userId: number, rows: readonly DraftRow[], features: Features): void {
  const event = (client: DraftView['client']): EventOf<'drafts', 'add'> => ({
    type: 'drafts',
    op: 'add',
    drafts: rows.map((row) => presentDraft(row, { features, client })),
  });
  tx.emit(event({ empty_topic_name: true }), [userId], event);
}

export function emitDraftUpdate(tx: Tx, row: DraftRow, features: Features): void {
  const event = (client: DraftView['client']): EventOf<'drafts', 'update'> => ({
    type: 'drafts',
    op: 'update',
    draft: presentDraft(row, { features, client }),
  });
  tx.emit(event({ empty_topic_name: true }), [row.user_id], event);
}

export function emitDraftRemove(tx: Tx, row: DraftRow): void {
  tx.emit({ type: 'drafts', op: 'remove', draft_id: row.id }, [row.user_id]);
}
