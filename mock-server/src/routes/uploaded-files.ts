import type { Request, RequestHandler } from 'express';
import type { AppContext } from '../app-context.js';
import { fileForbidden, fileNotFound } from '../domain/errors.js';
import { pathFromTemporaryUrl } from '../domain/live/file-tokens.js';
import { attachmentByPath } from '../domain/live/uploads.js';
import { mayReadAttachment, webPublicAttachment } from '../domain/permissions.js';
import type { AttachmentRow, RealmState } from '../store/state.js';
import { authenticate, notLoggedIn } from '../http/auth.js';

/**
 * GET /user_uploads/{realm_id}/{attachment_id}/{token}/{name}: the URL upload-file answered (area live).
 * Not an operation of the document: like the reference server's, it lives outside /api/v1 and answers
 * bytes, not JSON. It takes the API's Basic authentication (stock clients send their API key): a file of
 * another realm, a deleted one or a wrong token 404; a file the caller may not read (not the uploader,
 * and no message referencing it visible to them) 403. Without credentials (reference: spectators), a
 * file a message of a web-public channel references is served when the realm opens web-public channels
 * to spectators; any other request without credentials is 401. Errors are the JSON envelope rather than
 * the reference's HTML pages, so every answer a client parses is JSON.
 *
 * GET /user_uploads/temporary/{token}/{name}: the URL get-file-temporary-url answered, served without
 * credentials while it is valid (domain/live/file-tokens.ts).
 */
export function serveUploadedFile(app: AppContext): RequestHandler {
  return (req, res, next) => {
    try {
      const found = req.path.startsWith(TEMPORARY) ? viaTemporaryUrl(app, req.path) : viaPath(app, req);
      const type = SAFE_TYPE.test(found.row.content_type) ? found.row.content_type : 'application/octet-stream';
      // Types a browser would run (HTML, SVG, …) are downloaded, never shown inline (the reference's INLINE_MIME_TYPES idea).
      const inline = INLINE.test(type);
      res.statusCode = 200;
      res.setHeader('Content-Type', type);
      res.setHeader('Content-Length', found.data.length);
      res.setHeader('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(found.row.name)}`);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'private, immutable');
      res.end(found.data);
    } catch (error) {
      next(error);
    }
  };
}

const TEMPORARY = '/user_uploads/temporary/';

interface Found {
  row: AttachmentRow;
  data: Buffer;
}

function fileAt(tables: RealmState | undefined, realmId: string, path: string): Found | undefined {
  const row = tables && attachmentByPath(tables, realmId, path);
  const file = row && tables.attachment_files[String(row.id)];
  return row && file ? { row, data: Buffer.from(file.data, 'base64') } : undefined;
}

const decode = (segment: string): string => {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw fileNotFound();
  }
};

function viaPath(app: AppContext, req: Request): Found {
  const path = decode(req.path.slice('/user_uploads/'.length));
  const actor = authenticate(req.headers.authorization, app.store, app.keys);
  if (!actor) {
    // A spectator: the path names the realm; only files of web-public channels, where spectators may come.
    const realmId = path.split('/')[0] ?? '';
    const tables = app.store.realm(realmId);
    const realm = tables?.realm.realm;
    const found = fileAt(tables, realmId, path);
    const open = realm !== undefined && realm.enable_spectator_access && realm.web_public_streams_enabled;
    if (!found || !open || !webPublicAttachment(tables!, found.row)) throw notLoggedIn();
    return found;
  }
  const tables = app.store.realm(actor.realmId);
  if (!tables) throw notLoggedIn();
  const found = fileAt(tables, actor.realmId, path);
  if (!found) throw fileNotFound();
  if (!mayReadAttachment(tables, actor.user, found.row)) throw fileForbidden();
  return found;
}

function viaTemporaryUrl(app: AppContext, rawPath: string): Found {
  const [token = '', name = '', ...rest] = rawPath.slice(TEMPORARY.length).split('/');
  if (rest.length > 0) throw fileNotFound();
  const nowOf = (realmId: string) => (app.store.realm(realmId) ? Math.floor(app.clock.realmNowMs(realmId) / 1000) : undefined);
  const path = pathFromTemporaryUrl(token, decode(name), nowOf);
  const realmId = path.split('/')[0]!;
  const found = fileAt(app.store.realm(realmId), realmId, path);
  if (!found) throw fileNotFound();
  return found;
}

/** A plain `type/subtype` as a client declared it; anything else is served as bytes. */
const SAFE_TYPE = /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/i;
const INLINE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|audio\/[a-z0-9.+-]+|video\/(mp4|webm|ogg)|application\/pdf|text\/plain)$/i;
