import { isSecretName } from '../../../cli/secret-names.js';
import { REDACTED, redacted, safeDecode } from '../http/request-log.js';
import type { Body, Exchange, ExchangeSummary } from './exchange-log.js';

/**
 * One exchange as the page shows it when clicked (GET /__inspector/exchanges/:id): the query as name → value,
 * the bodies pretty-printed, every credential replaced by `[redacted]`. Redaction is the request log's
 * (http/request-log.ts `redacted`: by name, at any depth, with the names of cli/secret-names.ts). A body cut at
 * the cap is no longer JSON, so there every `"name": "…"` and `name=…` of the text whose name is secret has its
 * value replaced up to the cut.
 */
export interface ExchangeView extends ExchangeSummary {
  query: Record<string, unknown>;
  request: BodyView;
  response: BodyView;
}

export interface BodyView {
  type: string | null;
  /** null: no body. */
  text: string | null;
  /** Characters of the whole body; more than the text's when it was cut. */
  length: number;
  truncated: boolean;
}

export function viewOf(exchange: Exchange): ExchangeView {
  const { query, requestType, requestBody, responseType, responseBody, ...summary } = exchange;
  return {
    ...summary,
    query: redacted(Object.fromEntries(new URLSearchParams(query))) as Record<string, unknown>,
    request: bodyView(requestType, requestBody),
    response: bodyView(responseType, responseBody),
  };
}

function bodyView(type: string | null, body: Body): BodyView {
  const truncated = body.text !== null && body.length > body.text.length;
  return { type, text: body.text === null ? null : shown(body.text, truncated), length: body.length, truncated };
}

function shown(text: string, truncated: boolean): string {
  if (!truncated) {
    try {
      return JSON.stringify(redacted(JSON.parse(text)), null, 2);
    } catch {
      // Not JSON (an HTML page, a file): redacted as text below.
    }
  }
  return redactText(text);
}

/** `"api_key": "value` (to its closing quote, or the end of a cut text); the name is checked by the callback. */
const NAMED_IN_JSON = /("((?:[^"\\]|\\.){1,200})"\s*:\s*)"(?:[^"\\]|\\.)*(?:"|$)/g;
/** `api_key=value` in a form or query text. */
const NAMED_IN_FORM = /((?:^|[&?])([^=&]{1,200})=)[^&]*/g;

function redactText(text: string): string {
  return text
    .replace(NAMED_IN_JSON, (whole, head: string, name: string) => (isSecretName(name) ? `${head}"${REDACTED}"` : whole))
    .replace(NAMED_IN_FORM, (whole, head: string, name: string) => (isSecretName(safeDecode(name)) ? `${head}${REDACTED}` : whole));
}
