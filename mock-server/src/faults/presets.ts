import { injectedError, rateLimitHit, referenceServerError } from '../domain/errors.js';
import type { NormalEffect } from './rule-input.js';

/**
 * The answers a fault rule can give instead of the request's own, as bytes on the wire. Presets follow what a
 * client meets in front of the reference server:
 * - `rate_limit`: the reference's RateLimitedError (domain/errors.ts `rateLimitHit`: 429 RATE_LIMIT_HIT,
 *   `retry-after` in the body, the `Retry-After` header);
 * - `server_error`: the reference's answer to an API request whose handler raised (zerver/middleware.py
 *   JsonErrorHandler): 500, `{"result":"error","msg":"Internal server error"}`, no code;
 * - `bad_gateway`, `service_unavailable`: nginx's built-in error pages (src/http/ngx_http_special_response.c;
 *   the tail without a version, as `server_tokens off` writes it, so no nginx release is claimed), with nginx's
 *   reason phrases: HTML, not JSON, which is what a client meets while the application server behind the
 *   reverse proxy restarts.
 */
export interface Answer {
  status: number;
  /** The status line's reason phrase, where it is not Node's default for the status. */
  reason?: string;
  headers: Record<string, string>;
  body: string;
}

export function answerOf(effect: Extract<NormalEffect, { type: 'preset' | 'error' }>): Answer {
  if (effect.type === 'error') return apiErrorAnswer(injectedError(effect.status, effect.code, effect.msg, effect.fields));
  switch (effect.preset) {
    case 'rate_limit':
      return apiErrorAnswer(rateLimitHit(effect.retry_after));
    case 'server_error': {
      const { status, body } = referenceServerError();
      return { status, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
    }
    case 'bad_gateway':
      return nginxPage(502, 'Bad Gateway');
    case 'service_unavailable':
      return nginxPage(503, 'Service Temporarily Unavailable');
  }
}

/** An API error in the catalogue's envelope (ApiError.body()), with its headers, as the error handler writes it. */
function apiErrorAnswer(error: ReturnType<typeof rateLimitHit>): Answer {
  return { status: error.status, headers: { ...error.headers, 'Content-Type': 'application/json' }, body: JSON.stringify(error.body()) };
}

/** nginx's page for a status: its reason phrase in the title and heading, the "nginx" tail, CRLF line ends. */
function nginxPage(status: number, reason: string): Answer {
  const body =
    `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n` +
    `<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
  return { status, reason, headers: { 'Content-Type': 'text/html' }, body };
}
