import type { OpenAPIV3_1 } from 'openapi-types';
import type { Tier } from '../model.js';

/** What explore reads of one operation in openapi/: where it lives, its tier, its parameters, its answers. */
export interface OperationFacts {
  operationId: string;
  method: string;
  /** The path template (`/api/v1/messages/{message_id}`). */
  path: string;
  /** `companion` where the document marks the operation `x-spec-section: companion`, else `spec`. */
  tier: Tier;
  params: { name: string; in: 'path' | 'query' | 'body'; required: boolean; type: string | undefined }[];
  /** HTTP statuses the document describes an answer for. */
  statuses: Set<number>;
}

/**
 * The operations of the document by ID: explore's steps take their method, path, tier and parameters from
 * here, so a step the document does not describe cannot be generated.
 */
export class OperationIndex {
  readonly #byId = new Map<string, OperationFacts>();

  constructor(api: OpenAPIV3_1.Document) {
    for (const [path, item] of Object.entries(api.paths ?? {})) {
      for (const method of ['get', 'post', 'patch', 'delete', 'put'] as const) {
        const op = item?.[method];
        if (!op?.operationId) continue;
        const params: OperationFacts['params'] = [];
        for (const p of (op.parameters ?? []) as OpenAPIV3_1.ParameterObject[])
          params.push({ name: p.name, in: p.in === 'path' ? 'path' : 'query', required: p.required === true, type: typeOf(p.schema) });
        const body = (op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content;
        const form = (body?.['application/x-www-form-urlencoded'] ?? body?.['multipart/form-data'])?.schema as
          OpenAPIV3_1.SchemaObject | undefined;
        for (const [name, schema] of Object.entries(form?.properties ?? {}))
          params.push({ name, in: 'body', required: (form?.required ?? []).includes(name), type: typeOf(schema) });
        const section = (op as Record<string, unknown>)['x-spec-section'];
        this.#byId.set(op.operationId, {
          operationId: op.operationId,
          method: method.toUpperCase(),
          path,
          tier: section === 'companion' ? 'companion' : 'spec',
          params,
          statuses: new Set(Object.keys(op.responses ?? {}).map(Number)),
        });
      }
    }
  }

  get(operationId: string): OperationFacts {
    const found = this.#byId.get(operationId);
    if (!found) throw new Error(`explore: the document has no operation ${operationId}`);
    return found;
  }

  has(operationId: string): boolean {
    return this.#byId.has(operationId);
  }
}

function typeOf(schema: unknown): string | undefined {
  const s = schema as OpenAPIV3_1.SchemaObject | undefined;
  if (!s) return undefined;
  if (typeof s.type === 'string') return s.type;
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  const content = (s as Record<string, unknown>).contentMediaType;
  return content === 'application/json' ? 'json' : undefined;
}
