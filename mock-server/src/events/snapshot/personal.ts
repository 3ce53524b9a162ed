import { linkifierList } from '../../domain/linkifiers/present.js';
import { ownNavigationViews, presentNavigationView } from '../../domain/navigation-views.js';
import { draftsSnapshot } from '../../domain/drafts/present.js';
import { pendingReminders, presentReminder } from '../../domain/reminders/present.js';
import { presentScheduledMessage, undeliveredScheduledMessages } from '../../domain/scheduled/present.js';
import { ownSavedSnippets, presentSavedSnippet } from '../../domain/saved-snippets.js';
import type { SnapshotContext } from './context.js';

/** Type `drafts` (§2.6, reference §4.21): presented as the list and the events present them (domain/drafts/present.ts). */
export function drafts(ctx: SnapshotContext): unknown[] {
  const viewer = ctx.viewer;
  if (viewer === null) return [];
  return draftsSnapshot(ctx.tables, viewer.user_id, { features: ctx.options.features, client: ctx.options.client });
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

/** Type `saved_snippets` (§2.10): presented as the list and the events present them. */
export function savedSnippets(ctx: SnapshotContext): unknown[] {
  return ctx.viewer === null ? [] : ownSavedSnippets(ctx.tables, ctx.viewer.user_id).map(presentSavedSnippet);
}

/**
 * Type `navigation_views` (§2.9, reference §4.12): the viewer's stored rows only (built-in views
 * have no row until stored), presented as the list and the `add` event present them.
 */
export function navigationViews(ctx: SnapshotContext): unknown[] {
  return ctx.viewer === null ? [] : ownNavigationViews(ctx.tables, ctx.viewer.user_id).map(presentNavigationView);
}

/**
 * Type `realm_linkifiers` (§2.11, §4.21): `[]` for clients without linkifier_url_template, which
 * could not read url_template; `realm_filters` (legacy) is always `[]`. Display order, then ID.
 */
export function linkifierKeys(ctx: SnapshotContext): Record<string, unknown> {
  // The list operation and the realm_linkifiers event present the same list (domain/linkifiers/present.ts).
  const list = ctx.options.client.linkifier_url_template ? linkifierList(ctx.tables) : [];
  return { realm_linkifiers: list, realm_filters: [] };
}
