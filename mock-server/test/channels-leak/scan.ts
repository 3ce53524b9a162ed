import type { Reply } from '../helpers/test-server.js';
import type { Secret } from './model.js';

/**
 * Finding a channel in a JSON answer. A channel shows up by ID (`stream_id`, `stream_ids`, and the
 * `data-stream-id` of rendered channel links) or by its text (name, description, messages); both are
 * searched everywhere, keys included, so a leak is found whatever field carries it.
 */

export interface Leak {
  path: string;
  what: string;
}

const ID_KEYS = new Set(['stream_id', 'prev_stream', 'stream']);

function walk(
  value: unknown,
  path: string,
  visit: (value: unknown, path: string, key: string | null) => void,
  key: string | null = null,
): void {
  visit(value, path, key);
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`, visit, key));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      visit(k, `${path} (key ${JSON.stringify(k)})`, null);
      walk(v, `${path}.${k}`, visit, k);
    }
  }
}

/** Every place where the channel of `secret` appears in `value`. */
export function findLeaks(value: unknown, secret: Secret): Leak[] {
  const leaks: Leak[] = [];
  const linkRe = new RegExp(`data-stream-id="${secret.streamId}"`);
  walk(value, '$', (v, path, key) => {
    if (typeof v === 'number' && key !== null && ID_KEYS.has(key) && v === secret.streamId) leaks.push({ path, what: `${key} ${v}` });
    if (Array.isArray(v) && key === 'stream_ids' && v.includes(secret.streamId))
      leaks.push({ path, what: `stream_ids containing ${secret.streamId}` });
    if (typeof v !== 'string') return;
    if (linkRe.test(v)) leaks.push({ path, what: `channel link data-stream-id="${secret.streamId}"` });
    for (const s of secret.strings)
      if (v.includes(s.text)) leaks.push({ path, what: `the channel's ${s.label} ${JSON.stringify(s.text.slice(0, 60))}` });
  });
  return leaks;
}

/** Stream IDs in `value` outside `allowed`: channels the viewer may not know, whichever they are. */
export function foreignChannelIds(value: unknown, allowed: ReadonlySet<number>): Leak[] {
  const leaks: Leak[] = [];
  walk(value, '$', (v, path, key) => {
    if (key === 'stream_id' && typeof v === 'number' && !allowed.has(v)) leaks.push({ path, what: `stream_id ${v}` });
    if (key === 'stream_ids' && Array.isArray(v)) {
      for (const id of v) if (typeof id === 'number' && !allowed.has(id)) leaks.push({ path, what: `stream_ids containing ${id}` });
    }
  });
  return leaks;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * An answer with the one thing the caller sent (a channel ID or name) replaced by a placeholder, so
 * the answers for two different inputs can be compared byte for byte. Numbers are replaced only as
 * whole numbers; names in their JSON-escaped form, as they appear in the body.
 */
export function normalized(reply: Reply, token: number | string): { status: number; contentType: unknown; text: string } {
  const pattern =
    typeof token === 'number'
      ? new RegExp(`(?<![0-9])${token}(?![0-9])`, 'g')
      : new RegExp(escapeRe(JSON.stringify(token).slice(1, -1)), 'g');
  return { status: reply.status, contentType: reply.headers['content-type'], text: reply.text.replace(pattern, '<SENT>') };
}
