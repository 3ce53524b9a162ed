import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type * as AjvModule from 'ajv';
import type { Ajv, ValidateFunction } from 'ajv';
import type * as AjvFormatsModule from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { packagePath } from '../../../cli/package-root.js';
import { isFeatureName, type FeatureName } from '../config/features.js';
import { defaultCache, type ProductCache } from '../config/cache.js';
import { levelFieldsOf, type LevelFields, type ShapeMemo } from './level-fields.js';

/**
 * Reads openapi/team-chat.openapi.yaml once at start-up and gives, for every operation, one ajv
 * validator per parameter, compiled on the parameter's first use and kept (start-up compiles none of
 * them; a request never compiles a schema twice). Validating parameter by parameter, in the operation's
 * `x-parse-order`, is what lets the first bad parameter decide the error, as the reference server does
 * (reference doc, "Order of checks").
 *
 * The document is dereferenced once per YAML text: the result is a product keyed by the text's hash
 * (config/cache.ts), shipped with the artefact for the package's own document and cached for any other, so
 * a start with either neither parses YAML nor resolves references.
 */
export const DEFAULT_OPENAPI_PATH = packagePath('openapi/team-chat.openapi.yaml');

/** Part of the document's cache key: bump it when `prepareDocument` (or its parser) makes another document. */
export const PREPARER_VERSION = 1;
/** The product's name in the cache. */
const PRODUCT = 'openapi';

type Schema = OpenAPIV3_1.SchemaObject & Record<string, unknown>;

export interface ParamSpec {
  name: string;
  in: 'path' | 'query' | 'body';
  required: boolean;
  /** The text is JSON (lists, objects, unions; integers, booleans and numbers are JSON literals too). */
  json: boolean;
  /** The schema's types, e.g. ['integer'] or ['integer', 'null']; [] for unions without a top-level type. */
  types: string[];
  allowsNull: boolean;
  strip: boolean;
  enumError: 'literal' | 'value-error';
  aliases: string[];
  allowSlashes: boolean;
  /** `x-feature-level` name: below that level the parameter does not exist (spec §9), so it is ignored. */
  feature: FeatureName | null;
  /** `x-feature-level-removed` name: from that level on the parameter does not exist (§9 level 184). */
  removedBy: FeatureName | null;
  /** `x-union-error: first-branch`: a value matching no branch answers the first branch's type error. */
  unionError: boolean;
  /** `x-enum-feature-levels`: enum values that exist only from a level (`channel` at 248). */
  enumFeatures: Record<string, FeatureName>;
  hasDefault: boolean;
  default: unknown;
  schema: Schema;
  validate: ValidateFunction;
}

export interface OperationSpec {
  operationId: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  /** OpenAPI path, e.g. /api/v1/users/{user_id}. */
  path: string;
  section: string;
  /** Anonymous access allowed (register, server_settings). */
  anonymous: boolean;
  params: ParamSpec[];
  /** Every name the operation reads (aliases included): anything else is an ignored parameter. */
  known: Set<string>;
  /**
   * Fields of the success answer that exist only from a feature level (left out for older realms): read from
   * the document on the first answer of a realm below the current level, so neither start-up nor a current
   * realm pays for it.
   */
  readonly levelFields: LevelFields | null;
}

const METHODS = ['get', 'post', 'patch', 'delete', 'put'] as const;
const FORM = 'application/x-www-form-urlencoded';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The cache key of a document: its YAML text's hash and the preparer's version. */
export const documentKey = (text: string): string => `${PREPARER_VERSION} ${sha256(text)}`;

/** Documents by key, least recently used first: every server of a process (tests start hundreds) shares one. */
const documents = new Map<string, OpenAPIV3_1.Document>();
const KEPT_DOCUMENTS = 4;

/** The document with every $ref resolved, found by its text (see `documentOf`). */
export async function loadDocument(path = DEFAULT_OPENAPI_PATH, cache: ProductCache = defaultCache()): Promise<OpenAPIV3_1.Document> {
  return documentOf(await readFile(path, 'utf8'), cache);
}

/**
 * The dereferenced document of this YAML text: from memory, else from the cache, else prepared now and
 * cached. Shared, so read-only: the loader and the validators only read it.
 */
