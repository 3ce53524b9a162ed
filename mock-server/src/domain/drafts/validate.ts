import type { Features } from '../../config/features.js';
import type { DraftRow, RealmState, UserRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { channelById } from '../channels/lookup.js';
import { badRequest } from '../errors.js';
import { EMPTY_TOPIC_DISPLAY_NAME, MAX_TOPIC_LENGTH } from '../topics.js';

/**
 * The draft checks of spec §2.6 and §4.6, in the reference server's order (reference §4.6 "Checks per
 * draft"). Shared by create (each element of `drafts`) and by the edit companion (`draft`), so a draft
 * that one accepts the other accepts too.
 */

/** One draft as the pipeline parsed it against the document's DraftInput (a strict object). */
export interface DraftInput {
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  /** Seconds; the reference server accepts a float (reference §4.6). */
  timestamp?: number;
}

/** What a draft becomes once checked: a row without its ID and owner. */
export type CheckedDraft = Pick<DraftRow, 'type' | 'to' | 'topic' | 'content' | 'timestamp'>;

/**
 * Reference §4.6 and §1 "Order of checks" 1: every draft endpoint (the list and the companions too,
 * the reference guards all four the same way) refuses a user who turned synchronization off, before
 * any parameter is read. This is the user's own preference, not a role rule, so it lives here rather
 * than in permissions.ts.
 */
export function checkDraftsSynchronized(user: UserRow): void {
  if (!user.settings.enable_drafts_synchronization) throw badRequest('User has disabled synchronizing drafts.');
}

/**
 * The one content rule the reference server applies while parsing (its validator strips, then needs a
 * character): `""` already fails the document's minLength, whitespace alone fails here with the same
 * text. Being a parse error, it is checked for every draft of a batch before any draft's own checks,
 * and on edit before the draft is looked up (reference §1 "Order of checks": parsing comes first).
 * The content is stored as sent (the reference's list of stripped values, §1, does not name it).
 */
export function checkContentsNotBlank(drafts: readonly DraftInput[], location: (index: number) => string): void {
  drafts.forEach((draft, index) => {
    if (draft.content.trim() === '') throw badRequest(`${location(index)}["content"] cannot be blank`);
  });
}

/** Reference §4.6 checks 1–5 for one draft; throws the first failure. `now` fills a missing timestamp. */
export function checkDraft(
  tables: Pick<RealmState, 'channels' | 'users' | 'user_groups' | 'subscriptions'>,
  actor: ActorContext,
  draft: DraftInput,
): CheckedDraft {
  // Check 1 (the text names messages: the reference shares it with its message layer).
  if (draft.content.includes('\u0000')) throw badRequest('Message must not contain null bytes');
  const timestamp = readTimestamp(draft.timestamp, actor.now);

  if (draft.type === 'stream') {
    // Check 3, in the reference's order: truncate, then look for NUL (a NUL cut away no longer counts).
    const truncated = [...draft.topic].slice(0, MAX_TOPIC_LENGTH).join('');
    if (truncated.includes('\u0000')) throw badRequest('Topic must not contain null bytes');
    // Spec §4.6 and §7: "channel draft without exactly one channel ID".
    if (draft.to.length !== 1) throw badRequest('Must specify exactly 1 channel ID for channel messages');
    // One text for missing, inaccessible and archived channels (reference "Shared access checks").
    channelById(tables, actor.user, draft.to[0]!, { access: 'content', archived: false });
    return { type: 'stream', to: [draft.to[0]!], topic: draftTopic(truncated, actor.features), content: draft.content, timestamp };
  }

  // Check 5: a direct draft without recipients is unaddressed; a non-channel draft has no topic, and
  // an unaddressed draft keeps no recipients (spec §2.6: "Unaddressed: ignored").
  if (draft.type === '' || draft.to.length === 0) return { type: '', to: [], topic: '', content: draft.content, timestamp };
  return { type: 'private', to: directRecipients(tables, actor.user, draft.to), topic: '', content: draft.content, timestamp };
}

/**
 * Check 2: absent → the realm's time now (injected clock); negative → refused; the future is allowed.
 * A float (the reference accepts one) is stored as whole seconds, rounded down, because §1 and §2.6
 * make timestamps integers and the reference server presents the stored time truncated the same way.
 * 0 is a time like any other here (the spec gives no reason to read it as "absent").
 */
function readTimestamp(timestamp: number | undefined, now: number): number {
  if (timestamp === undefined) return now;
  if (timestamp < 0) throw badRequest('Timestamp must not be negative.');
  return Math.floor(timestamp);
}

/**
 * Spec §1: the realm's empty-topic display name sent as a topic is the empty topic, and from level
 * 370 `(no topic)` too (§9). Only where the empty topic exists (level 334): below it the names are
 * plain topics. The reference server stores a draft's topic as sent; reading the display name as ""
 * lets a client without the capability, which was shown "general chat" for "", save the draft back
 * unchanged. Unlike a message topic, a draft's is not stripped: it is text still being written.
 */
function draftTopic(topic: string, features: Features): string {
  if (!features.has('empty_topic_name')) return topic;
  if (topic === EMPTY_TOPIC_DISPLAY_NAME) return '';
  if (topic === '(no topic)' && features.has('no_topic_reads_as_empty')) return '';
  return topic;
}

/**
 * Check 4: every ID names a user of the realm (system bots live outside it, so they are unknown too),
 * the lowest unknown ID first. The reference doc is silent on deactivated recipients; the reference
 * server's recipient lookup refuses them with its message layer's text, which sending and scheduled
 * messages use too.
 *
 * The reference stores a draft's recipient, not its list, and shows it back as the other participants
 * in ascending order (the caller alone for a note to self); storing that form keeps create, list,
 * snapshot and events in agreement.
 */
function directRecipients(tables: Pick<RealmState, 'users'>, caller: UserRow, to: readonly number[]): number[] {
  const ids = [...new Set(to)].sort((a, b) => a - b);
  // Two passes, as the reference looks every user up before it builds the recipient.
  const users = ids.map((id) => {
    const user = tables.users[String(id)];
    if (!user || user.is_system_bot) throw badRequest(`Invalid user ID ${id}`);
    return user;
  });
  for (const user of users) if (!user.is_active) throw badRequest(`'${user.email}' is no longer using Zulip.`);
  const others = ids.filter((id) => id !== caller.user_id);
  return others.length > 0 ? others : ids;
}
