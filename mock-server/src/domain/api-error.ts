/**
 * The catalogue's error type and the two factories most others build on, in a module of their own so that
 * `area-errors.ts` can build on them while `errors.ts` re-exports both without an import cycle. Code imports
 * all of it from `domain/errors.ts`.
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
  | 'INVALID_API_KEY'
  | 'AUTHENTICATION_FAILED'
  | 'USER_DEACTIVATED'
  | 'REALM_DEACTIVATED'
  | 'RATE_LIMIT_HIT'
  | 'EXPECTATION_MISMATCH'
  | 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED'
  | 'REACTION_ALREADY_EXISTS'
  | 'REACTION_DOES_NOT_EXIST'
  | 'STREAM_WILDCARD_MENTION_NOT_ALLOWED'
  | 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED'
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

/** The Basic challenge of every 401 (HTTP requires one); the realm value names this product (reference: "use ours"). */
const CHALLENGE = { 'WWW-Authenticate': 'Basic realm="teamchat-kit"' } as const;

/** §5: a missing or unreadable Authorization header (the only case the reference answers UNAUTHORIZED). */
export const unauthorized = (msg: string) => new ApiError(401, 'UNAUTHORIZED', msg, {}, CHALLENGE);

/**
 * A readable header whose credentials do not authenticate (spec silent; reference rest-error-handling and its
 * error classes): the codes below, all HTTP 401 at every level this server emulates (the deactivation codes
 * were 403 only before feature level 76). The reference sends no challenge with these; HTTP wants one on a 401.
 */
export const credentialsRefused = (
  code: 'INVALID_API_KEY' | 'AUTHENTICATION_FAILED' | 'USER_DEACTIVATED' | 'REALM_DEACTIVATED',
  msg: string,
) => new ApiError(401, code, msg, {}, CHALLENGE);
