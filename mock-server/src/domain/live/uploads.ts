import { randomBytes } from 'node:crypto';
import type { EventOf } from '../../contract/event-types.js';
import type { AnswerOf, ParamsOf, SchemaOf } from '../../contract/operation-types.js';
import { ownedOf, ownedRows } from '../../store/indexes.js';
import type { Tx } from '../../store/store.js';
import type { AttachmentRow, MessageRow, RealmState, UserRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { fileTooLarge, invalidAttachment, noFileToUpload, oneFileAtATime, uploadQuotaExceeded } from '../errors.js';
import { mayDeleteAttachment, mayReadAttachment } from '../permissions.js';

/**
 * Uploads and attachments (companion tier, area live; reference "Upload a file", "Get attachments",
 * "Delete an attachment"). Storage: the file's bytes are a row of `attachment_files` (base64), written
 * through the store like any change, so an acknowledged upload is in the journal (fsync) before the
 * answer and survives kill -9; deleting the attachment deletes the row, and a realm reset or removal
 * drops the realm's tables, so the bytes go with them (compaction rewrites the state without them).
 * Chosen over files beside the state file because one durability path already exists and --in-memory
 * needs no directory; the price is base64 inside the state, bounded by the per-file limit and the
 * per-realm quota (both configurable: --max-upload-mib, --upload-quota-mib).
 */

/** The limits come from the server's configuration (config.ts: maxFileUploadMib, uploadQuotaMib). */
const MIB = 1024 * 1024;

export interface UploadLimits {
  maxFileMib: number;
  quotaMib: number;
}

/** A file part as the body parser read it (at most the limit plus one byte kept). */
export interface UploadedFile {
  filename: string;
  mimeType: string;
  data: Buffer;
  /** The part went past the per-file limit. */
  truncated: boolean;
}

/** What an upload brings besides its parameters: the file parts of the body and the server's limits. */
export interface UploadRequest {
  files: readonly UploadedFile[];
  limits: UploadLimits;
}

/**
 * The reference's file name cleaning: Unicode letters, digits, `_`, `.`, `-` kept, runs of spaces and
 * dashes made one `-`; nothing left becomes `uploaded-file`.
 */
export function sanitizeFileName(raw: string): string {
  const base = raw.normalize('NFKC').split(/[\\/]/).pop() ?? '';
  const kept = base
    .replace(/[^\p{L}\p{N}_\s.-]/gu, '')
    .trim()
    .replace(/[-\s]+/g, '-');
  return kept === '' || kept === '.' || kept === '..' ? 'uploaded-file' : kept;
}

/** Bytes of every file of the realm (the reference's upload_space_used), kept by the store's index. */
export function uploadSpaceUsed(tables: Pick<RealmState, 'attachments'>): number {
  return ownedOf(tables).uploadBytes;
}

export const uploadUrl = (row: Pick<AttachmentRow, 'path_id'>) =>
  `/user_uploads/${row.path_id.split('/').map(encodeURIComponent).join('/')}`;

/** The wire attachment (reference "Get attachments"): times in milliseconds, messages that still exist. */
export function presentAttachment(tables: Pick<RealmState, 'messages'>, row: AttachmentRow): SchemaOf<'Attachment'> {
  const messages = row.message_ids
    .map((id) => tables.messages[String(id)])
    .filter((m): m is MessageRow => m !== undefined)
    .map((m) => ({ id: m.id, date_sent: m.timestamp * 1000 }));
  return { id: row.id, name: row.name, path_id: row.path_id, size: row.size, create_time: row.create_time * 1000, messages };
}

function emitAttachment(tx: Tx, ownerId: number, op: EventOf<'attachment'>['op'], attachment: EventOf<'attachment'>['attachment']): void {
  tx.emit({ type: 'attachment', op, attachment, upload_space_used: uploadSpaceUsed(tx.tables) }, [ownerId]);
}

/**
 * POST /user_uploads: one file, within the per-file limit and the realm's quota. The one action whose input
 * is not the document's parameters: the files come from the body parser, the limits from the configuration.
 */
export function doUploadFile(tx: Tx, actor: ActorContext, upload: UploadRequest): { url: string; filename: string } {
  const { files, limits } = upload;
  if (files.length === 0) throw noFileToUpload();
  if (files.length !== 1) throw oneFileAtATime();
  const file = files[0]!;
  if (file.truncated || file.data.length > limits.maxFileMib * MIB) throw fileTooLarge(limits.maxFileMib);
  if (uploadSpaceUsed(tx.tables) + file.data.length > limits.quotaMib * MIB) throw uploadQuotaExceeded();
  const id = tx.nextId('attachments');
  const name = sanitizeFileName(file.filename);
  // 24 random characters make the URL unguessable, as the reference's; access is checked anyway.
  const token = randomBytes(18).toString('base64url');
  const row: AttachmentRow = {
    id,
    owner_id: actor.user.user_id,
    name,
    path_id: `${tx.realmId}/${id}/${token}/${name}`,
    size: file.data.length,
    content_type: file.mimeType,
    create_time: actor.now,
    message_ids: [],
  };
  tx.put('attachments', id, row);
  tx.put('attachment_files', id, { data: file.data.toString('base64') });
  emitAttachment(tx, row.owner_id, 'add', presentAttachment(tx.tables, row));
  return { url: uploadUrl(row), filename: name };
}

/** GET /attachments: the caller's files, newest first. */
export function listAttachments(tables: RealmState, user: UserRow): AnswerOf<'get-attachments'> {
  const own = ownedRows(tables, 'attachments', user.user_id).sort((a, b) => b.id - a.id);
  return { attachments: own.map((a) => presentAttachment(tables, a)), upload_space_used: uploadSpaceUsed(tables) };
}

/** DELETE /attachments/{id}: only the owner's; another user's answers as a missing one (nothing leaks). */
export function doRemoveAttachment(tx: Tx, actor: ActorContext, params: ParamsOf<'remove-attachment'>): void {
  const id = params.attachment_id;
  const row = tx.tables.attachments[String(id)];
  if (!row || !mayDeleteAttachment(actor.user, row)) throw invalidAttachment();
  tx.delete('attachments', id);
  tx.delete('attachment_files', id);
  emitAttachment(tx, row.owner_id, 'remove', { id });
}

/** The attachment a URL path (after `/user_uploads/`, percent-decoded) names in this realm, if any. */
export function attachmentByPath(tables: Pick<RealmState, 'attachments'>, realmId: string, path: string): AttachmentRow | undefined {
  const [realm, id] = path.split('/');
  if (realm !== realmId || id === undefined || !/^[0-9]+$/.test(id)) return undefined;
  const row = tables.attachments[id];
  return row && row.path_id === path ? row : undefined;
}

const UPLOAD_LINK = /\/user_uploads\/([^\s()[\]<>"'`]+)/g;

/** The attachments of this realm a text links to, each once. */
function linkedAttachments(tables: Pick<RealmState, 'attachments'>, realmId: string, text: string): AttachmentRow[] {
  const found = new Map<number, AttachmentRow>();
  if (!text.includes('/user_uploads/')) return [];
  for (const match of text.matchAll(UPLOAD_LINK)) {
    let path: string;
    try {
      path = decodeURIComponent(match[1]!);
    } catch {
      continue;
    }
    const row = attachmentByPath(tables, realmId, path);
    if (row) found.set(row.id, row);
  }
  return [...found.values()];
}

/**
 * A deleted message leaves its attachments' message lists (reference: the attachment is no longer
 * referenced by it). Only the message's own versions can have claimed a file (sending and content edits
 * claim), so those are the attachments looked at, never all of them. An attachment left without messages
 * stays, readable by its uploader only, until the uploader deletes it. The owner's queues receive
 * `attachment` / `update` with the shorter list.
 */
export function detachMessage(tx: Tx, message: MessageRow): void {
  const texts = [message.content, ...message.edit_history.map((e) => e.prev_content ?? '')].join('\n');
  for (const row of linkedAttachments(tx.tables, tx.realmId, texts)) {
    if (!row.message_ids.includes(message.id)) continue;
    const next = { ...row, message_ids: row.message_ids.filter((id) => id !== message.id) };
    tx.put('attachments', row.id, next);
    emitAttachment(tx, row.owner_id, 'update', presentAttachment(tx.tables, next));
  }
}

/**
 * Claiming (reference do_claim_attachments): a sent message that links to an upload of this realm
 * records itself on the attachment, which opens the file to everyone who may see the message. Only the
 * uploader's links, or links to files the sender may already read, claim: pasting a guessed URL grants
 * nothing. The owner's queues receive `attachment` / `update`.
 */
export function claimAttachments(tx: Tx, message: MessageRow): void {
  if (!message.content.includes('/user_uploads/')) return;
  const sender = tx.tables.users[String(message.sender_id)];
  if (!sender) return;
  for (const row of linkedAttachments(tx.tables, tx.realmId, message.content)) {
    if (row.message_ids.includes(message.id) || !mayReadAttachment(tx.tables, sender, row)) continue;
    const next = { ...row, message_ids: [...row.message_ids, message.id].sort((a, b) => a - b) };
    tx.put('attachments', row.id, next);
    emitAttachment(tx, row.owner_id, 'update', presentAttachment(tx.tables, next));
  }
}
