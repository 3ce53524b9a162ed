import { pendingReminders, presentReminder } from '../../domain/reminders/present.js';
import { presentScheduledMessage, undeliveredScheduledMessages } from '../../domain/scheduled/present.js';
import { presentTopic } from '../../domain/topics.js';
import type { SnapshotContext } from './context.js';

/** The viewer's own rows of a per-user table; a spectator has none (§4.21, C21). */
function own<T extends { user_id: number }>(ctx: SnapshotContext, rows: Record<string, T>): T[] {
  const viewer = ctx.viewer;
  return viewer === null ? [] : Object.values(rows).filter((r) => r.user_id === viewer.user_id);
}

/** Type `drafts` (§2.6, reference §4.21): newest first (ties by ID, newest first). */
export function drafts(ctx: SnapshotContext): unknown[] {
  return own(ctx, ctx.tables.drafts)
    .sort((a, b) => b.timestamp - a.timestamp || b.id - a.id)
    .map((d) => ({
      id: d.id,
      type: d.type,
      to: [...d.to],
      topic: d.type === 'stream' ? presentTopic(d.topic, ctx.options.client) : d.topic,
      content: d.content,
      timestamp: d.timestamp,
    }));
}

/**
 * Type `scheduled_messages` (§2.1, reference §2): the viewer's undelivered messages, pending and
 * failed, by delivery time, presented as the list operation and the events present them.
 */
export function scheduledMessages(ctx: SnapshotContext): unknown[] {
  const viewer = ctx.viewer;
  if (viewer === null) return [];
  return undeliveredScheduledMessages(ctx.tables, viewer.user_id).map((s) => presentScheduledMessage(s, ctx.options.client));
}

/** Type `reminders` (§2.12, C3): the viewer's pending reminders, presented as the list and events do. */
export function reminders(ctx: SnapshotContext): unknown[] {
  const viewer = ctx.viewer;
  if (viewer === null) return [];
  return pendingReminders(ctx.tables, viewer.user_id).map(presentReminder);
}

/** Type `saved_snippets` (§2.10). */
export function savedSnippets(ctx: SnapshotContext): unknown[] {
  return own(ctx, ctx.tables.saved_snippets)
    .sort((a, b) => a.id - b.id)
    .map((s) => ({ id: s.id, title: s.title, content: s.content, date_created: s.date_created }));
}

/**
 * Type `navigation_views` (§2.9, reference §4.12): the viewer's stored rows only (built-in views
 * have no row until stored); `name` is omitted for built-in views, which have none.
 */
export function navigationViews(ctx: SnapshotContext): unknown[] {
  return own(ctx, ctx.tables.navigation_views)
    .sort((a, b) => (a.fragment < b.fragment ? -1 : a.fragment > b.fragment ? 1 : 0))
    .map((v) => (v.name === null ? { fragment: v.fragment, is_pinned: v.is_pinned } : { fragment: v.fragment, is_pinned: v.is_pinned, name: v.name }));
}

/**
 * Type `realm_linkifiers` (§2.11, §4.21): `[]` for clients without linkifier_url_template, which
 * could not read url_template; `realm_filters` (legacy) is always `[]`. Display order, then ID.
 */
export function linkifierKeys(ctx: SnapshotContext): Record<string, unknown> {
  const list = ctx.options.client.linkifier_url_template
    ? Object.values(ctx.tables.linkifiers)
        .sort((a, b) => a.order - b.order || a.id - b.id)
        .map((l) => ({ id: l.id, pattern: l.pattern, url_template: l.url_template }))
    : [];
  return { realm_linkifiers: list, realm_filters: [] };
}
