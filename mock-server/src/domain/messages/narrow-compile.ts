import { indexOf } from '../../store/indexes.js';
import { topicKey } from '../../store/index-messages.js';
import { SortedList } from '../../store/sorted-ids.js';
import type { ChannelRow, MessageRow, RealmState, UserRow } from '../../store/state.js';
import { channelByName } from '../channels/lookup.js';
import { followsTopic, hiddenByMuting } from '../compat-lookups/user-topics.js';
import { badNarrow, badNarrowCombination } from '../errors.js';
import { mayReadAllPublicHistory, mayReadChannelHistory } from '../permissions.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../topics.js';
import { operandText, type NarrowOperand, type NarrowTerm } from './narrow.js';
import { HAS, IS, type Flags } from './narrow-operands.js';
import { searchQuery, type SearchQuery } from './narrow-search.js';
import { messageAccess } from './visibility.js';

/**
 * The narrow filter, step two: terms named against the realm (channels, users, the `with` message) and
 * turned into predicates over message rows, with the reference server's errors (BAD_NARROW, "Invalid
 * narrow operator: …") in the order it raises them. Each positive term may also name index lists that
 * hold every message it can match (`candidates`), so message-walk.ts reads the smallest of them instead
 * of all messages.
 */

type Tables = RealmState;

export interface CompiledTerm {
  negated: boolean;
  test(message: MessageRow, flags: Flags): boolean;
  /** Ascending, disjoint ID lists holding every message the (positive) term can match. */
  candidates?: SortedList[];
}

export interface CompiledNarrow {
  /** null: a spectator (unauthenticated, web-public channels only). */
  viewer: UserRow | null;
  terms: CompiledTerm[];
  /**
   * Whether messages the viewer never received count (reference ok_to_include_history): only through a
   * positive channel term for a channel whose history they may read, or `channels:public`, and never with
   * an `is` term (those are properties of received messages).
   */
  includeHistory: boolean;
  /** The joined search terms, for the answer's highlighting; null without a search term. */
  search: SearchQuery | null;
  /** A channel term is present (then muted channels still count for the first unread message). */
  namesChannel: boolean;
}

const CHANNEL_OPERATORS = new Set(['channel', 'stream']);
const CONVERSATION_OPERATORS = new Set(['channel', 'stream', 'topic', 'dm', 'pm-with']);

/**
 * Rewrites the narrow before anything is counted (reference clean_narrow_for_message_fetch): the
 * empty topic's display name in the first topic term means the empty topic, and `with:<message ID>`
 * becomes that message's conversation (channel + topic, or its direct-message participants), replacing
 * the narrow's own conversation terms. A `with` message the viewer cannot read leaves the narrow as it
 * was if the narrow already names a conversation, and is an error otherwise.
 */
export function prepareNarrow(tables: Tables, viewer: UserRow | null, narrow: NarrowTerm[]): NarrowTerm[] {
  let terms = narrow.map((t) => ({ ...t }));
  const topic = terms.find((t) => t.operator === 'topic');
  if (topic && topic.operand === EMPTY_TOPIC_DISPLAY_NAME) topic.operand = '';
  const withTerms = terms.filter((t) => t.operator === 'with');
  if (withTerms.length > 1) throw badNarrowCombination("Duplicate 'with' operators.");
  if (withTerms.length === 0) return terms;
  terms = terms.filter((t) => t.operator !== 'with');
  const text = String(withTerms[0]!.operand).trim();
  if (!/^[+-]?\d+$/.test(text)) throw badNarrow("Invalid 'with' operator");
  const message = tables.messages[String(Number(text))];
  if (!message || !readable(tables, viewer, message)) {
    if (definesConversation(terms)) return terms;
    throw badNarrow("Invalid 'with' operator");
  }
  const rest = terms.filter((t) => !CONVERSATION_OPERATORS.has(t.operator));
  const conversation: NarrowTerm[] =
    message.type === 'stream'
      ? [
          { operator: 'channel', operand: message.stream_id!, negated: false },
          { operator: 'topic', operand: message.subject, negated: false },
        ]
      : // Every participant (the reference names the recipient of a 1:1 message; the participant set is
        // the same conversation and stays right when the viewer is that recipient).
        [{ operator: 'dm', operand: [...(message.dm_user_ids ?? [])], negated: false }];
  return [...conversation, ...rest];
}

