/**
 * The one error catalogue (spec §7; statuses and texts from the reference server where the spec is
 * silent). Code throws `ApiError` built by these factories; only the HTTP error handler formats it.
 */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'STREAM_DOES_NOT_EXIST'
  | 'NOT_FOUND'
  | 'BAD_EVENT_QUEUE_ID'
  | 'BAD_NARROW'
  | 'UNAUTHORIZED_PRINCIPAL'
  | 'REQUEST_VARIABLE_MISSING'
  | 'REQUEST_CONFUSING_VAR'
  | 'UNAUTHORIZED'
  | 'RATE_LIMIT_HIT'
  | 'EXPECTATION_MISMATCH'
  | 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED'
  | 'NOT_IMPLEMENTED'
  | 'STATE_WRITE_FAILED'
  | 'INTERNAL_SERVER_ERROR';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    msg: string,
    /** Extra fields of the error body (spec §7: stream_id, stream, queue_id, …). */
    readonly extra: Record<string, unknown> = {},
    /** Extra response headers (WWW-Authenticate, Allow, Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(msg);
  }

  body(): Record<string, unknown> {
    return { result: 'error', msg: this.message, code: this.code, ...this.extra };
  }
}

export const badRequest = (msg: string, extra?: Record<string, unknown>) => new ApiError(400, 'BAD_REQUEST', msg, extra);

/** Missing scheduled message, draft or saved snippet: HTTP 404 with code BAD_REQUEST (reference §7). */
export const missingResource = (msg: string) => new ApiError(404, 'BAD_REQUEST', msg);