export async function documentOf(text: string, cache: ProductCache): Promise<OpenAPIV3_1.Document> {
  const key = documentKey(text);
  let document = documents.get(key) ?? (await cache.read(PRODUCT, key, documentReader));
  if (document === null) {
    document = await prepareDocument(text);
    await cache.write(PRODUCT, key, [JSON.stringify(document)]);
  }
  documents.delete(key);
  documents.set(key, document);
  for (const oldest of documents.keys()) if (documents.size > KEPT_DOCUMENTS) documents.delete(oldest);
  return document;
}

/**
 * The document of this text in a cache directory (the products the build ships), prepared only when it is not
 * there yet: its entry's file name, or null when it cannot be written.
 */
export function ensureDocument(text: string, cache: ProductCache): Promise<string | null> {
  return cache.ensure(PRODUCT, documentKey(text), async () => [JSON.stringify(await prepareDocument(text))]);
}

function documentReader() {
  let document: OpenAPIV3_1.Document | null = null;
  return {
    line: (text: string) => void (document = JSON.parse(text) as OpenAPIV3_1.Document),
    done: () => {
      if (document === null) throw new Error('an empty document entry');
      return document;
    },
  };
}

/**
 * YAML → the document with every $ref resolved, in a form that survives JSON (the cache writes it so).
 * The YAML parser and the reference resolver are loaded only here, so a start on a cached document never
 * loads them.
 */
export async function prepareDocument(text: string): Promise<OpenAPIV3_1.Document> {
  const { parse, SwaggerParser } = await import('./document-parsers.js');
  return (await SwaggerParser.dereference(parse(text) as OpenAPIV3_1.Document)) as OpenAPIV3_1.Document;
}

/**
 * ajv and its formats are loaded with the first validator compiled, not at start-up (they are CommonJS,
 * so a synchronous require serves the synchronous request path).
 */
const require = createRequire(import.meta.url);

function createAjv(): Ajv {
  const { Ajv } = require('ajv') as typeof AjvModule;
  const addFormats = require('ajv-formats') as typeof AjvFormatsModule.default;
  // validateSchema off: checking each schema against the meta-schema first would compile the meta-schema on
  // the first request (~70 ms); the document's schemas are checked against it by a test instead
  // (test/http/document-cache.test.ts), and validation of values is the same either way.
  const ajv = new Ajv({ ...AJV_OPTIONS, validateSchema: false });
  addFormats.default(ajv);
  return ajv;
}

/** How parameter values are validated: the first error only, nothing coerced or filled in. */
export const AJV_OPTIONS = { strict: false, allErrors: false, coerceTypes: false, useDefaults: false } as const;

export async function loadOperations(path = DEFAULT_OPENAPI_PATH, cache: ProductCache = defaultCache()): Promise<OperationSpec[]> {
  const api = await loadDocument(path, cache);
  // One ajv instance per document, made when the first of its validators is.
  let shared: Ajv | null = null;
  const ajv = () => (shared ??= createAjv());
  const operations: OperationSpec[] = [];
  const shapes: ShapeMemo = new Map();
  for (const [path, item] of Object.entries(api.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method] as (OpenAPIV3_1.OperationObject & Record<string, unknown>) | undefined;
      if (!operation) continue;
      // Path-item parameters apply to every method of the path; an operation's own override them.
      const shared = (item?.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
      const own = (operation.parameters ?? []) as OpenAPIV3_1.ParameterObject[];
      const parameters = [...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own];
      operations.push(compileOperation(ajv, api, path, method, { ...operation, parameters }, shapes));
    }
  }
  return operations;
}

