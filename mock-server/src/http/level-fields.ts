import type { OpenAPIV3_1 } from 'openapi-types';
import { isFeatureName, newestOf, type FeatureName, type Features } from '../config/features.js';

/**
 * Fields that exist only from a feature level: the document marks a response property with
 * `x-feature-level: {name, level}` (spec §9 names, and the reference server's "New in … (feature level N)" notes
 * where the spec is silent), and a realm emulating an older level answers without them, in answers, events and
 * register snapshots alike (all three leave through the pipeline's envelope). Presenters build the current shape
 * once; this strips what an older server never had, driven by the document, so a new mark needs no code.
 *
 * A realm at or above the newest mark of an operation pays one `has()`; below it, only the marked paths are
 * walked, and objects are copied only where something is removed (presented objects may be shared).
 */
export interface LevelFields {
  /** The newest feature of every mark the answer may carry: a realm that has it keeps every field. */
  newest: FeatureName;
  shape: Shape;
}

/** Where marked fields can be, for one schema. */
export interface Shape {
  fields: Map<string, Field> | null;
  /** Array elements. */
  items: Shape | null;
  /** Values of a map (`additionalProperties` with a schema). */
  values: Shape | null;
  /** Union variants told apart by their `type` (and `op`) constants, as events are: `message`, `stream/create`. */
  kinds: Map<string, Shape | null> | null;
  /** Union variants without such constants: their marks apply to any value. */
  other: Shape | null;
}

interface Field {
  /** The field exists from this feature on; null: it always exists, only its value has marks inside. */
  feature: FeatureName | null;
  inner: Shape | null;
}

type Schema = OpenAPIV3_1.SchemaObject & Record<string, unknown>;

/** Shapes by schema object: the dereferenced document shares schemas between operations, so each is read once. */
export type ShapeMemo = Map<object, Shape | null>;

/** The level-dependent fields of an operation's success answer, or null when it has none. */
export function levelFieldsOf(response: Schema | undefined, memo: ShapeMemo): LevelFields | null {
  const shape = shapeOf(response, memo);
  const newest = shape && newestIn(shape, new Set());
  return shape && newest ? { newest, shape } : null;
}

/** The answer as a realm with these features shows it (the same object when nothing is removed). */
export function pruneForLevel<T>(body: T, fields: LevelFields | null, features: Features): T {
  if (!fields || features.has(fields.newest)) return body;
  return prune(body, fields.shape, features) as T;
}

function prune(value: unknown, shape: Shape, features: Features): unknown {
  if (Array.isArray(value)) {
    if (!shape.items) return value;
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const next = prune(value[i], shape.items, features);
      if (next !== value[i]) (out ??= value.slice())[i] = next;
    }
    return out ?? value;
  }
  if (typeof value !== 'object' || value === null) return value;
  let obj = value as Record<string, unknown>;
  let copied = false;
  const set = (key: string, next: unknown, remove: boolean) => {
    if (!copied) {
      obj = { ...obj };
      copied = true;
    }
    if (remove) delete obj[key];
    else obj[key] = next;
  };
  if (shape.fields) {
    for (const [name, field] of shape.fields) {
      if (!Object.hasOwn(obj, name)) continue;
      if (field.feature && !features.has(field.feature)) set(name, undefined, true);
      else if (field.inner) {
        const next = prune(obj[name], field.inner, features);
        if (next !== obj[name]) set(name, next, false);
      }
    }
  }
  if (shape.values) {
    for (const key of Object.keys(obj)) {
      const next = prune(obj[key], shape.values, features);
      if (next !== obj[key]) set(key, next, false);
    }
  }
  const variant = shape.kinds ? kindOf(obj, shape.kinds) : undefined;
  const rest = variant === undefined ? shape.other : variant;
  return rest ? prune(obj, rest, features) : obj;
}

/** The variant of a discriminated value: a Shape, null (a known kind without marks) or undefined (unknown kind). */
function kindOf(obj: Record<string, unknown>, kinds: Map<string, Shape | null>): Shape | null | undefined {
  const type = obj.type;
  if (typeof type !== 'string') return undefined;
  return typeof obj.op === 'string' && kinds.has(`${type}/${obj.op}`) ? kinds.get(`${type}/${obj.op}`) : kinds.get(type);
}

