/**
 * The catalogue's errors of the companion-tier areas (compat-lookups, live, flags-reactions, history,
 * edit-delete), with the reference server's texts. Kept apart so `errors.ts` stays readable; it re-exports
 * this file, so code imports these from `domain/errors.ts` like every other factory.
 */
import type { Features } from '../config/features.js';
import { ApiError, badRequest, unauthorized } from './api-error.js';

// ---- compat-lookups (companion tier): bot storage, with the reference server's texts ----

/** GET or DELETE /bot_storage naming a key the caller's storage does not hold. */
export const botStorageKeyMissing = () => badRequest('Key does not exist.');

/** POST /users/me/alert_words that would take the caller's list beyond domain/compat-lookups/alert-words.ts's cap. */
export const tooManyAlertWords = (limit: number) => badRequest(`Too many alert words (limit: ${limit}). Remove some first.`);

/** PUT /bot_storage that would take the caller's storage over its limit (characters of keys and values). */
export const botStorageOverLimit = (over: number, limit: number) =>
  badRequest(`Request exceeds storage limit by ${over} characters. The limit is ${limit} characters.`);

/* ---- Area live: typing, presence, uploads (companion tier; texts of the reference server) ---- */

/** set-typing-status: `Missing topic`, `Missing 'to' argument`, `Empty 'to' list`. */
export const typingMissing = (what: string, verb = 'Missing') => badRequest(`${verb} ${what}`);

/**
 * set-typing-status without `stream_id` for a channel: `Missing channel ID` (reference set-typing-status), which
 * replaced `Missing stream_id` in the reference's renaming of stream to channel (channel_texts: the error handler
 * answers the older text below it, errors.ts `errorAtLevel`).
 */
export const typingMissingChannel = () => badRequest('Missing channel ID');

export const typingDisabled = (kind: string) => badRequest(`User has disabled typing notifications for ${kind}`);

export const typingInvalidUser = (id: number) => badRequest(`Invalid user ID ${id}`);

/** The send-message refusals for the channel (the reference checks typing with the sending rules). */
export const typingNotAuthorized = (channel: string) => badRequest(`Not authorized to send to channel '${channel}'`);

export const typingMayNotPost = () => badRequest('You do not have permission to post in this channel.');

export const invalidPresenceStatus = (status: string) => badRequest(`Invalid status: ${status}`);

export const presenceNoSuchUser = () => badRequest('No such user');

export const presenceOfBot = () => badRequest('Presence is not supported for bot users.');

export const noPresenceData = (asked: string) => badRequest(`No presence data for ${asked}`);

export const noFileToUpload = () => badRequest('You must specify a file to upload');

export const oneFileAtATime = () => badRequest('You may only upload one file at a time');

export const fileTooLarge = (mib: number) => badRequest(`Uploaded file is larger than the allowed limit of ${mib} MiB`);

export const uploadQuotaExceeded = () => badRequest("Upload would exceed your organization's upload quota.");

export const invalidAttachment = () => badRequest('Invalid attachment');

/** GET /user_uploads/…: no such file, or one of another realm (JSON instead of the reference's HTML page). */
export const fileNotFound = () => new ApiError(404, 'NOT_FOUND', 'File not found.');

export const fileForbidden = () => new ApiError(403, 'BAD_REQUEST', 'You are not authorized to view this file.');

/** A temporary file URL whose token is not genuine or is older than its 60 seconds (reference). */
export const invalidFileToken = () => badRequest('Invalid token');

/** A temporary file URL whose last segment is not the file's name (reference). */
export const invalidFileName = () => badRequest('Invalid filename');

/* ---- Companion tier, area flags-reactions: the reference server's texts ---------------------------- */

/** update-message-flags: a flag name the service does not have. */
export const invalidFlag = (flag: string) => badRequest(`Invalid flag: '${flag}'`);

/** update-message-flags: a flag only the server sets (mentioned, historical, …). */
export const flagNotEditable = (flag: string) => badRequest(`Flag not editable: '${flag}'`);

/** update-message-flags: op other than add or remove. */
export const invalidFlagOperation = (op: string) => badRequest(`Invalid message flag operation: '${op}'`);

/** add-reaction, remove-reaction and status emoji: a name the emoji data does not know. */
export const unknownEmoji = (name: string) => badRequest(`Emoji '${name}' does not exist`);

/** The caller already reacted with that emoji: its own code from feature level 193 (reference add-reaction). */
export const reactionExists = (features: Features) =>
  new ApiError(400, features.has('reaction_error_codes') ? 'REACTION_ALREADY_EXISTS' : 'BAD_REQUEST', 'Reaction already exists.');

/** The caller has no reaction with that emoji: its own code from feature level 193 (reference remove-reaction). */
export const reactionMissing = (features: Features) =>
  new ApiError(400, features.has('reaction_error_codes') ? 'REACTION_DOES_NOT_EXIST' : 'BAD_REQUEST', "Reaction doesn't exist.");

/**
 * add-reaction: name, code and type that do not describe one emoji (reference add-reaction, its emoji
 * check): texts per namespace, in the order the reference checks them.
 */
