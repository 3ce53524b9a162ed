import type { OperationSpec, ParamSpec } from '../../src/http/openapi.js';

type Schema = Record<string, unknown>;

/** A value that satisfies a JSON schema (the simple subset the document uses). */
export function sampleValue(schema: Schema | undefined): unknown {
  if (!schema) return 'x';
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('default' in schema && schema.default !== null) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  const branches = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (branches?.length) return sampleValue(branches[0]);
  if (Array.isArray(schema.allOf)) return sampleValue(Object.assign({}, ...(schema.allOf as Schema[])));
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : (schema.type as string | undefined);
  switch (type) {
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: Number(schema.minItems ?? 0) }, () => sampleValue(schema.items as Schema));
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      return Object.fromEntries(required.map((name) => [name, sampleValue(properties[name])]));
    }
    default:
      if (schema.format === 'email') return 'sample@example.com';
      return 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
  }
}

/** The text a stock client would send for a parameter's value. */
export function encode(spec: ParamSpec, value: unknown): string {
  return spec.json ? JSON.stringify(value) : String(value);
}

/** Valid values for every required parameter (path parameters as path text). */
export function requiredSample(op: OperationSpec): { path: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  let path = op.path;
  for (const spec of op.params) {
    if (spec.in === 'path') {
      path = path.replace(`{${spec.name}}`, spec.types.includes('integer') ? '1' : 'narrow/is/alerted');
    } else if (spec.required) {
      params[spec.name] = encode(spec, sampleValue(spec.schema as Schema));
    }
  }
  return { path, params };
}
