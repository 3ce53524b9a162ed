/**
 * The event reducers: how a client follows a server's events in the state its register gave it. If the
 * events are complete and right, the register state taken before a change with every event received since
 * applied equals a fresh register (the reference server's own test_events.py oracle). One module for
 * `teamchat conform --explore` and the mock's own register/events invariant test; it follows the
 * document's and the reference's event semantics, for clients with every capability and with none
 * (legacy shapes), and knows no server.
 *
 * An event type, or an op of a known type, without a reducer throws UnknownEvent: whoever meets a new
 * event adds its reducer here.
 */
import { channelReducers, CHANNEL_LISTS } from './channels.js';
import { messageReducers } from './messages.js';
import { peopleReducers } from './people.js';
import { personalReducers } from './personal.js';
import { realmReducers } from './realm.js';
import { rows, UnknownEvent, type PolledEvent, type ReduceContext, type Reducers, type Snapshot } from './rows.js';

export { comparable, snapshotDiff, type SnapshotDifference } from './compare.js';
export { countedUnread } from './unread.js';
export { UnknownEvent, type PolledEvent, type Snapshot } from './rows.js';

const REDUCERS: Reducers = {
  ...messageReducers,
  ...channelReducers,
  ...peopleReducers,
  ...personalReducers,
  ...realmReducers,
};

/** The event types the reducers follow (explore reports any other type as unknown). */
export const KNOWN_EVENT_TYPES: readonly string[] = Object.keys(REDUCERS).sort();

export interface ApplyOptions {
  /** Whether the registration asked for subscriber lists (include_subscribers); read from the snapshot when left out. */
  includeSubscribers?: boolean;
}

/** A snapshot's channel rows list subscribers exactly when the registration asked for them. */
function listsSubscribers(s: Snapshot): boolean {
  return CHANNEL_LISTS.some((key) => key !== 'streams' && rows(s[key]).some((row) => Array.isArray(row.subscribers)));
}

/** Pure: returns a new snapshot. Throws UnknownEvent for a type/op it has no reducer for. */
export function applyEvents(snapshot: Snapshot, events: readonly PolledEvent[], options: ApplyOptions = {}): Snapshot {
  const state = structuredClone(snapshot);
  const ctx: ReduceContext = { includeSubscribers: options.includeSubscribers ?? listsSubscribers(snapshot) };
  for (const event of events) {
    const reducer = Object.hasOwn(REDUCERS, event.type) ? REDUCERS[event.type] : undefined;
    if (!reducer) throw new UnknownEvent(String(event.type), undefined);
    reducer(state, event, ctx);
  }
  return state;
}
