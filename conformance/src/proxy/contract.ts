import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { loadContract, OPENAPI_PATH } from '../openapi.js';

/**
 * What the proxy needs to know about each operation of openapi/ beyond its response schemas (those come from
 * ResponseSchemas, as for `conform`): the parameter names it reads, the error codes and messages it
 * documents per status, and the response fields that exist only from a feature level (`x-feature-level`).
 */
export interface OperationFacts {
  operationId: string;
  /** `x-spec-section`: `4.12`, `6`, or `companion`. */
  section: string;
  area: string;
  summary: string;
  /** Every parameter name the operation reads (path, query, form fields and their aliases). */
  params: Set<string>;
  /** Documented error codes by HTTP status (schema `code` consts and the named examples). */
  codes: Map<number, Set<string>>;
}

/** A response field the answer carried that its feature level says the announced level lacks. */
export interface LevelField {
  name: string;
  level: number;
  /** JSON pointer of the field in the answer. */
  path: string;
}

interface LevelContext {
  level: number;
  found: LevelField[];
}

type Schema = Record<string, unknown>;
const METHODS = ['get', 'post', 'patch', 'delete', 'put'] as const;

export class ContractFacts {
  readonly #ops = new Map<string, OperationFacts>();
  readonly #responses = new Map<string, Schema | null>();
  /** Every documented `msg` by error code, over the whole document. */
  readonly messages = new Map<string, Set<string>>();
  readonly #levelValidators = new Map<string, ValidateFunction | null>();
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true, passContext: true });

  /** `x-wire-errors` of the document: answers to an unreadable request, accepted on every operation. */
  readonly #wireErrors: { status: number; code: string; msg: RegExp }[] = [];

  static async load(path = OPENAPI_PATH): Promise<ContractFacts> {
    return ContractFacts.of(await loadContract(path));
  }

  /** From a dereferenced document (the one ResponseSchemas is made from). */
  static of(api: OpenAPIV3_1.Document): ContractFacts {
    const facts = new ContractFacts();
    for (const e of ((api as Record<string, unknown>)['x-wire-errors'] ?? []) as { status: number; code: string; msg: string }[]) {
      const source = e.msg.split('{}').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      facts.#wireErrors.push({ status: e.status, code: e.code, msg: new RegExp(`^${source.join('.+')}$`) });
    }
    addFormats.default(facts.#ajv);
    // Collects instead of failing: a field too new for the level is its own finding (rule of §9), not a
    // schema mismatch, and failing here would change which oneOf branch matches.
    facts.#ajv.addKeyword({
      keyword: 'x-feature-level',
      schemaType: 'object',
      errors: false,
      validate: function (
        this: LevelContext,
        kw: { name: string; level: number },
        _data: unknown,
        _parent: unknown,
        cxt?: { instancePath: string },
      ) {
        if (this && typeof this.level === 'number' && kw.level > this.level)
          this.found.push({ name: kw.name, level: kw.level, path: cxt?.instancePath || '/' });
        return true;
      },
    });
    for (const item of Object.values(api.paths ?? {})) {
      if (!item) continue;
      for (const method of METHODS) {
        const op = item[method];
        if (!op?.operationId) continue;
        facts.#add(op, [...(item.parameters ?? []), ...(op.parameters ?? [])] as OpenAPIV3_1.ParameterObject[]);
      }
    }
    return facts;
  }

  /** Whether an error answer is one of the document's `x-wire-errors` (the request could not be read). */
  isWireError(status: number, code: string, msg: unknown): boolean {
    return typeof msg === 'string' && this.#wireErrors.some((e) => e.status === status && e.code === code && e.msg.test(msg));
  }

  get(operationId: string): OperationFacts | undefined {
    return this.#ops.get(operationId);
  }

  /**
   * The fields of an answer marked `x-feature-level` above `level` (an empty list when the document gives
   * the status no JSON schema).
   */
  fieldsAboveLevel(operationId: string, status: number, body: unknown, level: number): LevelField[] {
    const key = `${operationId} ${status}`;
    if (!this.#levelValidators.has(key)) {
      const schema = this.#responses.get(key);
      this.#levelValidators.set(key, schema ? this.#ajv.compile(schema) : null);
    }
    const validate = this.#levelValidators.get(key);
    if (!validate) return [];
    const context: LevelContext = { level, found: [] };
    validate.call(context, body);
    const seen = new Set<string>();
    return context.found.filter((f) => !seen.has(f.path) && seen.add(f.path));
  }

  #add(op: OpenAPIV3_1.OperationObject, parameters: OpenAPIV3_1.ParameterObject[]): void {
    const ext = op as Record<string, unknown>;
    const params = new Set(parameters.map((p) => p.name));
    const body = op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
    for (const media of Object.values(body?.content ?? {})) {
      for (const [name, prop] of Object.entries(propertiesOf(media.schema as Schema | undefined))) {
        params.add(name);
        for (const alias of ((prop as Schema)['x-aliases'] as string[] | undefined) ?? []) params.add(alias);
      }
    }
    const codes = new Map<number, Set<string>>();
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      const json = (response as OpenAPIV3_1.ResponseObject).content?.['application/json'];
      this.#responses.set(`${op.operationId} ${status}`, (json?.schema as Schema | undefined) ?? null);
      if (!json || !/^\d+$/.test(status) || Number(status) < 400) continue;
      const found = new Set(codeConsts(json.schema as Schema | undefined));
      for (const example of Object.values(json.examples ?? {})) {
        const value = (example as OpenAPIV3_1.ExampleObject).value as Schema | undefined;
        if (value?.result !== 'error' || typeof value.code !== 'string') continue;
        found.add(value.code);
        if (typeof value.msg === 'string') this.messages.set(value.code, (this.messages.get(value.code) ?? new Set()).add(value.msg));
      }
      codes.set(Number(status), found);
    }
    this.#ops.set(op.operationId!, {
      operationId: op.operationId!,
      section: String(ext['x-spec-section'] ?? 'companion'),
      area: op.tags?.[0] ?? 'proxy',
      summary: op.summary ?? op.operationId!,
      params,
      codes,
    });
  }
}

/** The properties of a request schema, through allOf/oneOf/anyOf (unions of forms). */
function propertiesOf(schema: Schema | undefined): Record<string, unknown> {
  if (!schema) return {};
  const own = (schema.properties as Record<string, unknown> | undefined) ?? {};
  const parts = ['allOf', 'oneOf', 'anyOf'].flatMap((k) => (schema[k] as Schema[] | undefined) ?? []);
  return Object.assign({}, ...parts.map(propertiesOf), own);
}

/** The `code` constants an error schema allows (`BadRequestError` → BAD_REQUEST), through allOf/oneOf. */
function codeConsts(schema: Schema | undefined): string[] {
  if (!schema) return [];
  const code = (schema.properties as Record<string, Schema> | undefined)?.code;
  const own = typeof code?.const === 'string' ? [code.const] : Array.isArray(code?.enum) ? (code.enum as string[]) : [];
  const parts = ['allOf', 'oneOf', 'anyOf'].flatMap((k) => (schema[k] as Schema[] | undefined) ?? []);
  return [...own, ...parts.flatMap(codeConsts)];
}
