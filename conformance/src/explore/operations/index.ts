import type { Tier } from '../../model.js';
import type { OperationIndex } from '../document.js';
import { CHANNEL_TEMPLATES } from './channels.js';
import { MESSAGE_TEMPLATES } from './messages.js';
import type { Template } from './template.js';

/** Every kind of step explore knows, each tied to an operation of the document. */
export const TEMPLATES: readonly Template[] = [...MESSAGE_TEMPLATES, ...CHANNEL_TEMPLATES];

/** The templates whose operation the document has, in one of the tiers asked for. */
export function templatesFor(ops: OperationIndex, tiers: readonly Tier[]): Template[] {
  return TEMPLATES.filter((t) => ops.has(t.operation) && tiers.includes(ops.get(t.operation).tier));
}
