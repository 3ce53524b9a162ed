import type { ServerResponse } from 'node:http';
import type { AppContext } from '../app-context.js';
import { rateLimitHit } from '../domain/errors.js';
import type { RateBucket } from '../faults/rate-limit.js';
import type { Actor } from './auth.js';
import type { OperationSpec } from './openapi.js';
import { sendError } from './respond.js';

/**
 * The pipeline's rate-limit step (faults/rate-limit.ts has the reference's scheme), run only while some realm is
 * limited: after authentication, before parameters are read. An anonymous request is not limited. The three
 * `X-RateLimit-*` headers go on the answer whatever it turns out to be (errors too); a refused request is
 * answered 429 here and nothing else of it runs. True when it answered.
 */
export function limitRate(app: AppContext, op: OperationSpec, actor: Actor | null, realmId: string, res: ServerResponse): boolean {
  if (!actor || op.operationId === SERVER_SETTINGS) return false;
  const verdict = app.rateLimits.take(realmId, actor.user.user_id, bucketOf(op));
  if (!verdict) return false;
  res.setHeader('X-RateLimit-Limit', String(verdict.limit));
  res.setHeader('X-RateLimit-Remaining', String(verdict.remaining));
  res.setHeader('X-RateLimit-Reset', String(verdict.reset));
  if (verdict.retryAfter === null) return false;
  sendError(res, rateLimitHit(verdict.retryAfter));
  return true;
}

/**
 * The reference serves server_settings outside its REST dispatch (zerver/views/auth.py `api_get_server_settings`:
 * no authentication decorator, so no rate limit), even to a caller that sends credentials.
 */
const SERVER_SETTINGS = 'get-server-settings';

/** The reference's Tornado process serves the event queue's GET and DELETE /events, with buckets of its own. */
const EVENT_QUEUE_OPERATIONS: ReadonlySet<string> = new Set(['get-events', 'delete-queue']);

const bucketOf = (op: OperationSpec): RateBucket => (EVENT_QUEUE_OPERATIONS.has(op.operationId) ? 'events' : 'api');