function shapeOf(schema: Schema | undefined, memo: ShapeMemo): Shape | null {
  if (typeof schema !== 'object' || schema === null) return null;
  // A schema being built is recursive (a structure inside itself): its marks are found on the outer visit.
  if (memo.has(schema)) return memo.get(schema)!;
  memo.set(schema, null);
  let shape = emptyShape();
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    const feature = markOf(name, property);
    const inner = shapeOf(property, memo);
    if (feature || inner) (shape.fields ??= new Map()).set(name, { feature, inner });
  }
  shape.items = shapeOf(schema.items as Schema | undefined, memo);
  if (typeof schema.additionalProperties === 'object') shape.values = shapeOf(schema.additionalProperties as Schema, memo);
  for (const part of (schema.allOf ?? []) as Schema[]) shape = merge(shape, shapeOf(part, memo));
  const variants = [...((schema.anyOf ?? []) as Schema[]), ...((schema.oneOf ?? []) as Schema[])];
  for (const variant of variants) {
    const inner = shapeOf(variant, memo);
    const kind = discriminator(variant);
    if (kind === null) shape.other = mergeOrNull(shape.other, inner);
    else (shape.kinds ??= new Map()).set(kind, mergeOrNull(shape.kinds.get(kind) ?? null, inner));
  }
  const result = simplify(shape);
  memo.set(schema, result);
  return result;
}

function markOf(name: string, property: Schema): FeatureName | null {
  const mark = property['x-feature-level'] as { name?: string } | undefined;
  if (mark?.name === undefined) return null;
  if (!isFeatureName(mark.name))
    throw new Error(`response field ${name}: unknown feature name ${mark.name} (not in openapi/feature-levels.json)`);
  return mark.name;
}

/** `type` and `op` constants of a variant (in its own properties or its allOf parts): `stream/create`. */
function discriminator(variant: Schema): string | null {
  const constant = (key: string): string | null => {
    const parts = [variant, ...((variant.allOf ?? []) as Schema[])];
    for (const part of parts) {
      const property = (part.properties as Record<string, Schema> | undefined)?.[key];
      if (typeof property?.const === 'string') return property.const;
      if (Array.isArray(property?.enum) && property.enum.length === 1 && typeof property.enum[0] === 'string') return property.enum[0];
    }
    return null;
  };
  const type = constant('type');
  if (type === null) return null;
  const op = constant('op');
  return op === null ? type : `${type}/${op}`;
}

function emptyShape(): Shape {
  return { fields: null, items: null, values: null, kinds: null, other: null };
}

/** Both shapes' marks (allOf parts, or the variants of one kind). A field marked in either is marked. */
function merge(a: Shape | null, b: Shape | null): Shape {
  if (!a) return b ? { ...b } : emptyShape();
  if (!b) return a;
  const fields = a.fields || b.fields ? new Map(a.fields ?? []) : null;
  for (const [name, field] of b.fields ?? []) {
    const mine = fields!.get(name);
    fields!.set(
      name,
      mine
        ? {
            feature: mine.feature && field.feature ? newestOf(mine.feature, field.feature) : (mine.feature ?? field.feature),
            inner: mergeOrNull(mine.inner, field.inner),
          }
        : field,
    );
  }
  let kinds = a.kinds ? new Map(a.kinds) : null;
  for (const [kind, inner] of b.kinds ?? []) (kinds ??= new Map()).set(kind, mergeOrNull(kinds.get(kind) ?? null, inner));
  return {
    fields,
    items: mergeOrNull(a.items, b.items),
    values: mergeOrNull(a.values, b.values),
    kinds,
    other: mergeOrNull(a.other, b.other),
  };
}

function mergeOrNull(a: Shape | null, b: Shape | null): Shape | null {
  return a || b ? simplify(merge(a, b)) : null;
}

/** Null when the shape holds no mark at all (so the walk never enters it). */
function simplify(shape: Shape): Shape | null {
  const kinds = shape.kinds && [...shape.kinds.values()].some(Boolean) ? shape.kinds : null;
  const empty = !shape.fields?.size && !shape.items && !shape.values && !kinds && !shape.other;
  return empty ? null : { ...shape, kinds };
}

/** The newest feature among a shape's marks. */
function newestIn(shape: Shape, seen: Set<Shape>): FeatureName | null {
  if (seen.has(shape)) return null;
  seen.add(shape);
  let newest: FeatureName | null = null;
  const take = (name: FeatureName | null) => {
    if (name) newest = newest ? newestOf(newest, name) : name;
  };
  for (const field of shape.fields?.values() ?? []) {
    take(field.feature);
    if (field.inner) take(newestIn(field.inner, seen));
  }
  for (const inner of [shape.items, shape.values, shape.other, ...(shape.kinds?.values() ?? [])]) if (inner) take(newestIn(inner, seen));
  return newest;
}