/** A message a spectator may read is one of a web-public channel (reference access_web_public_message). */
function readable(tables: Tables, viewer: UserRow | null, message: MessageRow): boolean {
  if (viewer) return messageAccess(tables, viewer, message);
  return message.stream_id !== null && tables.channels[String(message.stream_id)]?.is_web_public === true;
}

function definesConversation(terms: NarrowTerm[]): boolean {
  if (terms.some((t) => t.operator === 'dm' || t.operator === 'pm-with')) return true;
  return terms.some((t) => CHANNEL_OPERATORS.has(t.operator)) && terms.some((t) => t.operator === 'topic');
}

/** The channel a channel term names: by name (any case) for a string, by ID for a number. */
export function channelOfOperand(tables: Tables, operand: NarrowOperand): ChannelRow | undefined {
  if (typeof operand === 'number') return tables.channels[String(operand)];
  return typeof operand === 'string' ? channelByName(tables, operand) : undefined;
}

function userOfOperand(tables: Tables, operand: string | number): UserRow | undefined {
  if (typeof operand === 'number') return tables.users[String(operand)];
  const ids = indexOf(tables).people.withEmail(operand.trim());
  return ids.length > 0 ? tables.users[String(ids[0])] : undefined;
}

function includesHistory(tables: Tables, viewer: UserRow | null, terms: NarrowTerm[]): boolean {
  // A spectator reads web-public history only (each channel term was checked to be one).
  if (viewer === null) return true;
  // An `is` term is a property of a received message: history cannot match it (resolved and followed
  // are properties of topics, so they keep it).
  if (terms.some((t) => t.operator === 'is' && t.operand !== 'resolved' && t.operand !== 'followed')) return false;
  return terms.some((t) => {
    if (t.negated) return false;
    if (CHANNEL_OPERATORS.has(t.operator)) {
      const channel = channelOfOperand(tables, t.operand);
      return channel !== undefined && mayReadChannelHistory(tables, viewer, channel);
    }
    return (t.operator === 'channels' || t.operator === 'streams') && t.operand === 'public' && mayReadAllPublicHistory(viewer);
  });
}

