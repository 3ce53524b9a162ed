import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { packagePath } from '../../cli/package-root.js';
import levels from '../../openapi/feature-levels.json' with { type: 'json' };
import { explainSchemaErrors, type SchemaProblem } from './schema-errors.js';
import { levelMarks, markHolds, schemaWithout, type MarkKey } from './schema-levels.js';

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

/** Validators kept at once: a few per operation and status (one per set of level marks a level crosses). */
const MAX_VALIDATORS = 2_000;

/** The feature level answers are judged at: a number, or null when the server announced none (any level's answer). */
export type JudgedLevel = number | null;

/**
 * Response schemas by request: finds the operation a method and path belong to (literal segments win
 * over parameters, as routers do) and compiles the schema of the answer's status once per feature level
 * that changes it: a property marked `x-feature-level` above the level (or `x-feature-level-removed` at or
 * below it) is not required there (schema-levels.ts). Without a level, the document's current one.
 */
export class ResponseSchemas {
  #routes: Route[] = [];
  #cache = new Map<string, ValidateFunction>();
  #marks = new Map<string, MarkKey[]>();
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
  forOperation(operationId: string, status: number, level: JudgedLevel = CURRENT_LEVEL): ValidateFunction {
    const route = this.#routes.find((r) => r.operation.operationId === operationId);
    if (!route) throw new Error(`no operation ${operationId}`);
    const found = this.#compiled(route.operation, status, level);
    if (!found) throw new Error(`${operationId} documents no JSON response for ${status}`);
    return found;
  }

  /** The validator for this answer, or null when the document describes no JSON body for the status. */
  validator(
    method: string,
    path: string,
    status: number,
    level: JudgedLevel = CURRENT_LEVEL,
  ): { operationId: string; validate: ValidateFunction | null } | null {
    const operation = this.operationOf(method, path);
    if (!operation?.operationId) return null;
    return { operationId: operation.operationId, validate: this.#compiled(operation, status, level) };
  }

  /**
   * What in this answer differs from the operation's schema at this level, each problem naming its field and
   * the `x-reference-conflict` it falls under (schema-errors.ts); null when no schema applies.
   */
  problems(
    method: string,
    path: string,
    status: number,
    body: unknown,
    level: JudgedLevel,
  ): { operationId: string; problems: SchemaProblem[] } | null {
    const operation = this.operationOf(method, path);
    const validate = operation?.operationId ? this.#compiled(operation, status, level) : null;
    if (!operation?.operationId || !validate || validate(body)) return null;
    const conflict = (operation as Record<string, unknown>)['x-reference-conflict'];
    return { operationId: operation.operationId, problems: explainSchemaErrors(validate.schema, body, validate.errors ?? [], conflict) };
  }

  #compiled(operation: OpenAPIV3_1.OperationObject, status: number, level: JudgedLevel): ValidateFunction | null {
    const base = `${operation.operationId} ${status}`;
    const response = operation.responses?.[String(status)] as OpenAPIV3_1.ResponseObject | undefined;
    const schema = response?.content?.['application/json']?.schema;
    if (!schema) return null;
    if (!this.#marks.has(base)) this.#marks.set(base, levelMarks(schema));
    const off = this.#marks.get(base)!.filter((m) => !markHolds(m, level));
    const key = `${base} ${off.join(',')}`;
    let found = this.#cache.get(key);
    if (found === undefined) {
      found = this.#ajv.compile(schemaWithout(schema, new Set(off)) as object);
      if (this.#cache.size >= MAX_VALIDATORS) {
        // ajv keeps every schema it compiled by identity: the evicted copy goes from there too.
        const [oldest, evicted] = this.#cache.entries().next().value!;
        this.#cache.delete(oldest);
        if (evicted) this.#ajv.removeSchema(evicted.schema as object);
      }
      this.#cache.set(key, found);
    }
    return found;
  }
}
