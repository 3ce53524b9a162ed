import { REDACTED, redacted, SECRET_NAMES } from '../http/request-log.js';
import type { Body, Exchange, ExchangeSummary } from './capture.js';

/**
 * One exchange as the page shows it when clicked (GET /__inspector/exchanges/:id): the query as name → value,
 * the bodies pretty-printed, every credential replaced by `[redacted]`. Redaction reuses the request log's
 * rule (http/request-log.ts `redacted`: by name, at any depth) plus `token` (the control token given to the
 * page as `/?token=`). A body cut at the cap is no longer JSON, so there the same names are found in the text
 * (`"api_key": "…"` and `api_key=…`) and their values replaced up to the cut.
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
    query: hideSecrets(Object.fromEntries(new URLSearchParams(query))) as Record<string, unknown>,
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
      return JSON.stringify(hideSecrets(JSON.parse(text)), null, 2);
    } catch {
      // Not JSON (an HTML page, a file): redacted as text below.
    }
  }
  return text.replace(SECRET_IN_JSON, `$1"${REDACTED}"`).replace(SECRET_IN_FORM, `$1${REDACTED}`);
}

/** The request log's secret names, and `token` (only the inspector's log sees `/?token=`). */
const SECRET: ReadonlySet<string> = new Set([...SECRET_NAMES, 'token']);

const hideSecrets = (value: unknown): unknown => redacted(value, SECRET);

const NAMES = [...SECRET].join('|');
/** `"api_key": "value` (to its closing quote, or the end of a cut text). */
const SECRET_IN_JSON = new RegExp(`("(?:${NAMES})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*(?:"|$)`, 'gi');
/** `api_key=value` in a form or query text. */
const SECRET_IN_FORM = new RegExp(`((?:^|[&?])(?:${NAMES})=)[^&]*`, 'gi');
