import { createHash } from 'node:crypto';
import type { MessageRow, RealmState, UserRow } from '../../store/state.js';
import { emailVisibleTo } from '../access.js';
import { historyVisibility } from '../edit-delete/settings.js';
import { topicLinks } from '../markdown.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../topics.js';
import type { SchemaOf } from '../../contract/operation-types.js';
import type { StoredMessage } from '../../contract/event-types.js';
import { unshaped } from './shaping.js';

/**
 * The message object of spec §2.5 as events carry it (and the fetch operations). Follows the
 * event convention of events/shape.ts: `content` is the Markdown source and `rendered_content` the HTML,
 * so each queue's apply_markdown picks one; `_gravatar` marks senders whose avatar a client computes
 * itself (avatar_url null with client_gravatar). `flags` are per recipient and travel beside the message.
 */
export function presentMessage(tables: Pick<RealmState, 'users' | 'channels' | 'realm' | 'linkifiers'>, m: MessageRow): StoredMessage {
  const sender = tables.users[String(m.sender_id)];
  const out: StoredMessage = {
    id: m.id,
    type: m.type,
    content: m.content,
    rendered_content: m.rendered_content,
    avatar_url: sender ? avatarUrlOf(tables, sender) : null,
    client: m.client,
    display_recipient: displayRecipient(tables, m),
    is_me_message: m.is_me_message,
    reactions: m.reactions.map((r) => ({ ...r })),
    recipient_id: m.recipient_id,
    sender_email: sender?.email ?? '',
    sender_full_name: sender?.full_name ?? '',
    sender_id: m.sender_id,
    sender_realm_str: tables.realm.realm.id,
    subject: m.subject,
    submessages: m.submessages.map((s) => ({ ...s })),
    timestamp: m.timestamp,
    // §2.5 topic_links: the realm's linkifiers applied to the topic as they are now.
    topic_links: m.type === 'stream' ? topicLinks(m.subject, Object.values(tables.linkifiers)) : [],
    _gravatar: sender?.avatar_source === 'G',
    // Who may compute that Gravatar: only readers who may see the sender's real email (§2.5 avatar_url).
    _email_visibility: sender?.settings.email_address_visibility ?? 4,
  };
  if (m.stream_id !== null) out.stream_id = m.stream_id;
  const history = visibleEditHistory(tables.realm.realm, m);
  if (history.length > 0) out.edit_history = history;
  if (m.last_edit_timestamp !== null) out.last_edit_timestamp = m.last_edit_timestamp;
  if (m.last_moved_timestamp !== null) out.last_moved_timestamp = m.last_moved_timestamp;
  return out;
}

/**
 * §2.5 edit_history, "absent … when history viewing is disallowed": the organization's
 * message_edit_history_visibility_policy (companion tier, area edit-delete). With `moves`, content
 * changes are left out and entries that changed nothing else drop away.
 */
function visibleEditHistory(realm: RealmState['realm']['realm'], m: MessageRow): SchemaOf<'EditHistoryEntry'>[] {
  const policy = historyVisibility(realm);
  if (policy === 'none') return [];
  if (policy === 'all') return m.edit_history.map((e) => ({ ...e }));
  return m.edit_history
    .filter((e) => e.prev_topic !== undefined || e.prev_stream !== undefined)
    .map(({ prev_content: _c, prev_rendered_content: _r, ...rest }) => rest);
}

/** §2.5 display_recipient: the channel name, or the participants of a direct message. */
function displayRecipient(tables: Pick<RealmState, 'users' | 'channels'>, m: MessageRow): string | SchemaOf<'DisplayRecipientUser'>[] {
  if (m.type === 'stream') return tables.channels[String(m.stream_id)]?.name ?? '';
  return (m.dm_user_ids ?? []).map((id) => {
    const user = tables.users[String(id)];
    return { id, email: user?.email ?? '', full_name: user?.full_name ?? '', is_mirror_dummy: false };
  });
}

/**
 * A user's avatar URL: the Gravatar of `email` (the API email unless the viewer may see the real one)
 * for Gravatar users, else the uploaded image. The register snapshot and message events share it.
 */
export function avatarUrlOf(tables: Pick<RealmState, 'realm'>, user: UserRow, email: string = user.email): string {
  if (user.avatar_source === 'G') {
    const hash = createHash('md5').update(email.toLowerCase()).digest('hex');
    return `https://secure.gravatar.com/avatar/${hash}?d=identicon&version=${user.avatar_version}`;
  }
  return `/user_avatars/${tables.realm.realm.id}/${user.user_id}.png?version=${user.avatar_version}`;
}

/** How one reader sees a message (an event queue's register options, or one GET /messages/{id}). */
export interface MessageView {
  /** `content` as HTML (else the Markdown source), spec §2.5 content / content_type. */
  applyMarkdown: boolean;
  /** avatar_url null for senders marked `_gravatar` (§2.5, §4.21 client_gravatar)… */
  clientGravatar: boolean;
  /** …when this reader may see the sender's real email (§2.5: "null only when the caller may see" it). */
  viewer: UserRow | null;
  /** Keep the empty topic as "" (else the display name, spec §1), in `subject` and in edit_history. */
  emptyTopicName: boolean;
}

/**
 * Turns the wire message of `presentMessage` into what one reader gets: picks the content form, drops
 * the avatar the client computes itself, renames the empty topic for clients that do not declare it
 * (direct messages keep subject "", §2.5), and removes the `_` shaping keys.
 */
export function viewMessage(wire: StoredMessage, view: MessageView): SchemaOf<'MessageFields'> {
  const { rendered_content: rendered, ...rest } = wire;
  const message = unshaped(rest);
  const gravatarComputed =
    view.clientGravatar && wire._gravatar === true && emailVisibleTo(view.viewer, wire.sender_id, wire._email_visibility);
  const renamed = !view.emptyTopicName;
  const history = message.edit_history;
  // Keys already present keep their place; content_type goes last, as the field the view adds.
  const shown = {
    ...message,
    ...(rendered !== undefined && view.applyMarkdown ? { content: rendered } : {}),
    ...(gravatarComputed ? { avatar_url: null } : {}),
    ...(renamed && message.type === 'stream' && message.subject === '' ? { subject: EMPTY_TOPIC_DISPLAY_NAME } : {}),
    ...(renamed && Array.isArray(history) ? { edit_history: history.map(namedTopics) } : {}),
  };
  // Only a message event injected through the control API (control/control.ts, any payload a test
  // sends) can lack the HTML form: it goes out with the content it was given and no content_type.
  if (rendered === undefined) return shown as SchemaOf<'MessageFields'>;
  return { ...shown, content_type: view.applyMarkdown ? 'text/html' : 'text/x-markdown' };
}

/** An edit_history entry with the empty topic under its display name (spec §1), for clients without empty_topic_name. */
function namedTopics(entry: SchemaOf<'EditHistoryEntry'>): SchemaOf<'EditHistoryEntry'> {
  const out = { ...entry };
  if (out.prev_topic === '') out.prev_topic = EMPTY_TOPIC_DISPLAY_NAME;
  if (out.topic === '') out.topic = EMPTY_TOPIC_DISPLAY_NAME;
  return out;
}
