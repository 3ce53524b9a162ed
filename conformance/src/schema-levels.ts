/**
 * Response schemas as they stand at one feature level. A property marked `x-feature-level: {name, level}`
 * exists from that level and one marked `x-feature-level-removed` only below it; a server announcing a level
 * outside that range (or none) is not required to send it. Its presence where it does not belong is a
 * separate, level-rule finding (proxy/contract.ts `fieldsAboveLevel`), never a schema error.
 */

type Schema = Record<string, unknown>;
interface Mark {
  name: string;
  level: number;
}

/** A level mark on a property, as a key: `name+level` (exists from) or `name-level` (exists below). */
export type MarkKey = string;

const COMPOSITIONS = ['allOf', 'oneOf', 'anyOf'] as const;
const CHILD_LISTS = ['prefixItems', ...COMPOSITIONS] as const;
const CHILDREN = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains'] as const;

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function marksOf(property: Schema): MarkKey[] {
  const out: MarkKey[] = [];
  const from = property['x-feature-level'] as Mark | undefined;
  const below = property['x-feature-level-removed'] as Mark | undefined;
  if (isSchema(from) && typeof from.level === 'number') out.push(`${String(from.name)}+${from.level}`);
  if (isSchema(below) && typeof below.level === 'number') out.push(`${String(below.name)}-${below.level}`);
  return out;
}

/**
 * Whether a marked property exists at `level`; `null` (unknown level) counts as "not at every level", so
 * such properties are optional then.
 */
export function markHolds(mark: MarkKey, level: number | null): boolean {
  if (level === null) return false;
  const m = /^(.*)([+-])(\d+)$/.exec(mark);
  if (!m) return true;
  return m[2] === '+' ? level >= Number(m[3]) : level < Number(m[3]);
}

/** Every level mark on a property schema anywhere in this schema (the keys a level can switch off). */
export function levelMarks(root: unknown): MarkKey[] {
  const found = new Set<MarkKey>();
  const seen = new Set<unknown>();
  const visit = (node: unknown): void => {
    if (!isSchema(node) || seen.has(node)) return;
    seen.add(node);
    if (isSchema(node.properties))
      for (const p of Object.values(node.properties)) {
        if (isSchema(p)) for (const k of marksOf(p)) found.add(k);
        visit(p);
      }
    for (const key of CHILDREN) visit(node[key]);
    for (const key of CHILD_LISTS) if (Array.isArray(node[key])) (node[key] as unknown[]).forEach(visit);
  };
  visit(root);
  return [...found].sort();
}

/**
 * A copy of `root` whose `required` lists leave out every property carrying one of the `off` marks. Nodes
 * nothing changes under are shared with the original, so the document stays untouched. A property's schema
 * is looked up where ajv would apply it: the node's own `properties`, its `allOf` members', and those of the
 * compositions it sits in (an `allOf` member may require what a sibling declares).
 */
export function schemaWithout(root: unknown, off: ReadonlySet<MarkKey>): unknown {
  if (off.size === 0) return root;
  const stack = new Set<unknown>();
  const propertyOf = (name: string, sources: readonly Schema[]): Schema[] =>
    sources.flatMap((s) => (isSchema(s.properties) && isSchema(s.properties[name]) ? [s.properties[name]] : []));
  const walk = (node: unknown, context: readonly Schema[]): unknown => {
    if (!isSchema(node) || stack.has(node)) return node;
    stack.add(node);
    const copy: Schema = { ...node };
    let changed = false;
    const set = (key: string, value: unknown) => {
      if (value !== node[key]) [copy[key], changed] = [value, true];
    };
    const own = [node, ...((Array.isArray(node.allOf) ? node.allOf : []) as unknown[]).filter(isSchema)];
    if (Array.isArray(node.required)) {
      const sources = [...own, ...context];
      const kept = (node.required as string[]).filter((name) => !propertyOf(name, sources).some((p) => marksOf(p).some((k) => off.has(k))));
      if (kept.length !== node.required.length) set('required', kept);
    }
    if (isSchema(node.properties)) {
      const props = node.properties;
      const next = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, walk(v, [])]));
      if (Object.keys(props).some((k) => next[k] !== props[k])) set('properties', next);
    }
    for (const key of CHILDREN) if (node[key] !== undefined) set(key, walk(node[key], []));
    const inner = [...own, ...context];
    for (const key of CHILD_LISTS) {
      const list = node[key];
      if (!Array.isArray(list)) continue;
      const next = list.map((m) => walk(m, key === 'prefixItems' ? [] : inner));
      if (next.some((m, i) => m !== list[i])) set(key, next);
    }
    stack.delete(node);
    return changed ? copy : node;
  };
  return walk(root, []);
}

/**
 * A copy of `root` keeping `x-feature-level` only on property schemas. A mark elsewhere dates a variant (an
 * error code, an event type) and says which answers the level documents, not which fields it has; ajv
 * evaluates every branch of a oneOf, so a keyword there would also fire for answers of other variants.
 */
export function propertyMarksOnly(root: unknown): unknown {
  const memo = { property: new Map<unknown, unknown>(), other: new Map<unknown, unknown>() };
  const walk = (node: unknown, isProperty: boolean): unknown => {
    const done = isProperty ? memo.property : memo.other;
    if (!isSchema(node)) return node;
    if (done.has(node)) return done.get(node);
    done.set(node, node); // a cycle keeps the original
    const copy: Schema = { ...node };
    let changed = false;
    const set = (key: string, value: unknown) => {
      if (value !== node[key]) [copy[key], changed] = [value, true];
    };
    if (!isProperty && 'x-feature-level' in node) {
      delete copy['x-feature-level'];
      changed = true;
    }
    if (isSchema(node.properties)) {
      const props = node.properties;
      const next = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, walk(v, true)]));
      if (Object.keys(props).some((k) => next[k] !== props[k])) set('properties', next);
    }
    for (const key of CHILDREN) if (node[key] !== undefined) set(key, walk(node[key], false));
    for (const key of CHILD_LISTS) {
      const list = node[key];
      if (!Array.isArray(list)) continue;
      const next = list.map((m) => walk(m, false));
      if (next.some((m, i) => m !== list[i])) set(key, next);
    }
    const result = changed ? copy : node;
    done.set(node, result);
    return result;
  };
  return walk(root, false);
}