/** Compiles a prepared narrow for one viewer; throws BAD_NARROW for the first term the realm cannot satisfy. */
export function compileNarrow(tables: Tables, viewer: UserRow | null, narrow: NarrowTerm[]): CompiledNarrow {
  const index = indexOf(tables);
  // A spectator's narrow holds no personal operator (history.ts checks that first): `me` is never a user.
  const me = viewer?.user_id ?? -1;
  let channelNarrow = false;
  let dmNarrow = false;
  // Reference check_not_both_channel_and_dm_narrow: negated terms count too.
  const kind = (dm: boolean) => {
    if (dm) dmNarrow = true;
    else channelNarrow = true;
    if (channelNarrow && dmNarrow) throw badNarrow('No message can be both a channel message and direct message');
  };
  const conversations = () => index.messages.conversations(me);
  const mutedChannel = (streamId: number) => tables.subscriptions[`${me}:${streamId}`]?.is_muted === true;
  const terms: CompiledTerm[] = [];
  const searches: string[] = [];
  let channelId: number | null = null;
  let topic: string | null = null;

  for (const { operator, operand, negated } of narrow) {
    const text = operandText(operand);
    const add = (test: CompiledTerm['test'], candidates?: SortedList[]) =>
      terms.push({ negated, test, ...(candidates && !negated ? { candidates } : {}) });
    switch (operator) {
      case 'search':
        // The reference joins every search operand into one positive search (negation is not applied).
        searches.push(text);
        break;
      case 'has':
        if (!Object.hasOwn(HAS, text)) throw badNarrow(`unknown 'has' operand ${text}`);
        add(HAS[text as keyof typeof HAS]);
        break;
      case 'in':
        if (text === 'home')
          add((m) => m.stream_id === null || !hiddenByMuting(tables, me, m.stream_id, m.subject, mutedChannel(m.stream_id)));
        else if (text === 'all') add(() => true);
        else throw badNarrow(`unknown 'in' operand ${text}`);
        break;
      case 'is':
        if (text === 'dm' || text === 'private') kind(true);
        if (!Object.hasOwn(IS, text)) throw badNarrow(`unknown 'is' operand ${text}`);
        if (text === 'followed') add((m) => m.stream_id !== null && followsTopic(tables, me, m.stream_id, m.subject));
        else add(IS[text as keyof typeof IS], isCandidates(text));
        break;
      case 'channel':
      case 'stream': {
        kind(false);
        const channel = channelOfOperand(tables, operand);
        if (!channel) throw badNarrow(`unknown channel ${text}`);
        if (viewer === null && !channel.is_web_public) throw badNarrow(`unknown web-public channel ${text}`);
        const id = channel.stream_id;
        if (!negated) channelId = id;
        add((m) => m.stream_id === id, listOrNone(index.messages.channel(id)?.ids));
        break;
      }
      case 'channels':
      case 'streams': {
        kind(false);
        if (text !== 'public' && text !== 'web-public') throw badNarrow(`unknown channels operand ${text}`);
        const ids = new Set(
          Object.values(tables.channels)
            .filter((c) => (text === 'public' ? !c.invite_only && c.history_public_to_subscribers : c.is_web_public))
            .map((c) => c.stream_id),
        );
        add(
          (m) => m.stream_id !== null && ids.has(m.stream_id),
          [...ids].flatMap((id) => listOrNone(index.messages.channel(id)?.ids)),
        );
        break;
      }
      case 'topic': {
        kind(false);
        const key = topicKey(text);
        if (!negated) topic = text;
        add((m) => m.type === 'stream' && topicKey(m.subject) === key);
        break;
      }
      case 'sender': {
        const sender = userOfOperand(tables, operand as string | number);
        if (!sender) throw badNarrow(`unknown user ${text}`);
        add((m) => m.sender_id === sender.user_id, listOrNone(index.messages.sentBy(sender.user_id)));
        break;
      }
      case 'near':
        // Where a client scrolls to; it filters nothing (reference by_near).
        add(() => true);
        break;
      case 'id': {
        if (!/^\d+$/.test(text)) throw badNarrow('Invalid message ID');
        const id = Number(text);
        const only = new SortedList();
        only.insert(id);
        add((m) => m.id === id, [only]);
        break;
      }
      case 'dm':
      case 'pm-with':
      case 'pm_with': {
        kind(true);
        const participants = dmParticipants(tables, me, operand);
        if (!participants) throw badNarrow(`unknown user in ${text}`);
        const key = participants.join(',');
        const othersKey = participants.filter((u) => u !== me).join(',');
        add((m) => m.type === 'private' && (m.dm_user_ids ?? []).join(',') === key, listOrNone(conversations().get(othersKey)));
        break;
      }
      case 'dm-including':
      case 'group-pm-with':
      case 'group_pm_with': {
        kind(true);
        const other = userOfOperand(tables, operand as string | number);
        if (!other) throw badNarrow(`unknown user ${text}`);
        const group = operator !== 'dm-including';
        const id = other.user_id;
        const fits = (ids: readonly number[]) => (id === me || ids.includes(id)) && (!group || ids.length >= 3);
        add(
          (m) => m.type === 'private' && fits(m.dm_user_ids ?? []),
          [...conversations()].filter(([k]) => fits([me, ...(k === '' ? [] : k.split(',').map(Number))])).map(([, list]) => list),
        );
        break;
      }
      default:
        throw badNarrow(`unknown operator ${operator}`);
    }
  }
  // A topic within a named channel: that topic's own list is the narrowest candidate.
  if (channelId !== null && topic !== null) {
    const list = index.messages.topic(channelId, topic);
    terms.push({ negated: false, test: () => true, candidates: listOrNone(list) });
  }
  let search: SearchQuery | null = null;
  if (searches.length > 0) {
    const query = (search = searchQuery(searches.join(' ')));
    terms.push({ negated: false, test: (m) => query.test(m) });
  }
  const namesChannel = narrow.some((t) => CHANNEL_OPERATORS.has(t.operator));
  return { viewer, terms, includeHistory: includesHistory(tables, viewer, narrow), search, namesChannel };

  function isCandidates(operand: string): SortedList[] | undefined {
    if (operand === 'unread') return [index.receipts.of(me).unread];
    if (operand === 'dm' || operand === 'private') return [...conversations().values()];
    return undefined;
  }
}

const listOrNone = (list: SortedList | undefined): SortedList[] => (list ? [list] : []);

/** The participants a `dm` operand names with the viewer, ascending; undefined when a user is unknown. */
function dmParticipants(tables: Tables, me: number, operand: NarrowOperand): number[] | undefined {
  const named = Array.isArray(operand) ? operand : typeof operand === 'string' ? operand.split(',') : [operand];
  const ids = new Set([me]);
  for (const one of named) {
    const user = userOfOperand(tables, one);
    if (!user) return undefined;
    ids.add(user.user_id);
  }
  return [...ids].sort((a, b) => a - b);
}
