import type { AnswerOf } from '../../contract/operation-types.js';
import type { RealmState, UserRow } from '../../store/state.js';
import { invalidMessage } from '../errors.js';
import { presentMessage, viewMessage } from '../present/messages.js';
import { receivedFlags, accessibleMessage } from './visibility.js';

export interface FetchOptions {
  applyMarkdown: boolean;
  allowEmptyTopicName: boolean;
}

/**
 * GET /messages/{message_id} (spec §4.3, reference §4.3). A message the caller may not see answers
 * exactly like a missing one. `flags` are the caller's own, or `read` + `historical` for a message of
 * shared channel history they never received. Avatars are computed as if client_gravatar were true:
 * null only for a Gravatar sender whose real email the caller may see (§2.5 avatar_url).
 */
export function fetchMessage(tables: RealmState, viewer: UserRow, messageId: number, options: FetchOptions): AnswerOf<'get-message'> {
  const message = accessibleMessage(tables, viewer, messageId);
  if (!message) throw invalidMessage();
  const wire = presentMessage(tables, message);
  const flags = receivedFlags(tables, viewer, message.id) ?? ['read', 'historical'];
  const view = { applyMarkdown: options.applyMarkdown, clientGravatar: true, emptyTopicName: options.allowEmptyTopicName, viewer };
  return { message: { ...viewMessage(wire, view), flags: [...flags] }, raw_content: message.content };
}
