import { byKey, byText, removeOne, rows, unhandled, upsertAll, type PolledEvent, type Reducers, type Row, type Snapshot } from './rows.js';

/**
 * A user's own things (zulip.yaml `drafts`, `saved_snippets`, `navigation_view`, `scheduled_messages`,
 * `reminders`, `alert_words`, `attachment`, `user_topic` and the legacy `muted_topics`), each kept in the
 * order a fresh register lists it.
 */

function sortByDelivery(s: Snapshot, field: string, key: string): void {
  rows(s[field]).sort(
    (a, b) =>
      (a.scheduled_delivery_timestamp as number) - (b.scheduled_delivery_timestamp as number) || (a[key] as number) - (b[key] as number),
  );
}

/**
 * user_topic: one policy per (channel, topic), topics matched in any letter case as servers match them;
 * policy 0 removes the row. Register lists them by channel, then topic.
 */
function onUserTopic(s: Snapshot, e: PolledEvent): void {
  if (!Array.isArray(s.user_topics)) return;
  const topic = String(e.topic_name);
  const same = (r: Row) => r.stream_id === e.stream_id && String(r.topic_name).toLowerCase() === topic.toLowerCase();
  const list = rows(s.user_topics).filter((r) => !same(r));
  if (e.visibility_policy !== 0)
    list.push({ stream_id: e.stream_id, topic_name: topic, last_updated: e.last_updated, visibility_policy: e.visibility_policy });
  list.sort(
    (a, b) =>
      (a.stream_id as number) - (b.stream_id as number) || byText(String(a.topic_name).toLowerCase(), String(b.topic_name).toLowerCase()),
  );
  s.user_topics = list;
}

export const personalReducers: Reducers = {
  saved_snippets: (s, e) => {
    if (e.op === 'remove') removeOne(s, 'saved_snippets', 'id', e.saved_snippet_id);
    else if (e.op === 'add' || e.op === 'update') upsertAll(s, 'saved_snippets', 'id', [structuredClone(e.saved_snippet as Row)]);
    else unhandled(e);
  },
  // Clients keep drafts as the snapshot lists them: newest first, ties by ID, newest first.
  drafts: (s, e) => {
    if (e.op === 'remove') removeOne(s, 'drafts', 'id', e.draft_id);
    else if (e.op === 'add') upsertAll(s, 'drafts', 'id', structuredClone(rows(e.drafts)));
    else if (e.op === 'update') upsertAll(s, 'drafts', 'id', [structuredClone(e.draft as Row)]);
    else unhandled(e);
    rows(s.drafts).sort((a, b) => (b.timestamp as number) - (a.timestamp as number) || (b.id as number) - (a.id as number));
  },
  navigation_view: (s, e) => {
    if (e.op === 'remove') removeOne(s, 'navigation_views', 'fragment', e.fragment);
    else if (e.op === 'add') {
      upsertAll(s, 'navigation_views', 'fragment', [structuredClone(e.navigation_view as Row)]);
      // Servers list views by fragment, so a client keeps that order.
      rows(s.navigation_views).sort((a, b) => byText(a.fragment, b.fragment));
    } else if (e.op === 'update') {
      const view = byKey(s.navigation_views, 'fragment').get(e.fragment);
      if (view) Object.assign(view, e.data);
    } else unhandled(e);
  },
  // Clients keep both lists in delivery order (reference §2), ties by ID.
  scheduled_messages: (s, e) => {
    if (e.op === 'remove') removeOne(s, 'scheduled_messages', 'scheduled_message_id', e.scheduled_message_id);
    else if (e.op === 'add') upsertAll(s, 'scheduled_messages', 'scheduled_message_id', structuredClone(rows(e.scheduled_messages)));
    else if (e.op === 'update') upsertAll(s, 'scheduled_messages', 'scheduled_message_id', [structuredClone(e.scheduled_message as Row)]);
    else unhandled(e);
    sortByDelivery(s, 'scheduled_messages', 'scheduled_message_id');
  },
  reminders: (s, e) => {
    if (e.op === 'remove') removeOne(s, 'reminders', 'reminder_id', e.reminder_id);
    else if (e.op === 'add') upsertAll(s, 'reminders', 'reminder_id', structuredClone(rows(e.reminders)));
    else unhandled(e);
    sortByDelivery(s, 'reminders', 'reminder_id');
  },
  alert_words: (s, e) => {
    s.alert_words = structuredClone(e.alert_words);
  },
  // Uploads are not part of the register (only upload limits are); the event must still be known.
  attachment: (_s, e) => {
    if (e.op !== 'add' && e.op !== 'update' && e.op !== 'remove') unhandled(e);
  },
  user_topic: onUserTopic,
  // The legacy form: the whole list of muted topics, [channel name, topic, time muted].
  muted_topics: (s, e) => {
    s.muted_topics = structuredClone(e.muted_topics);
  },
};
