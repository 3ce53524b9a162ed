import type { Request, RequestHandler } from 'express';
import { bare, isLocalHostHeader } from '../../../cli/hosts.js';
import { controlBodyNotJson, controlHeaderRequired, foreignHost, foreignOrigin } from '../domain/errors.js';

/**
 * The control API (/__mock) and the inspector obey only the developer who runs the mock (docs/security.md).
 * Any web page the developer opens can reach a loopback port, so three rules keep pages out:
 *
 * - **Host.** A page that rebinds its own DNS name to 127.0.0.1 reaches the mock as a same-origin page of that
 *   name and could read every API key; its requests carry that name in Host. So Host must be an IP address (a
 *   browser that sends one reached the server by its address, which no DNS answer can rebind), `localhost`, the
 *   address the server was told to listen on, or a name the operator allows (`--allow-host`).
 * - **Origin.** A browser names the page behind every cross-origin call (and every POST); only the server's own
 *   origin (the inspector page) may call.
 * - **What a page cannot send without asking.** A form or `fetch(…, {mode: 'no-cors'})` of another site sends
 *   URL-encoded, multipart or text/plain bodies, or none, with no custom header, and needs no CORS preflight
 *   (which the control API never grants). So a call that changes something needs a JSON body
 *   (`Content-Type: application/json`) or, without a body, the header `X-Teamchat-Control`. This holds even where
 *   an old browser or a proxy drops Origin.
 *
 * These hold on every binding, with a control token or without: the token keeps other machines out, these rules
 * keep other sites out.
 */
export const CONTROL_HEADER = 'x-teamchat-control';

export interface OwnerRules {
  /** The address the server listens on (`--host`). */
  host: string;
  /** Further names (`--allow-host`). */
  allowHosts?: readonly string[];
}

/** Host and Origin, on every control and inspector request (GET included: credentials are readable). */
export function ownerOnly(rules: OwnerRules): RequestHandler {
  const names = new Set(['localhost', bare(rules.host.toLowerCase()), ...(rules.allowHosts ?? []).map((h) => h.toLowerCase())]);
  return (req, _res, next) => {
    const host = req.headers.host ?? '';
    if (!isLocalHostHeader(host, names)) return next(foreignHost(host.slice(0, 200)));
    const origin = req.headers.origin;
    if (origin !== undefined && !sameOrigin(origin, host)) return next(foreignOrigin(origin.slice(0, 200)));
    next();
  };
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A call that changes something comes with a JSON body, or without a body and with CONTROL_HEADER. */
export const ownerMutation: RequestHandler = (req, _res, next) => {
  if (!MUTATING.has(req.method)) return next();
  const type = req.headers['content-type'];
  if (type !== undefined) return next(essence(type) === 'application/json' ? undefined : controlBodyNotJson(type.slice(0, 100)));
  if (hasBody(req)) return next(controlBodyNotJson(null));
  next(req.headers[CONTROL_HEADER] === undefined ? controlHeaderRequired() : undefined);
};

/** The Origin a browser sends for a page of this server: its scheme and the Host the request names. */
function sameOrigin(origin: string, host: string): boolean {
  const o = origin.toLowerCase();
  const h = host.trim().toLowerCase();
  return o === `http://${h}` || o === `https://${h}`;
}

/** The media type without parameters (`application/json; charset=utf-8` → `application/json`). */
const essence = (type: string) => type.split(';', 1)[0]!.trim().toLowerCase();

const hasBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');