function compileOperation(
  ajv: () => Ajv,
  api: OpenAPIV3_1.Document,
  path: string,
  method: (typeof METHODS)[number],
  op: OpenAPIV3_1.OperationObject & Record<string, unknown>,
  shapes: ShapeMemo,
): OperationSpec {
  const operationId = op.operationId ?? `${method} ${path}`;
  const params = new Map<string, ParamSpec>();
  for (const p of (op.parameters ?? []) as OpenAPIV3_1.ParameterObject[]) {
    const json = Boolean(p.content?.['application/json']);
    const schema = (json ? p.content?.['application/json']?.schema : p.schema) as Schema;
    params.set(
      p.name,
      makeParam(
        ajv,
        p.name,
        p.in === 'path' ? 'path' : 'query',
        Boolean(p.required),
        json,
        schema,
        p as unknown as Record<string, unknown>,
      ),
    );
  }
  const body = (op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content?.[FORM];
  const bodySchema = body?.schema as Schema | undefined;
  for (const [name, property] of Object.entries(bodySchema?.properties ?? {})) {
    const json = body?.encoding?.[name]?.contentType === 'application/json';
    const required = (bodySchema?.required ?? []).includes(name);
    params.set(name, makeParam(ajv, name, 'body', required, json, property as Schema, property as Record<string, unknown>));
  }
  const order = (op['x-parse-order'] as string[] | undefined) ?? [...params.keys()];
  const ordered = order.map((name) => {
    const spec = params.get(name);
    if (!spec) throw new Error(`${operationId}: x-parse-order names unknown parameter ${name}`);
    return spec;
  });
  if (ordered.length !== params.size) throw new Error(`${operationId}: x-parse-order must list every parameter`);
  const security = (op.security ?? api.security ?? []) as Record<string, string[]>[];
  let levelFields: LevelFields | null | undefined;
  return {
    operationId,
    method: method.toUpperCase() as OperationSpec['method'],
    path,
    section: String(op['x-spec-section'] ?? 'companion'),
    anonymous: security.length === 0 || security.some((s) => Object.keys(s).length === 0),
    params: ordered,
    known: new Set(ordered.flatMap((p) => [p.name, ...p.aliases])),
    get levelFields() {
      if (levelFields === undefined) levelFields = levelFieldsOf(successSchema(op), shapes);
      return levelFields;
    },
  };
}

function makeParam(
  ajv: () => Ajv,
  name: string,
  location: ParamSpec['in'],
  required: boolean,
  jsonEncoded: boolean,
  schema: Schema,
  annotations: Record<string, unknown>,
): ParamSpec {
  const types = schemaTypes(schema);
  const pick = (key: string) => annotations[key] ?? schema[key];
  let validate: ValidateFunction | null = null;
  return {
    name,
    in: location,
    required: required || location === 'path',
    // Integers, booleans and numbers are JSON literals on the wire (reference doc, "Value parsing").
    json: jsonEncoded || types.some((t) => t === 'integer' || t === 'boolean' || t === 'number' || t === 'array' || t === 'object'),
    types,
    allowsNull:
      types.includes('null') ||
      (Array.isArray(schema.oneOf ?? schema.anyOf) &&
        (schema.oneOf ?? schema.anyOf ?? []).some((s) => schemaTypes(s as Schema).includes('null'))),
    strip: pick('x-strip') === true,
    enumError: pick('x-enum-error') === 'value-error' ? 'value-error' : 'literal',
    aliases: (pick('x-aliases') as string[] | undefined) ?? [],
    allowSlashes: pick('x-allow-slashes') === true,
    feature: featureName(name, (pick('x-feature-level') as { name?: string } | undefined)?.name),
    removedBy: featureName(name, (pick('x-feature-level-removed') as { name?: string } | undefined)?.name),
    unionError: pick('x-union-error') === 'first-branch',
    enumFeatures: Object.fromEntries(
      Object.entries((pick('x-enum-feature-levels') as Record<string, { name: string }> | undefined) ?? {}).map(([value, f]) => [
        value,
        featureName(name, f.name)!,
      ]),
    ),
    hasDefault: 'default' in schema,
    default: schema.default,
    schema,
    get validate() {
      return (validate ??= ajv().compile(schema));
    },
  };
}

function successSchema(op: OpenAPIV3_1.OperationObject): Schema | undefined {
  const ok = op.responses?.['200'] as OpenAPIV3_1.ResponseObject | undefined;
  return ok?.content?.['application/json']?.schema as Schema | undefined;
}

/** Feature names in the document must be keys of feature-levels.json (openapi/README.md): checked at start-up. */
function featureName(param: string, name: string | undefined): FeatureName | null {
  if (name === undefined) return null;
  if (!isFeatureName(name)) throw new Error(`parameter ${param}: unknown feature name ${name} (not in openapi/feature-levels.json)`);
  return name;
}

export function schemaTypes(schema: Schema | undefined): string[] {
  if (!schema) return [];
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.enum) return [...new Set((schema.enum as unknown[]).map((v) => (v === null ? 'null' : typeof v)))];
  return [];
}