export const invalidEmojiCode = () => badRequest('Invalid emoji code.');
export const invalidEmojiName = () => badRequest('Invalid emoji name.');
export const invalidCustomEmoji = () => badRequest('Invalid custom emoji.');
export const invalidCustomEmojiName = () => badRequest('Invalid custom emoji name.');
export const customEmojiDeactivated = () => badRequest('This custom emoji has been deactivated.');
export const invalidEmojiType = () => badRequest('Invalid emoji type.');

/*
 * Wildcard mentions refused by the organization's policy in a large channel or topic (reference
 * send-message, update-message). From feature level 229 each has its own code and the channel text names a
 * channel; before it, only channel wildcards were refused, as BAD_REQUEST with the older text.
 */
export const channelWildcardNotAllowed = (features: Features) =>
  features.has('wildcard_mention_error_codes')
    ? new ApiError(
        400,
        'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
        'You do not have permission to use channel wildcard mentions in this channel.',
      )
    : badRequest('You do not have permission to use wildcard mentions in this stream.');

/** Only from feature level 229: older servers did not restrict topic wildcards. */
export const topicWildcardNotAllowed = () =>
  new ApiError(400, 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED', 'You do not have permission to use topic wildcard mentions in this topic.');

/** remove-reaction with neither emoji_name nor emoji_code. */
export const reactionEmojiUnnamed = () => badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');

/* ---- Message history (companion tier, area: history): GET /messages and the narrow filter ---- */

/** A narrow term the server cannot apply (reference BadNarrowOperatorError): `desc` says which and why. */
export const badNarrow = (desc: string) => new ApiError(400, 'BAD_NARROW', `Invalid narrow operator: ${desc}`, { desc });

/** Terms that contradict each other (reference InvalidOperatorCombinationError). */
export const badNarrowCombination = (desc: string) =>
  new ApiError(400, 'BAD_NARROW', `Invalid narrow operator combination: ${desc}`, { desc });

/** Bounds on one narrow's work (the reference has none; a 400 before any message is read). */
export const tooManyNarrowTerms = (limit: number) => badRequest(`Too many narrow terms (limit: ${limit}).`);
export const searchTooManyWords = (limit: number) => badRequest(`Too many search words (limit: ${limit}).`);
export const searchWordTooLong = (limit: number) => badRequest(`A search word is too long (limit: ${limit} characters).`);

/** GET /messages without an anchor and without use_first_unread_anchor (the reference's text, period included). */
export const missingAnchor = () => badRequest("Missing 'anchor' argument.");

export const invalidAnchor = () => badRequest('Invalid anchor');

/** More than the reference's MAX_MESSAGES_PER_FETCH messages asked for in one request. */
export const tooManyMessagesRequested = (max: number) => badRequest(`Too many messages requested (maximum ${max}).`);

export const anchorExcludedInsideRange = () => badRequest('The anchor can only be excluded at an end of the range');

/**
 * GET /messages without credentials whose narrow is not a web-public one (reference: answered as a
 * missing authentication, so a client with broken credentials is not shown public data by mistake).
 */
export const spectatorNarrowRequired = () => unauthorized('Not logged in: API authentication or user session required');

/** GET /messages with message_ids beside a window parameter (reference IncompatibleParametersError). */
export const unsupportedParameterCombination = (parameters: string[]) =>
  badRequest(`Unsupported parameter combination: ${parameters.join(', ')}`, { parameters: parameters.join(', ') });

/* ---- Companion tier, area edit-delete (texts of the reference server) ---- */
export const nothingToChange = () => badRequest('Nothing to change');
export const editingDisabled = () => badRequest('Your organization has turned off message editing');
export const mayNotEditMessage = () => badRequest("You don't have permission to edit this message");
export const mayNotResolveTopics = () => badRequest("You don't have permission to resolve topics in this channel.");
export const mayNotMoveMessage = () => badRequest("You don't have permission to move this message");
export const editTimeLimitPassed = () => badRequest('The time limit for editing this message has passed');
export const topicEditTimeLimitPassed = () => badRequest("The time limit for editing this message's topic has passed.");
export const channelEditTimeLimitPassed = () => badRequest("The time limit for editing this message's channel has passed");
export const mayNotDeleteMessage = () => badRequest("You don't have permission to delete this message");
export const deleteTimeLimitPassed = () => badRequest('The time limit for deleting this message has passed');
export const mustBeAdministrator = () => badRequest('Must be an organization administrator');
export const editHistoryDisabled = () => badRequest('Message edit history is disabled in this organization');
export const contentSha256Mismatch = () =>
  new ApiError(400, 'EXPECTATION_MISMATCH', "'prev_content_sha256' value does not match the expected value.");

/** A change_all move of a non-moderator reaching messages older than the move time limit (reference MessageMoveError). */
export const moveTimeLimitExceeded = (firstAllowed: number | null, total: number, allowed: number) =>
  new ApiError(
    400,
    'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
    `You only have permission to move the ${allowed}/${total} most recent messages in this topic.`,
    { first_message_id_allowed_to_move: firstAllowed, total_messages_in_topic: total, total_messages_allowed_to_move: allowed },
  );

/* ---- New topics (companion tier; reference send-message and update-message, feature level 441) ---- */

/** Sending or moving messages to a topic that does not exist, without the channel's can_create_topic_group. */
export const mayNotCreateTopic = () => badRequest('You do not have permission to create new topics in this channel.');
