import { badRequest, tooManyNarrowTerms } from '../errors.js';
import { searchTokens } from './narrow-search.js';

/**
 * The narrow filter of GET /messages and POST /messages/flags/narrow (reference "Search operators",
 * https://zulip.com/api/construct-narrow), step one: the shape of the parameter.
 *
 * A narrow is a JSON list of terms, each either an object `{operator, operand, negated?}` or the legacy
 * pair `[operator, operand]` (two strings, never negated). This module only checks shapes and types,
 * with the reference server's texts; naming what the terms mean (channels, users, the `with` message)
 * is narrow-compile.ts, and applying them to messages is message-walk.ts.
 */

/** A user-ID list operand (`dm`); the legacy comma-separated email string stays a string. */
export type NarrowOperand = string | number | number[];

export interface NarrowTerm {
  operator: string;
  operand: NarrowOperand;
  negated: boolean;
}

/** More terms than any client builds (the web app's narrows have a handful). */
export const MAX_NARROW_TERMS = 100;

/** Operators whose operand may be a string or an ID (the reference's operators_supporting_id). */
const ID_OPERATORS = new Set(['channel', 'stream', 'id', 'sender', 'group-pm-with', 'dm-including', 'with']);
/** Operators whose operand may be a string or a list of user IDs. */
const ID_LIST_OPERATORS = new Set(['dm', 'pm-with']);

/**
 * Reads the decoded `narrow` parameter. Errors, in the reference server's words: a term that is neither
 * an object nor a list, a pair that is not two strings, a missing operator or operand (`Invalid
 * narrow[0]: Value error, …`, pydantic's form), then the operand's type for its operator (`operand is
 * not a string`, the plain validator form the reference raises from inside its model). An empty list
 * is no narrow at all.
 */
export function parseNarrow(value: unknown, name = 'narrow'): NarrowTerm[] {
  if (!Array.isArray(value)) throw badRequest(`${name} is not a list`);
  // Every term is a check on every candidate message: their number bounds the work of one request.
  if (value.length > MAX_NARROW_TERMS) throw tooManyNarrowTerms(MAX_NARROW_TERMS);
  const terms = value.map((element, i) => parseTerm(element, `${name}[${i}]`));
  // The search terms are joined into one search (narrow-compile.ts): their words are counted together.
  const searches = terms.filter((t) => t.operator === 'search').map((t) => t.operand as string);
  if (searches.length > 0) searchTokens(searches.join(' '));
  return terms;
}

function parseTerm(element: unknown, where: string): NarrowTerm {
  const valueError = (text: string) => badRequest(`Invalid ${where}: Value error, ${text}`);
  if (Array.isArray(element)) {
    if (element.length !== 2 || element.some((x) => typeof x !== 'string')) throw valueError('element is not a string pair');
    return { operator: element[0] as string, operand: element[1] as string, negated: false };
  }
  if (element === null || typeof element !== 'object') throw valueError('dict or list required');
  const term = element as Record<string, unknown>;
  if (term.operand === undefined || term.operand === null) throw valueError('operand is missing');
  if (term.operator === undefined || term.operator === null) throw valueError('operator is missing');
  if (typeof term.operator !== 'string') throw badRequest(`${where}["operator"] is not a string`);
  // `negated` may be absent or null (false); keys beyond the three are ignored, as the reference's model does.
  const negated = term.negated ?? false;
  if (typeof negated !== 'boolean') throw badRequest(`${where}["negated"] is not a boolean`);
  return { operator: term.operator, operand: checkOperand(term.operator, term.operand), negated };
}

function checkOperand(operator: string, operand: unknown): NarrowOperand {
  if (ID_OPERATORS.has(operator)) {
    if (typeof operand === 'string' || Number.isInteger(operand)) return operand as string | number;
    throw badRequest('operand is not a string or integer');
  }
  if (ID_LIST_OPERATORS.has(operator)) {
    if (typeof operand === 'string') return operand;
    if (!Array.isArray(operand)) throw badRequest('operand is not a string or an integer list');
    operand.forEach((id, i) => {
      if (!Number.isInteger(id)) throw badRequest(`operand[${i}] is not an integer`);
    });
    return operand as number[];
  }
  if (typeof operand !== 'string') throw badRequest('operand is not a string');
  if (operator === 'search' && operand.trim() === '') throw badRequest('operand cannot be blank.');
  return operand;
}

/** Python's str() of an operand, as the reference's error texts show it (`[10, 11]` for a list). */
export function operandText(operand: NarrowOperand): string {
  return Array.isArray(operand) ? `[${operand.join(', ')}]` : String(operand);
}
