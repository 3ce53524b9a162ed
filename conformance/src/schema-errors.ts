import type { ErrorObject } from 'ajv';

/**
 * ajv's errors for one answer, turned into statements a server implementer can act on:
 * - under a `oneOf`/`anyOf`, only the branch the answer meant counts: the error variant whose `code` const is
 *   the answer's code (`REQUEST_VARIABLE_MISSING variant: /var_name is missing`), else the one whose `type`
 *   const is the answer's type (events), else the branch with the fewest errors; the other branches' errors
 *   are noise about shapes the answer never claimed;
 * - each names the field that differs (`/streams/0/stream_id is missing`);
 * - an error whose schema path crosses an element marked `x-reference-conflict` is the spec's deliberate
 *   difference from the reference server, carried with the mark so that reports label it as such.
 */

type Schema = Record<string, unknown>;

/** ajv errors looked at per answer. */
const MAX_ERRORS = 1_000;

/** `x-reference-conflict`: where the spec deliberately differs from the reference server. */
export interface ReferenceConflict {
  spec: string;
  reference: string;
}

export interface SchemaProblem {
  text: string;
  conflict?: ReferenceConflict;
}

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON pointer (ajv's schemaPath `#/a/b` or instancePath `/a/b`) → segments. */
export function segments(pointer: string): string[] {
  const bare = pointer.replace(/^#/, '');
  if (bare === '') return [];
  return bare
    .slice(1)
    .split('/')
    .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function at(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const s of path) {
    if (Array.isArray(node)) node = node[Number(s)];
    else if (isSchema(node)) node = node[s];
    else return undefined;
  }
  return node;
}

/** The consts of a property a branch fixes (`code`, `type`), through its own allOf/oneOf/anyOf members. */
function constsOf(schema: unknown, property: string): unknown[] {
  if (!isSchema(schema)) return [];
  const p = isSchema(schema.properties) ? schema.properties[property] : undefined;
  const own = isSchema(p) ? ('const' in p ? [p.const] : Array.isArray(p.enum) ? p.enum : []) : [];
  const parts = ['allOf', 'oneOf', 'anyOf'].flatMap((k) => (Array.isArray(schema[k]) ? (schema[k] as unknown[]) : []));
  return [...own, ...parts.flatMap((s) => constsOf(s, property))];
}

function conflictOf(node: unknown): ReferenceConflict | undefined {
  const mark = isSchema(node) ? node['x-reference-conflict'] : undefined;
  if (!isSchema(mark)) return undefined;
  return { spec: String(mark.spec ?? ''), reference: String(mark.reference ?? '') };
}

/** The first `x-reference-conflict` on the way from the root to where the error was found. */
function crossedConflict(root: unknown, e: ErrorObject): ReferenceConflict | undefined {
  const path = segments(e.schemaPath);
  const nodes: unknown[] = [root];
  for (let i = 0; i < path.length; i++) nodes.push(at(nodes[i], [path[i]!]));
  for (const n of nodes) {
    const found = conflictOf(n);
    if (found) return found;
  }
  // A missing property: its own schema may carry the mark, declared beside the required list or in a
  // composition the list sits in (those apply to the same instance; a property or an item starts another).
  const name = (e.params as { missingProperty?: string }).missingProperty;
  if (e.keyword !== 'required' || !name) return undefined;
  let r = path.length - 1;
  while (r >= 0) {
    const n = nodes[r];
    for (const s of isSchema(n) ? [n, ...(Array.isArray(n.allOf) ? n.allOf : [])] : []) {
      const found = isSchema(s) && isSchema(s.properties) ? conflictOf(s.properties[name]) : undefined;
      if (found) return found;
    }
    if (!(r >= 2 && /^\d+$/.test(path[r - 1]!) && ['allOf', 'oneOf', 'anyOf'].includes(path[r - 2]!))) break;
    r -= 2;
  }
  return undefined;
}

/**
 * Keeps, under each failed oneOf/anyOf, only the errors of the branch the answer meant, each with the label
 * its message starts with (`=` + text: the whole message, for a code no variant has).
 */
export function chooseBranches(root: unknown, data: unknown, errors: readonly ErrorObject[]): Map<ErrorObject, string> {
  // ajv with allErrors lists every failing item of a big answer; the first ones are enough to name the causes.
  const kept = new Map<ErrorObject, string>(errors.slice(0, MAX_ERRORS).map((e) => [e, '']));
  const branching = errors
    .filter((e) => (e.keyword === 'oneOf' || e.keyword === 'anyOf') && !(e.params as { passingSchemas?: unknown }).passingSchemas)
    .sort((a, b) => a.schemaPath.length - b.schemaPath.length);
  for (const b of branching) {
    if (!kept.has(b)) continue;
    const branches = at(root, segments(b.schemaPath));
    if (!Array.isArray(branches)) continue;
    // The branches' errors about this value: items of one array share the schema path, not the instance path.
    const inside = [...kept.keys()].filter(
      (e) =>
        e.schemaPath.startsWith(`${b.schemaPath}/`) &&
        (e.instancePath === b.instancePath || e.instancePath.startsWith(`${b.instancePath}/`)),
    );
    const under = (i: number) => inside.filter((e) => kept.has(e) && e.schemaPath.startsWith(`${b.schemaPath}/${i}/`));
    const value = at(data, segments(b.instancePath));
    // Narrowed by the consts the answer carries (an error's code; an event's type, then its op).
    let candidates = branches.map((_s, i) => i);
    let label = '';
    for (const property of ['code', 'type', 'op']) {
      const want = isSchema(value) ? value[property] : undefined;
      if (typeof want !== 'string') continue;
      const matching = candidates.filter((i) => constsOf(branches[i], property).includes(want));
      if (matching.length === 0) continue;
      candidates = matching;
      if (property === 'code') label = `${want} variant: `;
    }
    const code = isSchema(value) ? value.code : undefined;
    const codes = branches.flatMap((branch) => constsOf(branch, 'code'));
    if (!label && typeof code === 'string' && codes.length > 0) {
      // An error code no variant describes: that is the one cause, not each variant's other differences.
      branches.forEach((_s, i) => under(i).forEach((e) => kept.delete(e)));
      kept.set(b, `=${b.instancePath}/code ${code} is none of the documented variants (${[...new Set(codes)].join(', ')})`);
      continue;
    }
    const chosen = candidates.reduce((best, i) => (under(i).length < under(best).length ? i : best), candidates[0]!);
    branches.forEach((_s, i) => i !== chosen && under(i).forEach((e) => kept.delete(e)));
    kept.delete(b);
    for (const e of under(chosen)) kept.set(e, kept.get(e) || label);
  }
  return kept;
}

/** One error as a sentence about the field. */
function describe(e: ErrorObject): string {
  const where = e.instancePath || '/';
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${e.instancePath}/${String(params.missingProperty)} is missing`;
    case 'additionalProperties':
      return `${e.instancePath}/${String(params.additionalProperty)} is not a documented field`;
    case 'const':
      return `${where} must be ${JSON.stringify(params.allowedValue)}`;
    case 'enum':
      return `${where} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'type':
      return `${where} must be of type ${String(params.type)}`;
    default:
      return `${where} ${e.message ?? e.keyword}`;
  }
}

/**
 * The problems ajv found in `data` against `root` (the schema it was compiled from), each naming its field,
 * with the reference conflict it crosses; `operationConflict` (the operation's own mark) covers them all.
 */
export function explainSchemaErrors(
  root: unknown,
  data: unknown,
  errors: readonly ErrorObject[],
  operationConflict?: unknown,
): SchemaProblem[] {
  const whole = conflictOf(operationConflict === undefined ? undefined : { 'x-reference-conflict': operationConflict });
  const out: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const [e, label] of chooseBranches(root, data, errors)) {
    const text = label.startsWith('=') ? label.slice(1) : label + describe(e);
    if (seen.has(text)) continue;
    seen.add(text);
    const conflict = whole ?? crossedConflict(root, e);
    out.push(conflict ? { text, conflict } : { text });
  }
  return out;
}
