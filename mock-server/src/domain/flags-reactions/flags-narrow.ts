import type { ParamsOf } from '../../contract/operation-types.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { findMessages, MAX_MESSAGES_PER_FETCH } from '../messages/history.js';
import { parseNarrow } from '../messages/narrow.js';
import { checkFlagRequest, updateMessageFlags } from './flags.js';

export interface FlagsNarrowResult {
  processed_count: number;
  updated_count: number;
  first_processed_id: number | null;
  last_processed_id: number | null;
  found_oldest: boolean;
  found_newest: boolean;
  ignored_because_not_subscribed_channels?: number[];
}

/**
 * POST /messages/flags/narrow (reference update-message-flags-for-narrow): the range GET /messages would
 * answer (messages/history.ts findMessages, the same narrow and anchors), then update-message-flags on it.
 * In the reference's order: the narrow and range first, then the flag and operation checks, all in one
 * transaction (a refusal changes nothing). The reference bounds a range instead of refusing it: num_before
 * is cut to 5,000 and num_after to what is left. `updated_count` counts the messages whose flag changed.
 */
export function doUpdateMessageFlagsForNarrow(
  tx: Tx,
  actor: ActorContext,
  query: ParamsOf<'update-message-flags-for-narrow'>,
): FlagsNarrowResult {
  const user = actor.user;
  const numBefore = Math.min(query.num_before, MAX_MESSAGES_PER_FETCH);
  const numAfter = Math.min(query.num_after, MAX_MESSAGES_PER_FETCH - numBefore);
  const found = findMessages(tx.tables, user, {
    anchor: query.anchor,
    useFirstUnreadAnchor: false,
    includeAnchor: query.include_anchor,
    numBefore,
    numAfter,
    narrow: parseNarrow(query.narrow),
  });
  const op = checkFlagRequest(query.op, query.flag);
  const updated = updateMessageFlags(tx, user, found.ids, op, query.flag);
  return {
    processed_count: found.ids.length,
    updated_count: updated.changed.length,
    first_processed_id: found.ids[0] ?? null,
    last_processed_id: found.ids.at(-1) ?? null,
    found_oldest: found.foundOldest,
    found_newest: found.foundNewest,
    ...(updated.ignored_because_not_subscribed_channels
      ? { ignored_because_not_subscribed_channels: updated.ignored_because_not_subscribed_channels }
      : {}),
  };
}
