import type { ErrorObject } from 'ajv';
import type { FeatureName } from '../config/features.js';
import { badRequest, confusingArguments, jsonTooDeep, missingArgument, pathNotFound } from '../domain/errors.js';
import { mayNestDeeperThan, MAX_JSON_DEPTH, nestedDeeperThan } from '../contract/json-depth.js';
import { schemaTypes, type OperationSpec, type ParamSpec } from './openapi.js';

/** Raw text values as they arrived; duplicates already reduced to one value. */
export type RawValues = Record<string, string>;

export interface ParamSources {
  path: RawValues;
  body: RawValues;
  query: RawValues;
}

export interface ReadParams {
  params: Record<string, unknown>;
  /** Keys sent that the operation does not read (spec §1 `ignored_parameters_unsupported`), sorted. */
  ignored: string[];
}

/**
 * Reads an operation's parameters from body, then query string (every method, reference doc "Where
 * parameters come from"), one at a time in `x-parse-order`, so the first missing or malformed one
 * decides the error. Values are text: JSON-typed ones are decoded strictly, raw strings are kept as
 * sent (whitespace stripped where `x-strip` says so).
 */
export function readParams(op: OperationSpec, sources: ParamSources, has: (feature: FeatureName) => boolean = () => true): ReadParams {
  // A plain object: its keys are the document's parameter names, never the request's, and V8 keeps a
  // null-prototype object in dictionary mode, which every handler's reads and copies then pay for.
  const params: Record<string, unknown> = {};
  const unsupported = new Set<string>();
  for (const spec of op.params) {
    // A parameter newer than the realm's feature level, or one dropped at or below it (spec §9), is not
    // one the operation supports.
    if ((spec.feature !== null && !has(spec.feature)) || (spec.removedBy !== null && has(spec.removedBy))) {
      for (const name of [spec.name, ...spec.aliases]) if (name in sources.body || name in sources.query) unsupported.add(name);
      continue;
    }
    const found = find(spec, sources);
    if (found === undefined) {
      if (spec.required) throw missingArgument(spec.name);
      if (spec.hasDefault) params[spec.name] = spec.default;
      continue;
    }
    const value = decode(spec, found);
    if (value === NOT_GIVEN) {
      if (spec.hasDefault) params[spec.name] = spec.default;
      continue;
    }
    if (spec.unionError && !matchesUnion(spec, value, found)) throw firstBranchError(spec);
    if (!spec.validate(value)) throw validationError(spec, spec.validate.errors ?? []);
    // An enum value added at a later level (spec §9) is not yet in the list of possible values.
    const valueFeature = typeof value === 'string' && Object.hasOwn(spec.enumFeatures, value) ? spec.enumFeatures[value] : undefined;
    if (valueFeature !== undefined && !has(valueFeature))
      throw validationError(spec, [{ keyword: 'enum', instancePath: '', params: {} } as ErrorObject]);
    params[spec.name] = value;
  }
  const ignored = unsupported;
  for (const key in sources.body) if (!op.known.has(key)) ignored.add(key);
  for (const key in sources.query) if (!op.known.has(key)) ignored.add(key);
  // A path parameter repeated in body or query (the stock clients do it) is not read from there.
  for (const spec of op.params) if (spec.in === 'path' && (spec.name in sources.body || spec.name in sources.query)) ignored.add(spec.name);
  return { params, ignored: [...ignored].sort() };
}

const NOT_GIVEN = Symbol('not given');

function find(spec: ParamSpec, sources: ParamSources): string | undefined {
  if (spec.in === 'path') return sources.path[spec.name];
  // The name, then its aliases: the first two sent make the error (no list built per parameter).
  let name = sent(spec.name, sources) ? spec.name : undefined;
  for (const alias of spec.aliases) {
    if (!sent(alias, sources)) continue;
    if (name !== undefined) throw confusingArguments(name, alias);
    name = alias;
  }
  if (name === undefined) return undefined;
  return name in sources.body ? sources.body[name] : sources.query[name];
}

const sent = (name: string, sources: ParamSources) => name in sources.body || name in sources.query;

function decode(spec: ParamSpec, text: string): unknown {
  if (spec.in === 'path') return decodePath(spec, text);
  if (!spec.json) return spec.strip ? text.trim() : text;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest(`${spec.name} is not valid JSON`);
  }
  // Before anything recursive walks it (x-strip, the validator, the handler, the answer).
  if (mayNestDeeperThan(text) && nestedDeeperThan(value)) throw jsonTooDeep(spec.name, MAX_JSON_DEPTH);
  // `null` for an optional parameter means "not given", unless null is a meaningful value (folder_id).
  if (value === null && !spec.allowsNull && !spec.required) return NOT_GIVEN;
  value = stripNested(spec.schema, value);
  // JSON.parse reads `5.0` as 5: the reference server refuses it as an integer.
  if (typeof value === 'number' && /[.eE]/.test(text) && spec.types.includes('integer') && !spec.types.includes('number')) {
    throw badRequest(`${spec.name} is not an integer`);
  }
  return value;
}

/**
 * `x-strip` inside a JSON value (list items, object properties): the reference strips channel names in
 * `subscriptions` too. Values of the wrong type are left for the validator to refuse.
 */
