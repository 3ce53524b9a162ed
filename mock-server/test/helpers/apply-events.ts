/**
 * Test-only: applies delivered events to a register snapshot, the way a client keeps its state
 * (ARCHITECTURE "invariant test"). If the server's events are complete and right, applying them to
 * the snapshot taken before a change gives the snapshot taken after it. An event type this reducer does
 * not know fails loudly: whoever adds an event type adds its reducer here.
 */
type Snapshot = Record<string, unknown>;
type Event = Record<string, unknown> & { type: string; op?: string };
type Row = Record<string, unknown>;

const byKey = (list: unknown, key: string) => new Map((list as Row[]).map((row) => [row[key], row]));

function upsertAll(snapshot: Snapshot, field: string, key: string, rows: Row[]): void {
  const map = byKey(snapshot[field] ?? [], key);
  for (const row of rows) map.set(row[key], row);
  snapshot[field] = [...map.values()];
}

function removeOne(snapshot: Snapshot, field: string, key: string, id: unknown): void {
  snapshot[field] = ((snapshot[field] ?? []) as Row[]).filter((row) => row[key] !== id);
}

const reducers: Record<string, (s: Snapshot, e: Event) => void> = {
  heartbeat: () => {},
  saved_snippets: (s, e) => {
    if (e.op === 'remove') removeOne(s, 'saved_snippets', 'id', e.saved_snippet_id);
    else upsertAll(s, 'saved_snippets', 'id', [e.saved_snippet as Row]);
  },
  drafts: (s, e) => {
    if (e.op === 'remove') removeOne(s, 'drafts', 'id', e.draft_id);
    else upsertAll(s, 'drafts', 'id', e.op === 'add' ? (e.drafts as Row[]) : [e.draft as Row]);
  },
  navigation_view: (s, e) => {
    if (e.op === 'remove') removeOne(s, 'navigation_views', 'fragment', e.fragment);
    else if (e.op === 'add') upsertAll(s, 'navigation_views', 'fragment', [e.navigation_view as Row]);
    else {
      const view = byKey(s.navigation_views, 'fragment').get(e.fragment);
      if (view) Object.assign(view, e.data);
    }
  },
  scheduled_messages: (s, e) => {
    if (e.op === 'remove') removeOne(s, 'scheduled_messages', 'scheduled_message_id', e.scheduled_message_id);
    else upsertAll(s, 'scheduled_messages', 'scheduled_message_id', e.op === 'add' ? (e.scheduled_messages as Row[]) : [e.scheduled_message as Row]);
  },
  reminders: (s, e) => {
    if (e.op === 'remove') removeOne(s, 'reminders', 'reminder_id', e.reminder_id);
    else upsertAll(s, 'reminders', 'reminder_id', e.reminders as Row[]);
  },
  realm_linkifiers: (s, e) => {
    s.realm_linkifiers = e.realm_linkifiers;
  },
  user_status: (s, e) => {
    const statuses = (s.user_status ?? {}) as Record<string, Row>;
    const { type: _t, id: _i, user_id: userId, ...fields } = e;
    const next = { ...(statuses[String(userId)] ?? {}), ...fields };
    // Only non-default fields are kept (reference §2): clearing removes them.
    for (const [k, v] of Object.entries(next)) if (v === '' || v === false || (k === 'reaction_type' && next.emoji_name === '')) delete next[k];
    if (Object.keys(next).length === 0) delete statuses[String(userId)];
    else statuses[String(userId)] = next;
    s.user_status = statuses;
  },
  subscription: (s, e) => {
    if (e.op === 'peer_add' || e.op === 'peer_remove') {
      for (const sub of (s.subscriptions ?? []) as Row[]) {
        if (!(e.stream_ids as number[]).includes(sub.stream_id as number)) continue;
        const ids = new Set((sub.subscribers ?? []) as number[]);
        for (const id of e.user_ids as number[]) {
          if (e.op === 'peer_add') ids.add(id);
          else ids.delete(id);
        }
        if (sub.subscribers) sub.subscribers = [...ids].sort((a, b) => a - b);
        sub.subscriber_count = (sub.subscriber_count as number) + (e.op === 'peer_add' ? 1 : -1) * (e.user_ids as number[]).length;
      }
    } else if (e.op === 'update') {
      const sub = byKey(s.subscriptions, 'stream_id').get(e.stream_id);
      if (sub) sub[e.property as string] = e.value;
    } else {
      throw new Error(`apply-events: subscription/${e.op} is not handled yet; add it with the channels issue`);
    }
  },
  realm_user: (s, e) => {
    const person = e.person as Row;
    if (e.op === 'add') upsertAll(s, 'realm_users', 'user_id', [person]);
    else if (e.op === 'update') {
      const user = byKey(s.realm_users, 'user_id').get(person.user_id);
      if (user) Object.assign(user, person);
    } else throw new Error(`apply-events: realm_user/${e.op} is not handled yet`);
  },
};

export function applyEvents(snapshot: Snapshot, events: Event[]): Snapshot {
  const state = structuredClone(snapshot);
  for (const event of events) {
    const reducer = reducers[event.type];
    if (!reducer) throw new Error(`apply-events does not know the event type '${event.type}'; add its reducer`);
    reducer(state, event);
  }
  return state;
}

/** Keys that differ between two registers for reasons other than state (a new queue, the time). */
export function comparable(snapshot: Snapshot): Snapshot {
  const { queue_id: _q, last_event_id: _l, server_timestamp: _t, result: _r, msg: _m, ...rest } = snapshot;
  return rest;
}
