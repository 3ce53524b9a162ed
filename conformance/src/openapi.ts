import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { packagePath } from '../../cli/package-root.js';
import levels from '../../openapi/feature-levels.json' with { type: 'json' };

/** The contract the suite checks answers against: openapi/ (never the mock server's code). */
export const OPENAPI_PATH = packagePath('openapi/team-chat.openapi.yaml');

export type FeatureName = keyof typeof levels.levels;
export const CURRENT_LEVEL: number = levels.current;

/** Spec §9 levels by name (openapi/feature-levels.json, shared with the mock server). */
export function levelOf(name: FeatureName): number {
  return levels.levels[name].level;
}
export const FEATURE_NAMES = Object.keys(levels.levels) as FeatureName[];

interface Route {
  method: string;
  pattern: RegExp;
  operation: OpenAPIV3_1.OperationObject;
  literalSegments: number;
}

/** openapi/ parsed and dereferenced: what the suite's checks are made from. */
export async function loadContract(path = OPENAPI_PATH): Promise<OpenAPIV3_1.Document> {
  return (await SwaggerParser.dereference(path)) as OpenAPIV3_1.Document;
}

/**
 * Response schemas by request: finds the operation a method and path belong to (literal segments win
 * over parameters, as routers do) and compiles the schema of the answer's status once.
 */
export class ResponseSchemas {
  #routes: Route[] = [];
  #cache = new Map<string, ValidateFunction | null>();
  #ajv = new Ajv2020({ strict: false, allErrors: true });

  static async load(path = OPENAPI_PATH): Promise<ResponseSchemas> {
    return ResponseSchemas.of(await loadContract(path));
  }

  /** From a dereferenced document (the proxy reads one for this and for its ContractFacts). */
  static of(api: OpenAPIV3_1.Document): ResponseSchemas {
    const schemas = new ResponseSchemas();
    addFormats.default(schemas.#ajv);
    for (const [template, item] of Object.entries(api.paths ?? {})) {
      for (const method of ['get', 'post', 'patch', 'delete', 'put'] as const) {
        const operation = item?.[method];
        if (!operation) continue;
        const slashes = (operation as Record<string, unknown>)['x-allow-slashes'] === true || template.endsWith('{fragment}');
        const source = template.replace(/\{[^}]+\}/g, slashes ? '(.+)' : '([^/]+)');
        schemas.#routes.push({
          method: method.toUpperCase(),
          pattern: new RegExp(`^${source}$`),
          operation,
          literalSegments: template.split('/').filter((s) => s && !s.startsWith('{')).length,
        });
      }
    }
    schemas.#routes.sort((a, b) => b.literalSegments - a.literalSegments);
    return schemas;
  }

  /** The operationId serving this request, if the document has one. */
  operationOf(method: string, path: string): OpenAPIV3_1.OperationObject | undefined {
    const bare = path.split('?')[0]!;
    return this.#routes.find((r) => r.method === method && r.pattern.test(bare))?.operation;
  }

  /** The validator of an operation's answer with this status (throws when the document describes none). */
  forOperation(operationId: string, status: number): ValidateFunction {
    const route = this.#routes.find((r) => r.operation.operationId === operationId);
    if (!route) throw new Error(`no operation ${operationId}`);
    const found = this.#compiled(route.operation, status);
    if (!found) throw new Error(`${operationId} documents no JSON response for ${status}`);
    return found;
  }

  /** The validator for this answer, or null when the document describes no JSON body for the status. */
  validator(method: string, path: string, status: number): { operationId: string; validate: ValidateFunction | null } | null {
    const operation = this.operationOf(method, path);
    if (!operation?.operationId) return null;
    return { operationId: operation.operationId, validate: this.#compiled(operation, status) };
  }

  #compiled(operation: OpenAPIV3_1.OperationObject, status: number): ValidateFunction | null {
    const key = `${operation.operationId} ${status}`;
    if (!this.#cache.has(key)) {
      const response = operation.responses?.[String(status)] as OpenAPIV3_1.ResponseObject | undefined;
      const schema = response?.content?.['application/json']?.schema;
      this.#cache.set(key, schema ? this.#ajv.compile(schema) : null);
    }
    return this.#cache.get(key)!;
  }
}
