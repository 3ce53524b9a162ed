import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { loadContract, OPENAPI_PATH, type JudgedLevel } from '../openapi.js';
import { at, chooseBranches, segments } from '../schema-errors.js';
import { propertyMarksOnly } from '../schema-levels.js';

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
  /**
   * Documented error codes by HTTP status (schema `code` consts and the named examples), each with the levels
   * it is documented at: an example or variant marked `x-feature-level` / `x-feature-level-removed` holds only
   * from / below its level; an unmarked one at every level.
   */
  codes: Map<number, Map<string, LevelSpan[]>>;
  /** Whether a caller may authenticate (security other than anonymous only): the shared 401 answers apply. */
  authenticated: boolean;
}

/** The feature levels a documented answer holds at: from `from` (included) to `below` (excluded). */
export interface LevelSpan {
  from?: number;
  below?: number;
}

/** Whether an answer documented over `span` is one a server at `level` may give (any, when the level is unknown). */
export function spanHolds(span: LevelSpan, level: JudgedLevel): boolean {
  return level === null || ((span.from === undefined || level >= span.from) && (span.below === undefined || level < span.below));
}

/** `from feature level 193`, `below feature level 229`, … for messages. */
export function spanText(spans: readonly LevelSpan[]): string {
  return spans
    .map((s) =>
      [s.from !== undefined ? `from feature level ${s.from}` : '', s.below !== undefined ? `below feature level ${s.below}` : '']
        .filter(Boolean)
        .join(' and '),
    )
    .map((t) => t || 'at every level')
    .join(' or ');
}

/** A documented message of an error code, with the levels it is answered at. */
export interface DocumentedMessage {
  msg: string;
  span: LevelSpan;
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
}

type Schema = Record<string, unknown>;
const METHODS = ['get', 'post', 'patch', 'delete', 'put'] as const;

