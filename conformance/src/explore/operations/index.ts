import type { Tier } from '../../model.js';
import type { OperationIndex } from '../document.js';
import { CHANNEL_TEMPLATES } from './channels.js';
import { FLAG_TEMPLATES } from './flags.js';
import { withInvalid } from './invalid.js';
import { MESSAGE_MOVE_TEMPLATES } from './message-moves.js';
import { MESSAGE_TEMPLATES } from './messages.js';
import { PERSONAL_TEMPLATES } from './personal.js';
import { SCHEDULED_TEMPLATES } from './scheduled.js';
import type { Template } from './template.js';

/**
 * Every kind of step explore knows, each tied to an operation of the document; a draw of the
 * wrong-on-purpose kind breaks a parameter where the template has no variant of its own (invalid.ts).
 */
export const TEMPLATES: readonly Template[] = [
  ...MESSAGE_TEMPLATES,
  ...MESSAGE_MOVE_TEMPLATES,
  ...FLAG_TEMPLATES,
  ...CHANNEL_TEMPLATES,
  ...PERSONAL_TEMPLATES,
  ...SCHEDULED_TEMPLATES,
].map(withInvalid);

/** The templates whose operation the document has, in one of the tiers asked for. */
export function templatesFor(ops: OperationIndex, tiers: readonly Tier[]): Template[] {
  return TEMPLATES.filter((t) => ops.has(t.operation) && tiers.includes(ops.get(t.operation).tier));
}
