import type { AnswerOf } from '../../contract/operation-types.js';
import type { RealmState, UserRow } from '../../store/state.js';
import {
  anchorExcludedInsideRange,
  invalidAnchor,
  missingAnchor,
  spectatorNarrowRequired,
  tooManyMessagesRequested,
  unsupportedParameterCombination,
} from '../errors.js';
import { presentMessage, viewMessage } from '../present/messages.js';
import { MessageWalk } from './message-walk.js';
import type { NarrowTerm } from './narrow.js';
import { compileNarrow, prepareNarrow, type CompiledNarrow } from './narrow-compile.js';

/**
 * GET /messages (companion tier; reference https://zulip.com/api/get-messages): a window of the
 * messages matching a narrow around an anchor. POST /messages/flags/narrow selects its messages with
 * the same `findMessages`.
 */

/** The reference's MAX_MESSAGES_PER_FETCH. */
export const MAX_MESSAGES_PER_FETCH = 5000;
/** The reference's LARGER_THAN_MAX_MESSAGE_ID: the anchor `newest` stands for, and the answer's `anchor` then. */
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

export interface HistoryQuery {
  /** The raw `anchor` text; undefined when absent. */
  anchor: string | undefined;
  useFirstUnreadAnchor: boolean;
  includeAnchor: boolean;
  numBefore: number;
  numAfter: number;
  narrow: NarrowTerm[];
  /** message_ids (feature level 300): these messages instead of a window; undefined when not given. */
  messageIds?: number[];
}

export interface FoundMessages {
  /** Matching IDs, ascending. */
  ids: number[];
  /** null when message_ids chose the messages (the answer then has no `anchor`). */
  anchor: number | null;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
  /**
   * Always false: the reference sets it when a plan's limit on visible history hid older messages; the
   * mock has no such limit.
   */
  historyLimited: boolean;
  narrow: CompiledNarrow;
  walk: MessageWalk;
}

/**
 * `anchor` as the reference reads it: `newest`, `oldest`, `first_unread` or an integer (surrounding
 * spaces and a sign allowed, as Python's int() allows them); negative IDs mean the oldest, IDs beyond
 * the largest mean the newest. `use_first_unread_anchor` (deprecated) wins over any anchor.
 */