function stripNested(schema: ParamSpec['schema'] | undefined, value: unknown): unknown {
  if (!schema) return value;
  if (typeof value === 'string') return schema['x-strip'] === true ? value.trim() : value;
  if (Array.isArray(value)) return schema.items ? value.map((v) => stripNested(schema.items as ParamSpec['schema'], v)) : value;
  if (value !== null && typeof value === 'object' && schema.properties) {
    const props = schema.properties as Record<string, ParamSpec['schema']>;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, Object.hasOwn(props, k) ? stripNested(props[k], v) : v]));
  }
  return value;
}

function decodePath(spec: ParamSpec, text: string): unknown {
  if (spec.types.includes('integer')) return Number(text);
  return spec.strip ? text.trim() : text;
}

/**
 * A path segment that must be an integer but is not: the URL names no resource, so 404 before
 * anything else (the reference server's URL patterns do not match; reference §1).
 */
export function checkPathShape(op: OperationSpec, path: RawValues): void {
  for (const spec of op.params) {
    if (spec.in === 'path' && spec.types.includes('integer') && !/^\d+$/.test(path[spec.name] ?? '')) throw pathNotFound();
  }
}

/**
 * `x-union-error: first-branch`: the reference server validates a union branch by branch and reports the
 * first branch's failure under that branch's type name (`to["int"] is not an integer`). An integer branch
 * refuses `1.0` as a plain integer parameter does.
 */
function matchesUnion(spec: ParamSpec, value: unknown, text: string): boolean {
  const branches = (spec.schema.oneOf ?? spec.schema.anyOf ?? []) as ParamSpec['schema'][];
  const integerOnly = branches.some((b) => schemaTypes(b).includes('integer')) && !branches.some((b) => schemaTypes(b).includes('number'));
  if (typeof value === 'number' && integerOnly && /[.eE]/.test(text)) return false;
  return spec.validate(value);
}

const BRANCH_NAMES: Record<string, string> = {
  integer: 'int',
  number: 'float',
  string: 'str',
  boolean: 'bool',
  array: 'list',
  object: 'dict',
};

function firstBranchError(spec: ParamSpec) {
  const first = ((spec.schema.oneOf ?? spec.schema.anyOf ?? []) as ParamSpec['schema'][])[0];
  const type = schemaTypes(first)[0] ?? 'string';
  return badRequest(`${spec.name}["${BRANCH_NAMES[type] ?? type}"] is not ${TYPE_NAMES[type] ?? `a ${type}`}`);
}

const TYPE_NAMES: Record<string, string> = {
  integer: 'an integer',
  boolean: 'a boolean',
  number: 'a float',
  string: 'a string',
  array: 'a list',
  object: 'a dict',
};

/** ajv's first error → the reference server's text (reference doc, "Parse-time error texts"). */
export function validationError(spec: ParamSpec, errors: ErrorObject[]) {
  const error = pickError(errors);
  if (!error) return badRequest(`Invalid ${spec.name}`);
  const where = location(spec.name, error.instancePath);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type': {
      const wanted =
        String(p.type)
          .split(',')
          .find((t) => t !== 'null') ?? 'string';
      return badRequest(`${where} is not ${TYPE_NAMES[wanted] ?? `a ${wanted}`}`);
    }
    case 'enum':
    case 'const':
      return badRequest(
        spec.enumError === 'value-error' && error.instancePath === ''
          ? `Invalid ${where}: Value error, Not in the list of possible values`
          : `Invalid ${where}`,
      );
    case 'maxLength':
      return badRequest(`${where} is too long (limit: ${String(p.limit)} characters)`);
    case 'minLength':
      return badRequest(p.limit === 1 ? `${where} cannot be blank` : `${where} is too short.`);
    case 'minimum':
    case 'exclusiveMinimum':
    case 'minItems':
      return badRequest(error.keyword === 'minItems' ? `${where} is too short.` : `${where} is too small`);
    case 'maximum':
    case 'exclusiveMaximum':
      return badRequest(`${where} is too large`);
    case 'maxItems':
      return badRequest(`${where} is too long`);
    case 'additionalProperties':
      return badRequest(`Argument "${String(p.additionalProperty)}" at ${where} is unexpected`);
    case 'required':
      // The reference server has no clean answer here (reference §4.6); name the location, never a 500.
      return badRequest(`Missing '${String(p.missingProperty)}' argument at ${where}`);
    default:
      return badRequest(`Invalid ${where}`);
  }
}

/** Unions report one error per branch: the deepest one says most about what is wrong. */
function pickError(errors: ErrorObject[]): ErrorObject | undefined {
  const concrete = errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf' && e.keyword !== 'if');
  const pool = concrete.length > 0 ? concrete : errors;
  return pool.reduce<ErrorObject | undefined>((best, e) => (!best || depth(e) > depth(best) ? e : best), undefined);
}

const depth = (e: ErrorObject) => (e.instancePath === '' ? 0 : e.instancePath.split('/').length);

/** `drafts` + `/0/type` → `drafts[0]["type"]` (the reference server's nested location form). */
export function location(name: string, instancePath: string): string {
  if (!instancePath) return name;
  return (
    name +
    instancePath
      .split('/')
      .slice(1)
      .map((part) => {
        const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
        return /^\d+$/.test(key) ? `[${key}]` : `["${key}"]`;
      })
      .join('')
  );
}
