import { indexOf } from '../../store/indexes.js';
import type { SortedList } from '../../store/sorted-ids.js';
import type { MessageRow, RealmState } from '../../store/state.js';
import { hiddenByMuting } from '../compat-lookups/user-topics.js';
import { mayReadChannelHistory } from '../permissions.js';
import type { CompiledNarrow } from './narrow-compile.js';
import type { Flags } from './narrow-operands.js';

/**
 * The narrow filter, step three: which messages match, walked outwards from an anchor through the
 * store's indexes (never a scan of every message). The walk reads the smallest candidate set
 * of the narrow: the viewer's received messages, or the list a positive term names (a channel, a topic,
 * a sender, a conversation, the viewer's unread messages, one ID); every candidate is then checked
 * against the full narrow and the viewer's access. The cost is the candidates passed over, bounded by
 * that smallest set, plus the messages returned.
 */
export class MessageWalk {
  readonly #tables: RealmState;
  readonly #narrow: CompiledNarrow;
  readonly #viewerKey: string;
  readonly #source: SortedList[];
  /** Channel → whether the viewer may read its whole history (asked once per channel). */
  readonly #history = new Map<number, boolean>();

  constructor(tables: RealmState, narrow: CompiledNarrow) {
    this.#tables = tables;
    this.#narrow = narrow;
    this.#viewerKey = narrow.viewer ? String(narrow.viewer.user_id) : '';
    this.#source = smallest(this.#options());
  }

  /** Whether the message with this ID exists, the viewer may read it here, and the narrow matches it. */
  matches(id: number): boolean {
    const message = this.#tables.messages[String(id)];
    if (!message) return false;
    const flags = this.flagsOf(id);
    return this.#accessible(message, flags) && this.#narrow.terms.every((t) => t.test(message, flags) !== t.negated);
  }

  /** The viewer's flags on a message, undefined when they never received it. */
  flagsOf(id: number): Flags {
    if (this.#narrow.viewer === null) return undefined;
    return this.#tables.user_messages[String(id)]?.flags[this.#viewerKey];
  }

  /** Matching IDs below `below`, newest first. */
  *descending(below: number): IterableIterator<number> {
    for (const id of merged(this.#source, below, 'down')) if (this.matches(id)) yield id;
  }

  /** Matching IDs above `above`, oldest first. */
  *ascending(above: number): IterableIterator<number> {
    for (const id of merged(this.#source, above, 'up')) if (this.matches(id)) yield id;
  }

  /**
   * The oldest unread message of the narrow (reference find_first_unread_anchor). Messages muting hides
   * do not count (compat-lookups/user-topics.ts hiddenByMuting: muted topics, and muted channels unless
   * the narrow names a channel): they are not where a client should start reading.
   */
  firstUnread(): number | undefined {
    // A spectator has read everything (reference find_first_unread_anchor).
    if (this.#narrow.viewer === null) return undefined;
    const unread = indexOf(this.#tables).receipts.of(this.#narrow.viewer.user_id).unread;
    const source = smallest([...this.#options(), [unread]]);
    const me = this.#viewerKey;
    for (const id of merged(source, -Infinity, 'up')) {
      const flags = this.flagsOf(id);
      if (flags === undefined || flags.includes('read') || !this.matches(id)) continue;
      const { stream_id: streamId, subject } = this.#tables.messages[String(id)]!;
      const channelMuted = !this.#narrow.namesChannel && this.#tables.subscriptions[`${me}:${streamId}`]?.is_muted === true;
      if (streamId !== null && hiddenByMuting(this.#tables, this.#narrow.viewer.user_id, streamId, subject, channelMuted)) continue;
      return id;
    }
    return undefined;
  }

  /** Candidate sets: the viewer's received messages (unless history counts) and each positive term's lists. */
  #options(): SortedList[][] {
    const options = this.#narrow.terms.flatMap((t) => (t.candidates ? [t.candidates] : []));
    const viewer = this.#narrow.viewer;
    // A spectator's narrow always names its channels (channels:web-public): nothing else to read.
    if (viewer === null) return options.length > 0 ? options : [[]];
    if (!this.#narrow.includeHistory || options.length === 0) options.push([indexOf(this.#tables).receipts.of(viewer.user_id).received]);
    return options;
  }

  /** Received, or (when the narrow includes history) a message of a channel whose history the viewer may read. */
  #accessible(message: MessageRow, flags: Flags): boolean {
    if (flags !== undefined) return true;
    if (!this.#narrow.includeHistory || message.stream_id === null) return false;
    let may = this.#history.get(message.stream_id);
    if (may === undefined) {
      const channel = this.#tables.channels[String(message.stream_id)];
      may = channel !== undefined && mayReadChannelHistory(this.#tables, this.#narrow.viewer, channel);
      this.#history.set(message.stream_id, may);
    }
    return may;
  }
}

function smallest(options: SortedList[][]): SortedList[] {
  const size = (lists: SortedList[]) => lists.reduce((n, l) => n + l.size, 0);
  return options.reduce((best, o) => (size(o) < size(best) ? o : best));
}

/**
 * The IDs of several ascending lists in one order, strictly beyond `from`: `down` newest first (below
 * `from`), `up` oldest first (above it). Each step takes the best head of the lists (a few lists at
 * most: conversations or public channels); an ID present in two lists is given once.
 */
function* merged(lists: SortedList[], from: number, direction: 'up' | 'down'): IterableIterator<number> {
  const up = direction === 'up';
  const at = lists.map((l) => (up ? l.upperBound(from) : l.lowerBound(from) - 1));
  let last: number | undefined;
  for (;;) {
    let pick = -1;
    for (let i = 0; i < lists.length; i++) {
      const pos = at[i]!;
      if (pos < 0 || pos >= lists[i]!.size) continue;
      if (pick < 0 || (up ? lists[i]!.at(pos) < lists[pick]!.at(at[pick]!) : lists[i]!.at(pos) > lists[pick]!.at(at[pick]!))) pick = i;
    }
    if (pick < 0) return;
    const id = lists[pick]!.at(at[pick]!);
    at[pick]! += up ? 1 : -1;
    if (id !== last) yield id;
    last = id;
  }
}