export const missingArgument = (name: string) =>
  new ApiError(400, 'REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, { var_name: name });

export const confusingArguments = (a: string, b: string) =>
  new ApiError(400, 'REQUEST_CONFUSING_VAR', `Can't decide between '${a}' and '${b}' arguments`, { var_name1: a, var_name2: b });

/** §4.1, §4.2: unknown channel by ID. */
export const streamIdDoesNotExist = (streamId: number) =>
  new ApiError(400, 'STREAM_DOES_NOT_EXIST', `Channel with ID '${streamId}' does not exist`, { stream_id: streamId });

/** §4.8 (C11): unknown channel by name. */
export const streamNameDoesNotExist = (name: string) =>
  new ApiError(400, 'STREAM_DOES_NOT_EXIST', `Channel '${name}' does not exist`, { stream: name });

/** §4.12 (C14). */
export const navigationViewNotFound = () => new ApiError(404, 'NOT_FOUND', 'Navigation view does not exist.');

/** §6.2: unknown, expired or another user's queue. */
export const badEventQueueId = (queueId: string) =>
  new ApiError(400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, { queue_id: queueId });

/** §4.8 below feature level 208. */
export const unauthorizedPrincipal = (msg: string) => new ApiError(403, 'UNAUTHORIZED_PRINCIPAL', msg);

export const expectationMismatch = () => new ApiError(400, 'EXPECTATION_MISMATCH', "'old' value does not match the expected value.");

export const insufficientPermission = () => badRequest('Insufficient permission');

/** Owner-only refusals (§4.7 owner role, §4.17 deactivating an owner): the reference's text with the spec's code (C10). */
export const mustBeOwner = () => badRequest('Must be an organization owner');

/** A message that does not exist or that the caller may not see: one text, so nothing leaks (reference §1). */
export const invalidMessage = () => badRequest('Invalid message(s)');

/** §4.1, §4.2, §4.19: a delivery time that is not in the future. */
export const deliveryNotInFuture = () => badRequest('Scheduled delivery time must be in the future.');

/** §5: credentials problems. The realm value names this product (reference: "use ours"). */
export const unauthorized = (msg: string) =>
  new ApiError(401, 'UNAUTHORIZED', msg, {}, { 'WWW-Authenticate': 'Basic realm="teamchat-kit"' });

// ---- compat-lookups (companion tier): bot storage, with the reference server's texts ----

/** GET or DELETE /bot_storage naming a key the caller's storage does not hold. */
export const botStorageKeyMissing = () => badRequest('Key does not exist.');

/** POST /users/me/alert_words that would take the caller's list beyond domain/compat-lookups/alert-words.ts's cap. */
export const tooManyAlertWords = (limit: number) => badRequest(`Too many alert words (limit: ${limit}). Remove some first.`);

/** PUT /bot_storage that would take the caller's storage over its limit (characters of keys and values). */
export const botStorageOverLimit = (over: number, limit: number) =>
  badRequest(`Request exceeds storage limit by ${over} characters. The limit is ${limit} characters.`);

/** Unknown path under /api/v1 (reference §1, unconfirmed): 404, code BAD_REQUEST. */
export const pathNotFound = () => new ApiError(404, 'BAD_REQUEST', 'Not Found');

/** Wrong method (reference §1 and C24: a code is added). */
export const methodNotAllowed = (allowed: string[]) =>
  new ApiError(405, 'BAD_REQUEST', 'Method Not Allowed', { allowed_methods: allowed }, { Allow: allowed.join(', ') });

/** Operations in the OpenAPI document whose behaviour later issues implement. HTTP 400, not 501: the
 *  Python client retries every 5xx ten times (reference "Compatibility"). */
export const notImplemented = (operationId: string) =>
  new ApiError(400, 'NOT_IMPLEMENTED', `The mock server does not implement ${operationId} yet.`, { operation_id: operationId });

export const payloadTooLarge = (limit: string) => new ApiError(413, 'BAD_REQUEST', `Request body is too large (limit: ${limit}).`);

/*
 * Requests that cannot be read at all (the spec and the reference server are silent): the HTTP status
 * says what went wrong, the code stays BAD_REQUEST so every client reads them as its own mistake.
 */
export const unsupportedCharset = (charset: string) => new ApiError(415, 'BAD_REQUEST', `Unsupported charset "${charset.toUpperCase()}".`);

export const unsupportedEncoding = () => new ApiError(415, 'BAD_REQUEST', 'Unsupported content encoding.');

/** A body the parser gave up on; `status` is the parser's own 4xx where it has one. */
export const unreadableBody = (status = 400) => new ApiError(status, 'BAD_REQUEST', 'The request body could not be read.');

/** A path segment that does not percent-decode: the URL names no resource. */
export const malformedUrl = () => badRequest('Malformed URL.');

/** Refused by Node's HTTP parser before express sees the request; answered on the raw socket. */
export const malformedHttpRequest = () => badRequest('Malformed HTTP request.');

/** HTTP/1.1 requires a Host header (RFC 9112 §3.2): a request without one is refused, as Node would, in JSON. */
export const missingHostHeader = () => badRequest('Malformed HTTP request: no Host header.');

export const headersTooLarge = (limitBytes: number) =>
  new ApiError(431, 'BAD_REQUEST', `Request headers are too large (limit: ${limitBytes} bytes).`);

/** §5, reference: an Authorization header of another scheme is a bad request, not an authentication failure. */
export const basicAuthRequired = () => badRequest('This endpoint requires HTTP basic authentication.');

export const stateWriteFailed = () =>
  new ApiError(503, 'STATE_WRITE_FAILED', 'The change could not be saved; the mock server stopped accepting writes.');

/** Anything unforeseen. Never expected: every foreseeable error has a factory above. */
export const internalError = () => new ApiError(500, 'INTERNAL_SERVER_ERROR', 'Internal server error');

/**
 * Resource caps of a long-running mock (issue 14; the spec and the reference server are silent). Plain
 * BAD_REQUEST, so every client reads them as a refusal it must act on (a 5xx would make the Python
 * client retry), with the way out in the text.
 */
export const tooManyQueues = (limit: number, idleSeconds: number) =>
  badRequest(
    `Too many event queues for this user (limit: ${limit}). Delete queues you no longer poll (DELETE /api/v1/events), or wait: a queue idle for ${idleSeconds / 60} minutes is removed.`,
  );

export const tooManyRealms = (limit: number) =>
  badRequest(
    `Too many realms (limit: ${limit}). Delete realms you no longer need (DELETE /__mock/realms/{id}), or start the server with a higher --max-realms.`,
  );

/**
 * Uploads whose bodies are still arriving (or whose files are still held): each may buffer up to the file
 * limit, so their number is capped. 429 with Retry-After (spec §7's rate-limit answer): clients retry, and a
 * slot frees when another upload ends or its deadline cuts it.
 */
export const tooManyPendingUploads = (limit: number, scope: 'server' | 'user') =>
  new ApiError(
    429,
    'RATE_LIMIT_HIT',
    `Too many uploads in progress ${scope === 'user' ? 'for this user' : 'on this server'} (limit: ${limit}). Retry when one has finished.`,
    { 'retry-after': 1 },
    { 'Retry-After': '1' },
  );

/** A request (headers and body) that did not arrive within the server's deadline (`bodyTimeoutMs`). */
export const requestTimedOut = (ms: number) =>
  new ApiError(408, 'BAD_REQUEST', `The request did not arrive within ${ms / 1000} seconds; the connection is closed.`);

/** A JSON value nested deeper than the server reads (parameters and control bodies): bounded work per request. */
export const jsonTooDeep = (name: string, limit: number) => badRequest(`${name} is nested too deeply (limit: ${limit} levels).`);

/** Named snapshots of one realm (each a full copy of it), and a snapshot's name length. */
export const tooManySnapshots = (limit: number) =>
  badRequest(
    `Too many snapshots of this realm (limit: ${limit}). Delete one you no longer need (DELETE /__mock/realms/{id}/snapshots/{name}).`,
  );
export const snapshotNameTooLong = (limit: number) => badRequest(`Snapshot name is too long (limit: ${limit} characters).`);

/** The control API behind a token (`--control-token`), asked without it or with another one. */
export const controlTokenRequired = () =>
  new ApiError(401, 'UNAUTHORIZED', 'The control API needs the control token: send it as "Authorization: Bearer <token>".');

/** The inspector page (GET /) and its feed behind the control token: the page takes it once as `/?token=`. */
export const inspectorTokenRequired = () =>
  new ApiError(401, 'UNAUTHORIZED', 'The inspector needs the control token: open /?token=<token> once in this browser.');

/*
 * Who the control API and the inspector obey (http/owner-guard.ts): requests a web page of another site cannot
 * make. Each text names the rule, so a developer whose own script is refused knows what to change.
 */
export const foreignHost = (host: string) =>
  new ApiError(
    403,
    'UNAUTHORIZED',
    `The control API and the inspector answer only a Host that is an IP address, localhost, the server's --host or a name given with --allow-host (a web page could reach them by DNS rebinding otherwise); got "${host}".`,
  );

export const foreignOrigin = (origin: string) =>
  new ApiError(
    403,
    'UNAUTHORIZED',
    `The control API and the inspector take no calls from web pages of other origins (Origin: ${origin}); call them without an Origin header or from the inspector page.`,
  );

export const controlBodyNotJson = (contentType: string | null) =>
  new ApiError(
    415,
    'BAD_REQUEST',
    `The control API takes JSON bodies only (Content-Type: application/json), not ${contentType ?? 'a body without a Content-Type'}: a web page of any site can send forms and text.`,
  );

export const controlHeaderRequired = () =>
  badRequest(
    'A control call that changes something needs a JSON body (Content-Type: application/json) or the header "X-Teamchat-Control: 1": a web page of another site can send neither.',
  );

/** Live inspector pages at once (issue 19; a cap like issue 14's): each holds a connection and a stream. */
export const tooManyInspectors = (limit: number) =>
  badRequest(`Too many inspector pages are open (limit: ${limit}). Close one, or reload after a page has gone.`);

/** An exchange the inspector's ring buffer no longer holds (or never did). */
export const exchangeNotFound = (id: string) => new ApiError(404, 'NOT_FOUND', `No exchange '${id}' in the inspector's log.`);

/* The control API (/__mock): its own resources, answered in the same envelope. */
export const realmNotFound = (realmId: string) => new ApiError(404, 'NOT_FOUND', `No realm '${realmId}'.`);

export const snapshotNotFound = (realmId: string, name: string) =>
  new ApiError(404, 'NOT_FOUND', `No snapshot '${name}' of realm '${realmId}'.`);

/* ---- Area live: typing, presence, uploads (companion tier; texts of the reference server) ---- */

/** set-typing-status: `Missing stream_id`, `Missing topic`, `Missing 'to' argument`, `Empty 'to' list`. */
export const typingMissing = (what: string, verb = 'Missing') => badRequest(`${verb} ${what}`);

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

/* ---- Companion tier, area flags-reactions: the reference server's texts ---------------------------- */

/** update-message-flags: a flag name the service does not have. */
export const invalidFlag = (flag: string) => badRequest(`Invalid flag: '${flag}'`);

/** update-message-flags: a flag only the server sets (mentioned, historical, …). */
export const flagNotEditable = (flag: string) => badRequest(`Flag not editable: '${flag}'`);

/** update-message-flags: op other than add or remove. */
export const invalidFlagOperation = (op: string) => badRequest(`Invalid message flag operation: '${op}'`);

/** add-reaction, remove-reaction and status emoji: a name the emoji data does not know. */
export const unknownEmoji = (name: string) => badRequest(`Emoji '${name}' does not exist`);

export const reactionExists = () => badRequest('Reaction already exists.');

export const reactionMissing = () => badRequest("Reaction doesn't exist.");

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
