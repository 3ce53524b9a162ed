import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AnswerOf, ParamsOf } from '../../contract/operation-types.js';
import type { RealmState, UserRow } from '../../store/state.js';
import { fileForbidden, fileNotFound, invalidFileName, invalidFileToken } from '../errors.js';
import { mayReadAttachment } from '../permissions.js';
import { attachmentByPath } from './uploads.js';

/**
 * Temporary file URLs (companion tier, area live; reference get-file-temporary-url): whoever may read a
 * file gets a URL, `/user_uploads/temporary/{token}/{file name}`, that serves it without credentials
 * for 60 seconds of the realm's clock (the reference's validity), so `advance` expires it too. The token
 * is the file's path and the time it was made, signed (HMAC-SHA256) with a key this process draws at
 * start: nothing is stored, nothing to clean up, and a restarted server no longer honours older URLs
 * (they would have expired within the minute anyway).
 */

/** The reference's validity of a temporary URL. */
export const TEMPORARY_URL_SECONDS = 60;

const KEY = randomBytes(32);
const sign = (payload: string) => createHmac('sha256', KEY).update(payload).digest('base64url');

/** GET /user_uploads/{realm_id}/{attachment_id}/{token}/{filename}: checked like the file itself (404, then 403). */
export function temporaryFileUrl(
  tables: RealmState,
  realmId: string,
  viewer: UserRow,
  now: number,
  params: ParamsOf<'get-file-temporary-url'>,
): AnswerOf<'get-file-temporary-url'> {
  const path = [params.realm_id, params.attachment_id, params.token, params.filename].join('/');
  const row = attachmentByPath(tables, realmId, path);
  if (!row || !tables.attachment_files[String(row.id)]) throw fileNotFound();
  if (!mayReadAttachment(tables, viewer, row)) throw fileForbidden();
  const payload = `${row.path_id}:${now.toString(36)}`;
  // Hexadecimal, as the reference's tokens are: no character a URL path would need to escape.
  const token = Buffer.from(`${payload}:${sign(payload)}`).toString('hex');
  return { url: `/user_uploads/temporary/${token}/${encodeURIComponent(row.name)}` };
}

/**
 * The file path a temporary URL names, when its token is genuine and younger than 60 seconds of the
 * realm's clock (`nowOf`); otherwise `Invalid token`, and a name that is not the file's `Invalid filename`
 * (the reference's answers, 400).
 */
export function pathFromTemporaryUrl(token: string, filename: string, nowOf: (realmId: string) => number | undefined): string {
  const text = /^(?:[0-9a-f]{2})+$/i.test(token) ? Buffer.from(token, 'hex').toString('utf8') : '';
  const at = text.lastIndexOf(':');
  const payload = text.slice(0, Math.max(at, 0));
  const given = Buffer.from(text.slice(at + 1));
  const expected = Buffer.from(sign(payload));
  if (at <= 0 || given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidFileToken();
  const split = payload.lastIndexOf(':');
  const path = payload.slice(0, split);
  const issued = parseInt(payload.slice(split + 1), 36);
  const now = nowOf(path.split('/')[0] ?? '');
  if (now === undefined || !(now - issued <= TEMPORARY_URL_SECONDS)) throw invalidFileToken();
  if (path.split('/').pop() !== filename) throw invalidFileName();
  return path;
}
