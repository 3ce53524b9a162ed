import type { RequestHandler } from 'express';
import type { AppContext } from '../app-context.js';
import { fileForbidden, fileNotFound } from '../domain/errors.js';
import { attachmentByPath } from '../domain/live/uploads.js';
import { mayReadAttachment } from '../domain/permissions.js';
import { authenticate, notLoggedIn } from '../http/auth.js';

/**
 * GET /user_uploads/{realm_id}/{attachment_id}/{token}/{name}: the URL upload-file answered (area live).
 * Not an operation of the document: like the reference server's, it lives outside /api/v1 and answers
 * bytes, not JSON. It takes the API's Basic authentication (stock clients send their API key): none
 * answers 401; a file of another realm, a deleted one or a wrong token 404; a file the caller may not
 * read (not the uploader, and no message referencing it visible to them) 403. Errors are the JSON
 * envelope rather than the reference's HTML pages, so every answer a client parses is JSON.
 */
export function serveUploadedFile(app: AppContext): RequestHandler {
  return (req, res, next) => {
    try {
      const actor = authenticate(req.headers.authorization, app.store, app.keys);
      if (!actor) throw notLoggedIn();
      const tables = app.store.realm(actor.realmId);
      if (!tables) throw notLoggedIn();
      let path: string;
      try {
        path = decodeURIComponent(req.path.slice('/user_uploads/'.length));
      } catch {
        throw fileNotFound();
      }
      const row = attachmentByPath(tables, actor.realmId, path);
      const file = row && tables.attachment_files[String(row.id)];
      if (!row || !file) throw fileNotFound();
      if (!mayReadAttachment(tables, actor.user, row)) throw fileForbidden();
      const data = Buffer.from(file.data, 'base64');
      const type = SAFE_TYPE.test(row.content_type) ? row.content_type : 'application/octet-stream';
      // Types a browser would run (HTML, SVG, …) are downloaded, never shown inline (the reference's INLINE_MIME_TYPES idea).
      const inline = INLINE.test(type);
      res.status(200);
      res.setHeader('Content-Type', type);
      res.setHeader('Content-Length', data.length);
      res.setHeader('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(row.name)}`);
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'private, immutable');
      res.end(data);
    } catch (error) {
      next(error);
    }
  };
}

/** A plain `type/subtype` as a client declared it; anything else is served as bytes. */
const SAFE_TYPE = /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/i;
const INLINE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|audio\/[a-z0-9.+-]+|video\/(mp4|webm|ogg)|application\/pdf|text\/plain)$/i;
