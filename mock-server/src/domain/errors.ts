/**
 * The one error catalogue (spec §7; statuses and texts from the reference server where the spec is
 * silent). Code throws `ApiError` built by these factories; only the HTTP error handler formats it.
 * Every factory is imported from here: the error type is in `api-error.ts` and the companion-tier areas'
 * texts in `area-errors.ts`, both re-exported below.
 */
import type { Features } from '../config/features.js';
import { ApiError, badRequest, type ErrorCode } from './api-error.js';

export { ApiError, badRequest, unauthorized, type ErrorCode } from './api-error.js';
export { malformedApiKey, invalidApiKey, authenticationFailed, userDeactivated, realmDeactivated } from './auth-errors.js';
export * from './area-errors.js';

/** Missing scheduled message, draft or saved snippet: HTTP 404 with code BAD_REQUEST (reference §7). */
export const missingResource = (msg: string) => new ApiError(404, 'BAD_REQUEST', msg);

export const missingArgument = (name: string) =>
  new ApiError(400, 'REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, { var_name: name });

export const confusingArguments = (a: string, b: string) =>
  new ApiError(400, 'REQUEST_CONFUSING_VAR', `Can't decide between '${a}' and '${b}' arguments`, { var_name1: a, var_name2: b });

/**
 * Texts the reference server worded with "stream" below feature level 255 (`channel_texts`, reference changelog:
 * "Stream" renamed "Channel" across its strings). The factories write today's texts; the error handler answers
 * the older form to a realm below that level, so no call site needs the level.
 */
const STREAM_TEXTS: readonly (readonly [RegExp, string])[] = [
  [/^Channel with ID '(.*)' does not exist$/s, "Stream with ID '$1' does not exist"],
  [/^Channel '(.*)' does not exist$/s, "Stream '$1' does not exist"],
  [/^Invalid channel ID$/, 'Invalid stream ID'],
  [/^Invalid channel name '(.*)'$/s, "Invalid stream name '$1'"],
  [/^Missing channel ID$/, 'Missing stream_id'],
];

/** The error as a realm with these features is answered it: the text of its level. */
export function errorAtLevel(error: ApiError, features: Features): ApiError {
  if (features.has('channel_texts')) return error;
  const older = STREAM_TEXTS.find(([modern]) => modern.test(error.message));
  if (!older) return error;
  return new ApiError(error.status, error.code, error.message.replace(older[0], older[1]), error.extra, error.headers);
}

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

/** A gate of the reference server for guests (reference §5 "Other gates"). */
export const guestRefused = () => badRequest('Not allowed for guest users');

/** A gate of the reference server for bots (reference §5 "Other gates": the status operations, user groups). */
export const botRefused = () => badRequest('This endpoint does not accept bot requests.');

/** Owner-only refusals (§4.7 owner role, §4.17 deactivating an owner): the reference's text with the spec's code (C10). */
export const mustBeOwner = () => badRequest('Must be an organization owner');

/** A message that does not exist or that the caller may not see: one text, so nothing leaks (reference §1). */
export const invalidMessage = () => badRequest('Invalid message(s)');

/** §4.1, §4.2, §4.19: a delivery time that is not in the future. */
export const deliveryNotInFuture = () => badRequest('Scheduled delivery time must be in the future.');

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

/** A refused value as an error text names it: enough to spot a typo, never a long input echoed back. */
export const clipped = (text: string, max = 80): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Rate limiting (reference: rest-error-handling, RateLimitedError in zerver/lib/exceptions.py): 429 RATE_LIMIT_HIT,
 * the seconds until the client may send again as `retry-after` in the body and as the `Retry-After` header, both
 * the same number (the reference writes the header from the same float, so it may have a fraction).
 */
export const rateLimitHit = (secondsToFreedom: number) =>
  new ApiError(
    429,
    'RATE_LIMIT_HIT',
    'API usage exceeded rate limit',
    { 'retry-after': secondsToFreedom },
    { 'Retry-After': String(secondsToFreedom) },
  );

/**
 * An error answer a fault rule injects (control API "Fault rules"): any status from 400 to 599 and any upper-case
 * code a test names, so a client can be shown errors of its own choosing in the API's envelope. The rule's
 * validation (faults/rules.ts) keeps `code` an identifier and `fields` clear of result/msg/code.
 */
export const injectedError = (status: number, code: string, msg: string, fields: Record<string, unknown>) =>
  // The code is the test's, not the catalogue's: the union names what this server answers by itself.
  new ApiError(status, code as ErrorCode, msg, fields);

/**
 * What the reference answers an API request whose handler raised (zerver/middleware.py JsonErrorHandler:
 * `json_response(res_type="error", msg="Internal server error", status=500)`): the envelope without a `code`.
 * Only a fault rule sends it; the mock's own unforeseen errors answer `internalError()`.
 */
export const referenceServerError = (): { status: 500; body: { result: 'error'; msg: string } } => ({
  status: 500,
  body: { result: 'error', msg: 'Internal server error' },
});

/** Fault rules of one realm at once: each is checked on every request of the realm. */
export const tooManyFaultRules = (limit: number) => badRequest(`Too many fault rules (limit: ${limit}); remove some first.`);

export const faultRuleNotFound = (realmId: string, ruleId: string) =>
  new ApiError(404, 'NOT_FOUND', `No fault rule '${ruleId}' in realm '${realmId}'.`);

/** Anything unforeseen. Never expected: every foreseeable error has a factory above. */
export const internalError = () => new ApiError(500, 'INTERNAL_SERVER_ERROR', 'Internal server error');

/**
 * Resource caps of a long-running mock (the spec and the reference server are silent). Plain
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

/** Live inspector pages at once (a resource cap like those above): each holds a connection and a stream. */
export const tooManyInspectors = (limit: number) =>
  badRequest(`Too many inspector pages are open (limit: ${limit}). Close one, or reload after a page has gone.`);

/** An exchange the inspector's ring buffer no longer holds (or never did). */
export const exchangeNotFound = (id: string) => new ApiError(404, 'NOT_FOUND', `No exchange '${id}' in the inspector's log.`);

/* The control API (/__mock): its own resources, answered in the same envelope. */
export const realmNotFound = (realmId: string) => new ApiError(404, 'NOT_FOUND', `No realm '${realmId}'.`);

export const snapshotNotFound = (realmId: string, name: string) =>
  new ApiError(404, 'NOT_FOUND', `No snapshot '${name}' of realm '${realmId}'.`);