export function parseAnchor(anchor: string | undefined, useFirstUnread: boolean): number | 'first_unread' {
  if (useFirstUnread) return 'first_unread';
  if (anchor === undefined) throw missingAnchor();
  if (anchor === 'oldest') return 0;
  if (anchor === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (anchor === 'first_unread') return 'first_unread';
  if (!/^\s*[+-]?\d+\s*$/.test(anchor)) throw invalidAnchor();
  const value = Number(anchor.trim());
  return value < 0 ? 0 : Math.min(value, LARGER_THAN_MAX_MESSAGE_ID);
}

/**
 * The messages of a window, with the checks in the reference server's order: the anchor, the narrow's
 * rewriting (`with`), the 5,000 cap, an excluded anchor inside the range, then the narrow's terms.
 *
 * Semantics (reference limit_query_to_range / post_process_limited_query): up to `numBefore` matches
 * below the anchor, the anchor itself when it matches and `includeAnchor`, up to `numAfter` above it.
 * `found_oldest` / `found_newest`: fewer were found than asked for on that side, or the anchor was
 * `oldest` / `newest` (or first_unread without unread messages, which counts as newest).
 */
export function findMessages(tables: RealmState, viewer: UserRow | null, query: HistoryQuery): FoundMessages {
  if (query.messageIds !== undefined) return findListed(tables, viewer, query, query.messageIds);
  const asked = parseAnchor(query.anchor, query.useFirstUnreadAnchor);
  const terms = prepareNarrow(tables, viewer, query.narrow);
  if (query.numBefore + query.numAfter > MAX_MESSAGES_PER_FETCH) throw tooManyMessagesRequested(MAX_MESSAGES_PER_FETCH);
  if (query.numBefore > 0 && query.numAfter > 0 && !query.includeAnchor) throw anchorExcludedInsideRange();
  const narrow = compileNarrow(tables, viewer, viewer ? terms : spectatorTerms(terms));
  const walk = new MessageWalk(tables, narrow);
  const anchor = asked === 'first_unread' ? (walk.firstUnread() ?? LARGER_THAN_MAX_MESSAGE_ID) : asked;
  const toLeft = anchor === 0;
  const toRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;
  const numAfter = toRight ? 0 : query.numAfter;

  const before = toLeft ? [] : take(walk.descending(toRight ? Infinity : anchor), query.numBefore).reverse();
  const foundAnchor = query.includeAnchor && !toLeft && !toRight && walk.matches(anchor);
  const after = take(walk.ascending(anchor), numAfter);
  return {
    ids: [...before, ...(foundAnchor ? [anchor] : []), ...after],
    anchor,
    foundAnchor,
    foundOldest: toLeft || before.length < query.numBefore,
    foundNewest: toRight || after.length < numAfter,
    historyLimited: false,
    narrow,
    walk,
  };
}

/** The reference's list of the window parameters message_ids cannot be combined with, in its order. */
const WINDOW_PARAMETERS = ['num_before', 'num_after', 'anchor', 'message_ids', 'include_anchor', 'use_first_unread_anchor'];

/**
 * GET /messages with message_ids (reference, feature level 300): those of the listed messages the
 * viewer may read and the narrow matches, ascending; found_* all false. A window parameter beside it is
 * refused (include_anchor is not checked, as on the reference server).
 */
function findListed(tables: RealmState, viewer: UserRow | null, query: HistoryQuery, listed: number[]): FoundMessages {
  if (query.numBefore > 0 || query.numAfter > 0 || query.anchor !== undefined || query.useFirstUnreadAnchor)
    throw unsupportedParameterCombination(WINDOW_PARAMETERS);
  const terms = prepareNarrow(tables, viewer, query.narrow);
  if (listed.length > MAX_MESSAGES_PER_FETCH) throw tooManyMessagesRequested(MAX_MESSAGES_PER_FETCH);
  const narrow = compileNarrow(tables, viewer, viewer ? terms : spectatorTerms(terms));
  const walk = new MessageWalk(tables, narrow);
  const ids = [...new Set(listed)].sort((a, b) => a - b).filter((id) => walk.matches(id));
  return { ids, anchor: null, foundAnchor: false, foundOldest: false, foundNewest: false, historyLimited: false, narrow, walk };
}

/** Operators a spectator may use (reference is_spectator_compatible): nothing personal. */
const SPECTATOR_OPERATORS = new Set(['channel', 'stream', 'channels', 'streams', 'topic', 'sender', 'has', 'search', 'near', 'id']);

/**
 * A spectator's narrow (reference, web-public access): `in:home` is dropped (everything is "home" to a
 * spectator); it must say `channels:web-public` and use only impersonal operators, otherwise the request
 * is answered as one that lacks credentials.
 */
function spectatorTerms(terms: NarrowTerm[]): NarrowTerm[] {
  const kept = terms.filter((t) => !(t.operator === 'in' && t.operand === 'home' && !t.negated));
  const webPublic = kept.some((t) => (t.operator === 'channels' || t.operator === 'streams') && t.operand === 'web-public' && !t.negated);
  if (!webPublic || !kept.every((t) => SPECTATOR_OPERATORS.has(t.operator))) throw spectatorNarrowRequired();
  return kept;
}

function take(ids: IterableIterator<number>, limit: number): number[] {
  const out: number[] = [];
  if (limit <= 0) return out;
  for (const id of ids) {
    out.push(id);
    if (out.length >= limit) break;
  }
  return out;
}

export interface HistoryView {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allowEmptyTopicName: boolean;
}

/**
 * The answer of GET /messages: each message as one reader sees it (the view of GET /messages/{id}),
 * with the viewer's `flags` (`read` + `historical` for history they never received) and, for a search,
 * `match_content` / `match_subject`.
 */
export function presentHistory(
  tables: RealmState,
  viewer: UserRow | null,
  found: FoundMessages,
  view: HistoryView,
): AnswerOf<'get-messages'> {
  // A spectator's avatars are always URLs (reference: client_gravatar is ignored for them).
  const clientGravatar = viewer !== null && view.clientGravatar;
  const shown = { applyMarkdown: view.applyMarkdown, clientGravatar, emptyTopicName: view.allowEmptyTopicName, viewer };
  const messages = found.ids.map((id) => {
    const row = tables.messages[String(id)]!;
    // Spectators have read everything; history a user never received is read and historical.
    const flags = viewer === null ? ['read'] : (found.walk.flagsOf(id) ?? ['read', 'historical']);
    const message = { ...viewMessage(presentMessage(tables, row), shown), flags: [...flags] };
    return found.narrow.search ? { ...message, ...found.narrow.search.highlight(row) } : message;
  });
  return {
    messages,
    found_anchor: found.foundAnchor,
    found_oldest: found.foundOldest,
    found_newest: found.foundNewest,
    history_limited: found.historyLimited,
    ...(found.anchor === null ? {} : { anchor: found.anchor }),
  };
}