export class ContractFacts {
  readonly #ops = new Map<string, OperationFacts>();
  readonly #responses = new Map<string, Schema | null>();
  /** Every documented `msg` by error code, over the whole document, with the levels it holds at. */
  readonly messages = new Map<string, DocumentedMessage[]>();
  /** The answers of `components.responses.Unauthorized`: possible on every authenticated operation. */
  readonly #sharedAuth: { code: string; span: LevelSpan }[] = [];
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
    // A field too new for the level fails this keyword, so that a mark in a oneOf branch the answer does not
    // take is dropped with that branch's errors (schema-errors.ts chooseBranches); only marks count here.
    facts.#ajv.addKeyword({
      keyword: 'x-feature-level',
      schemaType: 'object',
      validate: function (this: LevelContext | undefined, kw: { level: number }) {
        return !(this && typeof this.level === 'number' && kw.level > this.level);
      },
    });
    const unauthorized = api.components?.responses?.Unauthorized as OpenAPIV3_1.ResponseObject | undefined;
    for (const e of facts.#errorExamples(unauthorized?.content?.['application/json']?.examples))
      facts.#sharedAuth.push({ code: e.code, span: e.span });
    const global = api.security ?? [];
    for (const item of Object.values(api.paths ?? {})) {
      if (!item) continue;
      for (const method of METHODS) {
        const op = item[method];
        if (!op?.operationId) continue;
        const authenticated = (op.security ?? global).some((requirement) => Object.keys(requirement).length > 0);
        facts.#add(op, [...(item.parameters ?? []), ...(op.parameters ?? [])] as OpenAPIV3_1.ParameterObject[], authenticated);
      }
    }
    return facts;
  }

  /** The error codes an operation documents for a status at a level. */
  codesAt(op: OperationFacts, status: number, level: JudgedLevel): Set<string> {
    const codes = [...(op.codes.get(status) ?? [])].filter(([, spans]) => spans.some((s) => spanHolds(s, level)));
    return new Set(codes.map(([code]) => code));
  }

  /**
   * Whether an answer is one of the shared 401 answers (wrong, deactivated or missing credentials), which any
   * operation a caller authenticates to may give, whether or not it lists them.
   */
  isSharedAuthError(op: OperationFacts, status: number, code: string, level: JudgedLevel): boolean {
    return op.authenticated && status === 401 && this.#sharedAuth.some((a) => a.code === code && spanHolds(a.span, level));
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
      this.#levelValidators.set(key, schema ? this.#ajv.compile(propertyMarksOnly(schema) as Schema) : null);
    }
    const validate = this.#levelValidators.get(key);
    if (!validate) return [];
    if (validate.call({ level } satisfies LevelContext, body)) return [];
    const seen = new Set<string>();
    const found: LevelField[] = [];
    for (const e of chooseBranches(validate.schema, body, validate.errors ?? []).keys()) {
      const mark = at(validate.schema, segments(e.schemaPath)) as { name?: unknown; level?: unknown } | undefined;
      const path = e.instancePath || '/';
      if (e.keyword !== 'x-feature-level' || typeof mark?.level !== 'number' || seen.has(path)) continue;
      seen.add(path);
      found.push({ name: String(mark.name), level: mark.level, path });
    }
    return found;
  }

  /** The error examples of a response (code, msg, the levels they hold at); their messages are recorded. */
  #errorExamples(examples: Record<string, unknown> | undefined): { code: string; span: LevelSpan }[] {
    const out: { code: string; span: LevelSpan }[] = [];
    for (const example of Object.values(examples ?? {}) as OpenAPIV3_1.ExampleObject[]) {
      const value = example.value as Schema | undefined;
      if (value?.result !== 'error' || typeof value.code !== 'string') continue;
      const span = spanOf(example as Schema, {});
      out.push({ code: value.code, span });
      if (typeof value.msg !== 'string') continue;
      const known = this.messages.get(value.code) ?? [];
      if (!known.some((m) => m.msg === value.msg && sameSpan(m.span, span))) known.push({ msg: value.msg, span });
      this.messages.set(value.code, known);
    }
    return out;
  }

  #add(op: OpenAPIV3_1.OperationObject, parameters: OpenAPIV3_1.ParameterObject[], authenticated: boolean): void {
    const ext = op as Record<string, unknown>;
    const params = new Set(parameters.map((p) => p.name));
    const body = op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
    for (const media of Object.values(body?.content ?? {})) {
      for (const [name, prop] of Object.entries(propertiesOf(media.schema as Schema | undefined))) {
        params.add(name);
        for (const alias of ((prop as Schema)['x-aliases'] as string[] | undefined) ?? []) params.add(alias);
      }
    }
    const codes = new Map<number, Map<string, LevelSpan[]>>();
    for (const [status, response] of Object.entries(op.responses ?? {})) {
      const json = (response as OpenAPIV3_1.ResponseObject).content?.['application/json'];
      this.#responses.set(`${op.operationId} ${status}`, (json?.schema as Schema | undefined) ?? null);
      if (!json || !/^\d+$/.test(status) || Number(status) < 400) continue;
      const found = new Map<string, LevelSpan[]>();
      const add = (code: string, span: LevelSpan) => {
        const spans = found.get(code) ?? [];
        if (!spans.some((s) => sameSpan(s, span))) spans.push(span);
        found.set(code, spans);
      };
      for (const c of codeConsts(json.schema as Schema | undefined, {})) add(c.code, c.span);
      for (const e of this.#errorExamples(json.examples)) add(e.code, e.span);
      codes.set(Number(status), found);
    }
    this.#ops.set(op.operationId!, {
      operationId: op.operationId!,
      section: String(ext['x-spec-section'] ?? 'companion'),
      area: op.tags?.[0] ?? 'proxy',
      summary: op.summary ?? op.operationId!,
      params,
      codes,
      authenticated,
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

/** The level marks of an example or a variant schema, narrowing the span it sits in. */
function spanOf(node: Schema, outer: LevelSpan): LevelSpan {
  const from = (node['x-feature-level'] as { level?: unknown } | undefined)?.level;
  const below = (node['x-feature-level-removed'] as { level?: unknown } | undefined)?.level;
  const span: LevelSpan = { ...outer };
  if (typeof from === 'number') span.from = Math.max(from, outer.from ?? from);
  if (typeof below === 'number') span.below = Math.min(below, outer.below ?? below);
  return span;
}

function sameSpan(a: LevelSpan, b: LevelSpan): boolean {
  return a.from === b.from && a.below === b.below;
}

/**
 * The `code` constants an error schema allows (`BadRequestError` → BAD_REQUEST), through allOf/oneOf/anyOf,
 * each with the levels of the variant it comes from.
 */
function codeConsts(schema: Schema | undefined, outer: LevelSpan): { code: string; span: LevelSpan }[] {
  if (!schema) return [];
  const span = spanOf(schema, outer);
  const code = (schema.properties as Record<string, Schema> | undefined)?.code;
  const own = typeof code?.const === 'string' ? [code.const] : Array.isArray(code?.enum) ? (code.enum as string[]) : [];
  const parts = ['allOf', 'oneOf', 'anyOf'].flatMap((k) => (schema[k] as Schema[] | undefined) ?? []);
  return [...own.map((c) => ({ code: c, span })), ...parts.flatMap((p) => codeConsts(p, span))];
}
