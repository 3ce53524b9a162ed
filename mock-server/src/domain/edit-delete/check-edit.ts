import { createHash } from 'node:crypto';
import type { ChannelRow, MessageRow, RealmEditingSettings } from '../../store/state.js';
import type { Tx } from '../../store/store.js';
import type { ActorContext } from '../actor.js';
import { channelById } from '../channels/lookup.js';
import {
  badRequest,
  channelEditTimeLimitPassed,
  contentSha256Mismatch,
  editingDisabled,
  editTimeLimitPassed,
  invalidMessage,
  mayNotEditMessage,
  mayNotMoveMessage,
  mayNotResolveTopics,
  nothingToChange,
  topicEditTimeLimitPassed,
} from '../errors.js';
import { readContent } from '../messages/send.js';
import { accessibleMessage } from '../messages/visibility.js';
import {
  ignoresMoveTimeLimits,
  mayEditContent,
  mayModifyMessageInChannel,
  mayMoveBetweenChannels,
  mayMoveBetweenTopics,
  mayPostToChannel,
  mayResolveTopics,
} from '../permissions.js';
import { checkChannelTopic, readTopic } from '../topics.js';
import { editingSettings } from './settings.js';

/**
 * PATCH /messages/{message_id} (companion tier, area edit-delete): what is asked, checked in the
 * reference server's order (check_update_message): the message must be visible; a content edit must be
 * allowed (organization setting, sender, time limit); the payload must make sense; then the topic move
 * and the channel move must be allowed. The result is a plan; nothing is written here.
 */

export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

export interface EditRequest {
  messageId: number;
  streamId?: number;
  topic?: string;
  propagateMode: PropagateMode;
  notifyOldThread: boolean;
  notifyNewThread: boolean;
  content?: string;
  prevContentSha256?: string;
}

export interface EditPlan {
  message: MessageRow;
  settings: RealmEditingSettings;
  /** The channel the message is in now (channel messages). */
  channel: ChannelRow | undefined;
  /** Set when the topic changes (already read: stripped, truncated, display name → ""). */
  topic?: string;
  /** Set when the channel changes. */
  destination?: ChannelRow;
  /** Set when the content changes (already normalised). */
  content?: string;
  /** The topic change only adds or removes the resolved prefix (not a move, reference). */
  resolveOnly: boolean;
  /** The topic change adds or removes the resolved prefix (with or without a new name). */
  resolving: boolean;
}

/** Reference: grace added to every edit and move time limit, for clients that offered the edit just in time. */
const EDIT_LIMIT_BUFFER = 20;
/** Reference RESOLVED_TOPIC_PREFIX. */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

/** The topic without any leading ✔ and spaces (the reference strips those characters, not the prefix once). */
export const unresolvedName = (topic: string): string => topic.replace(/^[✔ ]+/u, '');
const isResolved = (topic: string): boolean => topic.startsWith(RESOLVED_TOPIC_PREFIX);

export function checkEdit(tx: Tx, actor: ActorContext, req: EditRequest): EditPlan {
  const { user, now } = actor;
  const settings = editingSettings(tx.tables);
  const message = accessibleMessage(tx.tables, user, req.messageId);
  // An archived channel's messages stay readable but are no longer changed (reference access_message).
  const current = message?.stream_id == null ? undefined : tx.tables.channels[String(message.stream_id)];
  if (!message || !mayModifyMessageInChannel(current)) throw invalidMessage();
  const tooOld = (limit: number | null) => limit !== null && now - message.timestamp > limit + EDIT_LIMIT_BUFFER;

  let content: string | undefined;
  if (req.content !== undefined) {
    if (!settings.allow_message_editing) throw editingDisabled();
    if (!mayEditContent(user, message)) throw mayNotEditMessage();
    if (tooOld(settings.message_content_edit_limit_seconds)) throw editTimeLimitPassed();
    if (req.prevContentSha256 !== undefined && sha256(message.content) !== req.prevContentSha256.toLowerCase())
      throw contentSha256Mismatch();
    content = readEditedContent(req.content);
  }

  // A topic equal to the current one (or a move to the channel the message is in) changes nothing.
  let topic = req.topic === undefined ? undefined : readTopic(req.topic, actor.features);
  if (topic === message.subject) topic = undefined;
  const streamId = req.streamId === message.stream_id ? undefined : req.streamId;

  if (topic === undefined && content === undefined && streamId === undefined) throw nothingToChange();
  if (message.type !== 'stream') {
    if (streamId !== undefined) throw badRequest('Direct messages cannot be moved to channels.');
    if (topic !== undefined) throw badRequest('Direct messages cannot have topics.');
  }
  if (req.propagateMode !== 'change_one' && topic === undefined && streamId === undefined)
    throw badRequest('Invalid propagate_mode without topic edit');
  if (streamId !== undefined && content !== undefined) throw badRequest('Cannot change message content while changing channel');

  const channel = message.stream_id === null ? undefined : tx.tables.channels[String(message.stream_id)];
  // Adding or removing the ✔ prefix is resolving (the reference asks for the resolve right then, even
  // when the name changes too); it is a move only when the name changes besides the prefix.
  const toggled = topic !== undefined && isResolved(topic) !== isResolved(message.subject);
  const resolveOnly = toggled && unresolvedName(topic ?? '') === unresolvedName(message.subject);
  // The destination is looked up first: the right to move topics may come from it (reference can_edit_topic).
  const destination =
    streamId !== undefined && channel ? channelById(tx.tables, user, streamId, { access: 'content', archived: false }) : undefined;
  if (topic !== undefined && channel) {
    const target = destination ?? channel;
    if (toggled) {
      if (!mayResolveTopics(tx.tables, settings, user, channel, target)) throw mayNotResolveTopics();
    } else {
      if (!mayMoveBetweenTopics(tx.tables, settings, user, channel, target)) throw mayNotEditMessage();
      // Resolving has no time limit (reference); other topic changes do, below moderators.
      if (!ignoresMoveTimeLimits(user) && tooOld(settings.move_messages_within_stream_limit_seconds)) throw topicEditTimeLimitPassed();
    }
  }
  if (destination && channel) {
    if (!mayMoveBetweenChannels(tx.tables, settings, user, channel)) throw mayNotMoveMessage();
    if (!mayPostToChannel(tx.tables, user, destination)) throw badRequest('You do not have permission to post in this channel.');
    if (!ignoresMoveTimeLimits(user) && tooOld(settings.move_messages_between_streams_limit_seconds)) throw channelEditTimeLimitPassed();
  }
  // The topic rules of spec §1 and §3 hold where the messages arrive (a new topic, or a new channel).
  if ((topic !== undefined || destination) && channel)
    checkChannelTopic(topic ?? message.subject, destination ?? channel, actor.realm, actor.features);

  return {
    message,
    settings,
    channel,
    resolveOnly: resolveOnly && destination === undefined,
    resolving: toggled,
    ...(topic !== undefined ? { topic } : {}),
    ...(destination ? { destination } : {}),
    ...(content !== undefined ? { content } : {}),
  };
}

/** Reference: blank content becomes `(deleted)`; otherwise read as when sending (trailing whitespace, length). */
function readEditedContent(raw: string): string {
  return raw.trim() === '' && !raw.includes('\u0000') ? '(deleted)' : readContent(raw);
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
