/**
 * Reading the fields a scenario's steps need from an answer, checked: a server that answers `{}` or leaves a
 * field out makes the step say what it answered ("GET /api/v1/users answered 200 without `members`"), never a
 * JavaScript error about reading a property of undefined. `ScenarioContext.need` throws the result as a
 * SetupError; the kinds are what the steps go on to read (an array of objects, to read fields of its items).
 */
export interface FieldKinds {
  object: Record<string, unknown>;
  array: unknown[];
  /** An array whose every item is an object (a listing whose items the step reads fields of). */
  objects: Record<string, unknown>[];
  string: string;
  integer: number;
  number: number;
  boolean: boolean;
}
export type FieldKind = keyof FieldKinds;

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const IS: { [K in FieldKind]: (v: unknown) => boolean } = {
  object: isObject,
  array: Array.isArray,
  objects: (v) => Array.isArray(v) && v.every(isObject),
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
};

const NAMES: Record<FieldKind, string> = {
  object: 'an object',
  array: 'an array',
  objects: 'an array of objects',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
};

export const isKind = <K extends FieldKind>(value: unknown, kind: K): value is FieldKinds[K] => IS[kind](value);

/** "without `members`", "with `members` null, not an array of objects": what was wrong with the field. */
export function fieldProblem(value: unknown, key: string, kind: FieldKind): string {
  if (value === undefined) return `without \`${key}\``;
  const shown = JSON.stringify(value) ?? String(value);
  return `with \`${key}\` ${shown.length > 80 ? `${shown.slice(0, 77)}...` : shown}, not ${NAMES[kind]}`;
}
