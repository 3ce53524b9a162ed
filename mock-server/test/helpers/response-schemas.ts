import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { loadDocument } from '../../src/http/openapi.js';

/** Response schemas of the OpenAPI document, by operationId and status: the document must describe what the server answers. */
export async function loadResponseSchemas(): Promise<(operationId: string, status: number) => ValidateFunction> {
  const api = await loadDocument();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const cache = new Map<string, ValidateFunction>();
  return (operationId, status) => {
    const key = `${operationId} ${status}`;
    const cached = cache.get(key);
    if (cached) return cached;
    for (const item of Object.values(api.paths ?? {})) {
      for (const op of Object.values(item ?? {}) as OpenAPIV3_1.OperationObject[]) {
        if (op?.operationId !== operationId) continue;
        const response = op.responses?.[String(status)] as OpenAPIV3_1.ResponseObject | undefined;
        const schema = response?.content?.['application/json']?.schema;
        if (!schema) throw new Error(`${operationId} documents no JSON response for ${status}`);
        const validate = ajv.compile(schema);
        cache.set(key, validate);
        return validate;
      }
    }
    throw new Error(`no operation ${operationId}`);
  };
}
