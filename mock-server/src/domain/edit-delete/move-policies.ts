import { topicMessages } from '../../store/indexes.js';
import type { ChannelRow, MessageRow, RealmState, UserRow } from '../../store/state.js';
import type { Tx } from '../../store/store.js';
import { channelContentAccess } from '../access.js';
import { topicPolicies, writePolicy, type VisibilityPolicy } from '../compat-lookups/user-topics.js';
import { messageAccess } from '../messages/visibility.js';
import type { PropagateMode } from './check-edit.js';

/**
 * Topic visibility policies (follow, mute, unmute) follow a moved topic (reference update-message; its
 * help center: muted topics are migrated when an entire topic is moved). Rules, as the reference applies
 * them:
 * - only a move of the whole topic counts: `change_all`, or any mode that left none of the old topic's
 *   messages the mover may see behind (resolving is a move too);
 * - each user with a policy for the old topic loses it there; a user the move shuts out of the
 *   destination channel gets no policy in it (the row is simply removed);
 * - the others get it for the new topic; when the new topic already had messages (a merge) the policy
 *   kept is the more visible of the two, in the order followed, unmuted, none, muted — a user with a
 *   policy only for the target topic is part of that merge too;
 * - events, per user: `user_topic` for the old topic (policy 0; without `muted_topics`, which the next
 *   write sends), then `muted_topics` and `user_topic` for the new topic where the policy there changes;
 *   where it does not (a merge that keeps the target's policy), the removal carries `muted_topics` (the
 *   reference leaves that list stale then); a user shut out gets `muted_topics` and `user_topic` for the
 *   removal.
 */

const NONE = 0;
const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;

/** Where the messages were and where they go, read before the move. */
export interface TopicMove {
  from: { streamId: number; topic: string };
  to: { streamId: number; topic: string };
  /** The destination topic held messages besides the moved ones before the move (a merge). */
  targetHadMessages: boolean;
}

export function topicMoveOf(
  tables: RealmState,
  message: MessageRow,
  to: { streamId: number; topic: string },
  moved: readonly MessageRow[],
): TopicMove {
  const movedIds = new Set(moved.map((m) => m.id));
  let targetHadMessages = false;
  for (const id of topicMessages(tables, to.streamId, to.topic) ?? []) {
    if (movedIds.has(id)) continue;
    targetHadMessages = true;
    break;
  }
  return { from: { streamId: message.stream_id!, topic: message.subject }, to, targetHadMessages };
}

/** Reference get_visibility_policy_after_merge: the more visible policy wins. */
function merged(orig: number, target: number): VisibilityPolicy {
  const both = new Set([orig, target]);
  for (const policy of [FOLLOWED, UNMUTED, NONE]) if (both.has(policy)) return policy as VisibilityPolicy;
  return MUTED;
}

/** Whether the mover moved every message of the old topic they may see (after the move). */
function movedWholeTopic(tables: RealmState, mover: UserRow, move: TopicMove, mode: PropagateMode): boolean {
  if (mode === 'change_all') return true;
  for (const id of topicMessages(tables, move.from.streamId, move.from.topic) ?? []) {
    const m = tables.messages[String(id)];
    if (m && messageAccess(tables, mover, m)) return false;
  }
  return true;
}

export function moveTopicPolicies(tx: Tx, mover: UserRow, now: number, move: TopicMove, mode: PropagateMode): void {
  const tables = tx.tables;
  // A rename that only changes letter case keeps the same rows (topics match in any case).
  const sameRows = move.from.streamId === move.to.streamId && move.from.topic.toLowerCase() === move.to.topic.toLowerCase();
  if (sameRows || !movedWholeTopic(tables, mover, move, mode)) return;
  const destination = tables.channels[String(move.to.streamId)] as ChannelRow;
  const channelChanged = move.from.streamId !== move.to.streamId;
  const orig = topicPolicies(tables, move.from.streamId, move.from.topic);
  const target = topicPolicies(tables, move.to.streamId, move.to.topic);
  const users = [...new Set([...orig.keys(), ...target.keys()])].sort((a, b) => a - b);
  for (const userId of users) {
    const user = tables.users[String(userId)];
    const before = orig.get(userId) ?? NONE;
    const there = target.get(userId) ?? NONE;
    if (channelChanged && orig.has(userId) && (!user || !channelContentAccess(tables, user, destination))) {
      writePolicy(tx, userId, now, { ...move.from, policy: NONE }, true);
      continue;
    }
    const after = move.targetHadMessages ? merged(before, there) : (before as VisibilityPolicy);
    // The legacy muted_topics list comes with the new topic's write; when none follows (the merge keeps the
    // target's policy) it comes with the removal, or a client following that list would keep the old topic.
    if (before !== NONE) writePolicy(tx, userId, now, { ...move.from, policy: NONE }, after === there);
    if (after !== there) writePolicy(tx, userId, now, { ...move.to, policy: after }, true);
  }
}
