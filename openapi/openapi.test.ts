/**
 * Checks of the wire contract in openapi/: the OpenAPI document is valid (lint: lint.test.ts), follows the
 * conventions of openapi/README.md, covers every operation of spec §4 with the spec's parameters
 * (spec-operations.json), and spec-operations.json matches the spec itself when the spec is at hand.
 */
import { describe, it, expect } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import SwaggerParser from '@apidevtools/swagger-parser';
import MarkdownIt from 'markdown-it';
import type { OpenAPIV3_1 } from 'openapi-types';

const docPath = fileURLToPath(new URL('./team-chat.openapi.yaml', import.meta.url));
const specOpsPath = fileURLToPath(new URL('./spec-operations.json', import.meta.url));
const levelsPath = fileURLToPath(new URL('./feature-levels.json', import.meta.url));
// The spec lives beside the repository (shared/ next to main/), not inside it.
const specMarkdownPath = fileURLToPath(new URL('../../shared/spec/team-chat-api.md', import.meta.url));

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** required: true, false, or "conditional" (tied to another value; not required in the document). */
type SpecRequired = boolean | 'conditional';
interface SpecParameter {
  name: string;
  required: SpecRequired;
  in: 'path' | 'query' | 'body';
}
interface SpecOperation {
  section: string;
  title: string;
  method: string;
  path: string;
  operationId: string;
  parameters: SpecParameter[];
}

const doc = parse(readFileSync(docPath, 'utf8')) as JsonObject;
const specOps = (JSON.parse(readFileSync(specOpsPath, 'utf8')) as { operations: SpecOperation[] }).operations;
const levels = (JSON.parse(readFileSync(levelsPath, 'utf8')) as { levels: Record<string, { level: number }> }).levels;

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'options', 'head', 'trace'] as const;
const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';
const JSON_TYPE = 'application/json';

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObject(value: Json | undefined, where: string): JsonObject {
  if (!isObject(value)) throw new Error(`${where}: expected an object`);
  return value;
}

/** Follows local `$ref`s (`#/components/...`) until a non-reference object is reached. */
function deref(value: Json | undefined, where = 'value'): JsonObject {
  let current = asObject(value, where);
  for (let hops = 0; typeof current.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`${where}: $ref loop`);
    const ref = current.$ref;
    if (!ref.startsWith('#/')) throw new Error(`${where}: non-local $ref ${ref}`);
    let target: Json = doc;
    for (const raw of ref.slice(2).split('/')) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      target = asObject(target, ref)[key] ?? null;
    }
    current = asObject(target, ref);
  }
  return current;
}

interface DocParameter {
  name: string;
  in: 'path' | 'query' | 'body';
  required: boolean;
  /** The parameter's schema: `schema`, or the schema under `content` for JSON-encoded query values. */
  schema: JsonObject;
  /** GET/path parameters: whether they use `content: application/json`. */
  jsonContent: boolean;
}

interface DocOperation {
  method: string;
  path: string;
  operation: JsonObject;
  parameters: DocParameter[];
}

/** Every operation of the document with its parameters (path, query and form body) flattened. */
function collectOperations(): DocOperation[] {
  const out: DocOperation[] = [];
  const paths = asObject(doc.paths, 'paths');
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = asObject(rawItem, path);
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      if (!isObject(item[method])) continue;
      const operation = item[method];
      const parameters: DocParameter[] = [];
      const own = Array.isArray(operation.parameters) ? operation.parameters : [];
      // As the server reads them (http/openapi.ts): an operation's own parameter overrides the path item's.
      const ownKeys = new Set(own.map((o) => deref(o, `${method} ${path} parameter`)).map((o) => `${String(o.in)} ${String(o.name)}`));
      const inherited = shared.filter((raw) => {
        const p = deref(raw, `${path} parameter`);
        return !ownKeys.has(`${String(p.in)} ${String(p.name)}`);
      });
      for (const raw of [...inherited, ...own]) {
        const p = deref(raw, `${method} ${path} parameter`);
        const content = isObject(p.content) ? p.content : undefined;
        const schema = content ? deref(asObject(content[JSON_TYPE], 'content').schema) : deref(p.schema);
        parameters.push({
          name: String(p.name),
          in: p.in === 'path' ? 'path' : 'query',
          required: p.required === true,
          schema,
          jsonContent: content !== undefined,
        });
      }
      if (isObject(operation.requestBody)) {
        const body = deref(operation.requestBody);
        const schema = deref(asObject(asObject(body.content, 'content')[FORM], FORM).schema, `${method} ${path} body`);
        const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
        for (const [name, propSchema] of Object.entries(asObject(schema.properties, `${path} properties`))) {
          parameters.push({ name, in: 'body', required: required.includes(name), schema: deref(propSchema), jsonContent: false });
        }
      }
      out.push({ method: method.toUpperCase(), path, operation, parameters });
    }
  }
  return out;
}

const operations = collectOperations();

function findOperation(method: string, path: string): DocOperation | undefined {
  return operations.find((o) => o.method === method && o.path === path);
}

/** A value that travels as JSON text (openapi/README.md "Parameters and their encoding"): lists, objects, unions. */
function isJsonEncoded(schema: JsonObject): boolean {
  if (schema.oneOf !== undefined || schema.anyOf !== undefined || schema.allOf !== undefined) return true;
  const type = schema.type;
  if (Array.isArray(type)) return true; // e.g. [integer, 'null'] (folder_id)
  return type === 'array' || type === 'object';
}

/** Walks the whole document, calling `visit` for every object with its JSON pointer. */
function walk(value: Json, pointer: string, visit: (obj: JsonObject, pointer: string) => void, seen = new Set<Json>()): void {
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, `${pointer}/${i}`, visit, seen));
    return;
  }
  visit(value, pointer);
  for (const [k, v] of Object.entries(value)) walk(v, `${pointer}/${k}`, visit, seen);
}

/** The route table of the server references these operations (method, path, operationId). */
const EXPECTED_ROUTES: ReadonlyArray<readonly [string, string, string]> = [
  ['GET', '/api/v1/streams/{stream_id}', 'get-stream'],
  ['GET', '/api/v1/get_stream_id', 'get-stream-id'],
  ['DELETE', '/api/v1/streams/{stream_id}', 'archive-stream'],
  ['POST', '/api/v1/users/me/subscriptions/properties', 'update-subscription-settings'],
  ['POST', '/api/v1/scheduled_messages', 'create-scheduled-message'],
  ['PATCH', '/api/v1/scheduled_messages/{scheduled_message_id}', 'update-scheduled-message'],
  ['GET', '/api/v1/scheduled_messages', 'get-scheduled-messages'],
  ['DELETE', '/api/v1/scheduled_messages/{scheduled_message_id}', 'delete-scheduled-message'],
  ['GET', '/api/v1/messages/{message_id}', 'get-message'],
  ['GET', '/api/v1/messages', 'get-messages'],
  // Companion tier, area edit-delete.
  ['PATCH', '/api/v1/messages/{message_id}', 'update-message'],
  ['DELETE', '/api/v1/messages/{message_id}', 'delete-message'],
  ['GET', '/api/v1/messages/{message_id}/history', 'get-message-history'],
  ['PATCH', '/api/v1/realm', 'update-realm'],
  ['POST', '/api/v1/users/{user_id}/status', 'update-status-for-user'],
  ['GET', '/api/v1/users/{user_id}/status', 'get-user-status'],
  ['POST', '/api/v1/users/me/status', 'update-status'],
  ['POST', '/api/v1/drafts', 'create-drafts'],
  ['GET', '/api/v1/drafts', 'get-drafts'],
  ['PATCH', '/api/v1/drafts/{draft_id}', 'edit-draft'],
  ['DELETE', '/api/v1/drafts/{draft_id}', 'delete-draft'],
  ['PATCH', '/api/v1/users/{user_id}', 'update-user'],
  ['DELETE', '/api/v1/users/me/subscriptions', 'unsubscribe'],
  ['POST', '/api/v1/users/me/subscriptions', 'subscribe'],
  ['GET', '/api/v1/users/me/subscriptions', 'get-subscriptions'],
  ['POST', '/api/v1/mark_topic_as_read', 'mark-topic-as-read'],
  ['POST', '/api/v1/users', 'create-user'],
  ['GET', '/api/v1/users', 'get-users'],
  ['GET', '/api/v1/users/{user_id}', 'get-user'],
  ['GET', '/api/v1/users/me', 'get-own-user'],
  ['GET', '/api/v1/users/me/{stream_id}/topics', 'get-stream-topics'],
  ['PATCH', '/api/v1/navigation_views/{fragment}', 'edit-navigation-view'],
  ['GET', '/api/v1/navigation_views', 'get-navigation-views'],
  ['POST', '/api/v1/navigation_views', 'add-navigation-view'],
  ['DELETE', '/api/v1/navigation_views/{fragment}', 'remove-navigation-view'],
  ['POST', '/api/v1/messages/{message_id}/report', 'report-message'],
  ['PATCH', '/api/v1/saved_snippets/{saved_snippet_id}', 'edit-saved-snippet'],
  ['GET', '/api/v1/saved_snippets', 'get-saved-snippets'],
  ['POST', '/api/v1/saved_snippets', 'create-saved-snippet'],
  ['DELETE', '/api/v1/saved_snippets/{saved_snippet_id}', 'delete-saved-snippet'],
  ['GET', '/api/v1/streams', 'get-streams'],
  ['PATCH', '/api/v1/streams/{stream_id}', 'update-stream'],
  ['DELETE', '/api/v1/users/{user_id}', 'deactivate-user'],
  ['POST', '/api/v1/realm/filters', 'add-linkifier'],
  ['GET', '/api/v1/realm/linkifiers', 'get-linkifiers'],
  ['PATCH', '/api/v1/realm/filters/{filter_id}', 'update-linkifier'],
  ['DELETE', '/api/v1/realm/filters/{filter_id}', 'remove-linkifier'],
  ['PATCH', '/api/v1/realm/linkifiers', 'reorder-linkifiers'],
  ['POST', '/api/v1/reminders', 'create-message-reminder'],
  ['GET', '/api/v1/reminders', 'get-reminders'],
  ['DELETE', '/api/v1/reminders/{reminder_id}', 'delete-reminder'],
  ['POST', '/api/v1/messages/render', 'render-message'],
  ['POST', '/api/v1/register', 'register-queue'],
  ['GET', '/api/v1/events', 'get-events'],
  ['DELETE', '/api/v1/events', 'delete-queue'],
  ['POST', '/api/v1/messages', 'send-message'],
  ['GET', '/api/v1/server_settings', 'get-server-settings'],
  ['POST', '/api/v1/fetch_api_key', 'fetch-api-key'],
  // Companion tier, area live.
  ['POST', '/api/v1/typing', 'set-typing-status'],
  ['POST', '/api/v1/users/me/presence', 'update-presence'],
  ['GET', '/api/v1/users/{user_id_or_email}/presence', 'get-user-presence'],
  ['GET', '/api/v1/realm/presence', 'get-presence'],
  ['POST', '/api/v1/user_uploads', 'upload-file'],
  ['GET', '/api/v1/attachments', 'get-attachments'],
  ['DELETE', '/api/v1/attachments/{attachment_id}', 'remove-attachment'],
  ['GET', '/api/v1/user_uploads/{realm_id}/{attachment_id}/{token}/{filename}', 'get-file-temporary-url'],
  // Companion tier, area flags-reactions.
  ['POST', '/api/v1/messages/{message_id}/reactions', 'add-reaction'],
  ['DELETE', '/api/v1/messages/{message_id}/reactions', 'remove-reaction'],
  ['POST', '/api/v1/messages/flags', 'update-message-flags'],
  ['POST', '/api/v1/mark_all_as_read', 'mark-all-as-read'],
  ['POST', '/api/v1/mark_stream_as_read', 'mark-stream-as-read'],
  ['POST', '/api/v1/messages/flags/narrow', 'update-message-flags-for-narrow'],
  // Companion tier, compat-lookups.
  ['GET', '/api/v1/realm/emoji', 'get-realm-emoji'],
  ['GET', '/api/v1/user_groups', 'get-user-groups'],
  ['GET', '/api/v1/users/me/alert_words', 'get-alert-words'],
  ['POST', '/api/v1/users/me/alert_words', 'add-alert-words'],
  ['DELETE', '/api/v1/users/me/alert_words', 'remove-alert-words'],
  ['GET', '/api/v1/bot_storage', 'get-bot-storage'],
  ['PUT', '/api/v1/bot_storage', 'update-bot-storage'],
  ['DELETE', '/api/v1/bot_storage', 'remove-bot-storage'],
  ['GET', '/api/v1/realm/filters', 'get-linkifiers-legacy'],
  ['POST', '/api/v1/user_topics', 'update-user-topic'],
];

describe('team-chat.openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document (swagger-parser)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    // validate() dereferences in place: give it a copy so the other tests see the document as written.
    const copy = structuredClone(doc) as unknown as OpenAPIV3_1.Document;
    await expect(SwaggerParser.validate(copy)).resolves.toBeTruthy();
  });

  it('marks each companion-tier operation with its area, a page of the reference documentation and companion rules', () => {
    // The areas are those of conformance/rules/companion/<area>.json: every area of the document has rules there.
    const rulesDir = fileURLToPath(new URL('../conformance/rules/companion/', import.meta.url));
    const areas = new Set(
      readdirSync(rulesDir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => f.slice(0, -'.json'.length)),
    );
    const marked = operations.filter((o) => o.operation['x-companion-area'] !== undefined);
    expect(marked.length).toBeGreaterThan(0);
    for (const o of marked) {
      const where = `${o.method} ${o.path}`;
      expect(o.operation['x-spec-section'], where).toBe('companion');
      expect(areas.has(String(o.operation['x-companion-area'])), `${where}: area ${String(o.operation['x-companion-area'])}`).toBe(true);
      expect(String(o.operation['x-reference-doc']), where).toMatch(/^https:\/\/\S+$/);
    }
    expect([...areas].sort()).toEqual([...new Set(marked.map((o) => String(o.operation['x-companion-area'])))].sort());
  });

  it('has exactly the operations of the route table, with unique kebab-case operationIds', () => {
    const ids = operations.map((o) => String(o.operation.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id, id).toMatch(/^[a-z]+(?:-[a-z]+)*$/);
    const actual = operations.map((o) => `${o.method} ${o.path} ${String(o.operation.operationId)}`).sort();
    const expected = EXPECTED_ROUTES.map(([m, p, id]) => `${m} ${p} ${id}`).sort();
    expect(actual).toEqual(expected);
  });

  it('covers every operation of spec-operations.json with the same parameters and required-ness', () => {
    expect(specOps.map((o) => o.section)).toEqual(Array.from({ length: 21 }, (_, i) => `4.${i + 1}`));
    for (const specOp of specOps) {
      const where = `§${specOp.section} ${specOp.method} ${specOp.path}`;
      const op = findOperation(specOp.method, specOp.path);
      expect(op, where).toBeDefined();
      if (!op) continue;
      expect(op.operation.operationId, where).toBe(specOp.operationId);
      expect(op.operation['x-spec-section'], where).toBe(specOp.section);
      for (const param of specOp.parameters) {
        const found = op.parameters.find((p) => p.name === param.name);
        expect(found, `${where}: parameter ${param.name}`).toBeDefined();
        if (!found) continue;
        expect(found.required, `${where}: required-ness of ${param.name}`).toBe(param.required === true);
        const expectedIn = param.in === 'body' && specOp.method === 'GET' ? 'query' : param.in;
        expect(found.in, `${where}: location of ${param.name}`).toBe(expectedIn);
      }
    }
  });

  it('gives every operation an x-spec-section and an x-parse-order listing exactly its parameters', () => {
    for (const op of operations) {
      const where = `${op.method} ${op.path}`;
      expect(String(op.operation['x-spec-section']), where).toMatch(/^(?:4\.(?:[1-9]|1\d|2[01])|6|companion)$/);
      const order = op.operation['x-parse-order'];
      expect(Array.isArray(order), `${where}: x-parse-order`).toBe(true);
      const names = (Array.isArray(order) ? order : []).map(String);
      expect(new Set(names).size, `${where}: duplicates in x-parse-order`).toBe(names.length);
      expect([...names].sort(), where).toEqual(op.parameters.map((p) => p.name).sort());
    }
  });

  it('names only feature levels of feature-levels.json, with their levels', () => {
    const uses: Array<{ pointer: string; name: Json | undefined; level: Json | undefined }> = [];
    walk(doc, '#', (obj, pointer) => {
      const single = obj['x-feature-level'];
      if (single !== undefined) {
        const o = asObject(single, pointer);
        uses.push({ pointer, name: o.name, level: o.level });
      }
      const perValue = obj['x-enum-feature-levels'];
      if (perValue !== undefined) {
        const enumValues = Array.isArray(obj.enum) ? obj.enum : [];
        for (const [value, raw] of Object.entries(asObject(perValue, pointer))) {
          expect(enumValues.map(String), `${pointer}: x-enum-feature-levels names a value of enum`).toContain(value);
          const o = asObject(raw, pointer);
          uses.push({ pointer: `${pointer} (${value})`, name: o.name, level: o.level });
        }
      }
      const notes = obj['x-feature-level-notes'];
      if (notes !== undefined) {
        expect(Array.isArray(notes), pointer).toBe(true);
        for (const raw of Array.isArray(notes) ? notes : []) {
          const o = asObject(raw, pointer);
          uses.push({ pointer: `${pointer} (note)`, name: o.name, level: o.level });
        }
      }
    });
    expect(uses.length).toBeGreaterThan(10);
    for (const use of uses) {
      const known = typeof use.name === 'string' ? levels[use.name] : undefined;
      expect(known, `${use.pointer}: ${String(use.name)}`).toBeDefined();
      expect(use.level, `${use.pointer}: level of ${String(use.name)}`).toBe(known?.level);
    }
  });

  it('sends list, object and union body fields as JSON, and plain fields as text', () => {
    for (const op of operations) {
      if (!isObject(op.operation.requestBody)) continue;
      const where = `${op.method} ${op.path}`;
      const content = asObject(deref(op.operation.requestBody).content, where);
      expect(Object.keys(content).sort(), where).toEqual([FORM, MULTIPART].sort());
      const form = asObject(content[FORM], FORM);
      const multipart = asObject(content[MULTIPART], MULTIPART);
      expect(multipart.schema, `${where}: same schema for both encodings`).toEqual(form.schema);
      const schemaRef = asObject(form.schema, where).$ref;
      expect(String(schemaRef), `${where}: body schema is a components/schemas/...Request`).toMatch(/^#\/components\/schemas\/\w+Request$/);
      for (const media of [form, multipart]) {
        const encoding = isObject(media.encoding) ? media.encoding : {};
        for (const param of op.parameters.filter((p) => p.in === 'body')) {
          const entry = encoding[param.name];
          if (isJsonEncoded(param.schema)) {
            expect(isObject(entry) ? entry.contentType : undefined, `${where}: encoding of ${param.name}`).toBe(JSON_TYPE);
          } else {
            expect(entry, `${where}: ${param.name} is plain text, no JSON encoding`).toBeUndefined();
          }
        }
        for (const key of Object.keys(encoding)) {
          expect(
            op.parameters.some((p) => p.in === 'body' && p.name === key),
            `${where}: encoding for unknown ${key}`,
          ).toBe(true);
        }
      }
    }
  });

  it('sends list and object query parameters as JSON content, scalars with schema', () => {
    for (const op of operations) {
      for (const param of op.parameters.filter((p) => p.in !== 'body')) {
        const where = `${op.method} ${op.path} ${param.name}`;
        expect(param.jsonContent, where).toBe(isJsonEncoded(param.schema));
      }
    }
  });

  it('answers 401 on every operation that needs credentials, and keeps reference names to server_settings', () => {
    for (const op of operations) {
      // Operations without their own `security` use the global basicAuth requirement. Those that also
      // accept anonymous callers (register, server_settings) or none at all (fetch_api_key) may omit 401.
      const security = op.operation.security;
      const needsCredentials = security === undefined;
      const responses = asObject(op.operation.responses, op.path);
      if (needsCredentials) expect(responses['401'], `${op.method} ${op.path}`).toBeDefined();
      expect(responses['200'], `${op.method} ${op.path}`).toBeDefined();
    }
    // The reference names (C1) are aliases on server_settings and, for the stock clients of the companion
    // tier, in register's answer; nowhere else.
    const { ['/api/v1/server_settings']: _settings, ['/api/v1/register']: _register, ...otherPaths } = asObject(doc.paths, 'paths');
    const { RegisterQueueResponse: _snapshot, ...otherSchemas } = asObject(asObject(doc.components, 'components').schemas, 'schemas');
    const rest = JSON.stringify({
      ...doc,
      paths: otherPaths,
      components: { ...asObject(doc.components, 'components'), schemas: otherSchemas },
    });
    expect(rest).not.toMatch(/zulip_/);
  });

  it("answers the reference's shared 429 wherever a caller's rate limit applies: every operation that takes credentials", () => {
    const rateLimited = { $ref: '#/components/responses/RateLimited' };
    for (const op of operations) {
      const security = (op.operation.security ?? [{ basicAuth: [] }]) as Record<string, unknown>[];
      const takesCredentials = security.some((r) => Object.keys(r).length > 0);
      // server_settings is answered outside the reference's authenticated dispatch: never limited there.
      const limited = takesCredentials && op.operation.operationId !== 'get-server-settings';
      const responses = asObject(op.operation.responses, op.path);
      expect(responses['429'], `${op.method} ${op.path}`).toEqual(limited ? rateLimited : undefined);
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// spec-operations.json against the spec itself.
// The spec is not part of this repository: it sits in ../shared/ on the machines where the project is
// developed. Where it is absent (a plain clone, CI) there is nothing to compare with, so the test is
// skipped rather than failed.
// ---------------------------------------------------------------------------------------------------

const specExists = existsSync(specMarkdownPath);

type Token = ReturnType<MarkdownIt['parse']>[number];

interface SpecSectionFromMarkdown {
  section: string;
  method: string;
  path: string;
  /** Parameter name → required-ness where the text decides it (undefined: not stated). */
  parameters: Map<string, SpecRequired | undefined>;
  text: string;
}

/** Splits a text at top-level separators (outside parentheses). */
function splitTopLevel(text: string, separators: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && c !== undefined && separators.includes(c)) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/** The sentence starting at `from`: up to a full stop outside parentheses followed by a space or the end. */
function sentenceAt(text: string, from: number): string {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === '.' && depth === 0 && (i + 1 === text.length || text[i + 1] === ' ')) return text.slice(from, i);
  }
  return text.slice(from);
}

function requiredFromNote(note: string): SpecRequired | undefined {
  if (/\bpath\b/.test(note) || /\brequired\b/.test(note)) return true;
  if (/\boptional\b/.test(note)) return false;
  return undefined;
}

/**
 * Parameters named in prose: "Parameters: a (integer, required), b (string, optional)",
 * "Parameters, all required strings: a, b", "Body parameters, all optional: a, b", "Path: id (integer)",
 * "Parameter content (string, required)", "Parameter drafts: optional, ...".
 */
function parseProseParameters(paragraph: string, into: Map<string, SpecRequired | undefined>): void {
  const starts = /\b(Path|Body parameters|Parameters|Parameter)\b/g;
  for (let m = starts.exec(paragraph); m !== null; m = starts.exec(paragraph)) {
    const sentence = sentenceAt(paragraph, m.index);
    const keyword = m[1] ?? '';
    if (keyword === 'Parameter') {
      // A single parameter: "Parameter NAME (notes)" or "Parameter NAME: notes".
      const single = /^Parameter ([a-z][a-z0-9_]*)\s*(?:\(([^)]*)\)|:\s*(.*))?/.exec(sentence);
      if (single?.[1]) into.set(single[1], requiredFromNote(single[2] ?? single[3] ?? ''));
      continue;
    }
    const colon = splitTopLevel(sentence, ':');
    if (colon.length < 2) continue;
    const header = colon[0] ?? '';
    const list = sentence.slice(sentence.indexOf(':', header.length) + 1);
    const all: SpecRequired | undefined =
      keyword === 'Path' ? true : /optional/.test(header) ? false : /required/.test(header) ? true : undefined;
    for (const item of splitTopLevel(list, ',;')) {
      const named = /^([a-z][a-z0-9_]*)(?:\s*\(([^)]*)\))?/.exec(item);
      if (!named?.[1]) continue;
      into.set(named[1], requiredFromNote(named[2] ?? '') ?? all);
    }
  }
}

/** Reads the §4 subsections of the spec: heading, parameter tables and parameter prose. */
function readSpecSections(markdown: string): SpecSectionFromMarkdown[] {
  const tokens: Token[] = new MarkdownIt().parse(markdown, {});
  const sections: SpecSectionFromMarkdown[] = [];
  let current: SpecSectionFromMarkdown | undefined;
  let i = 0;
  const inlineAfter = (index: number): string => tokens[index + 1]?.content ?? '';
  while (i < tokens.length) {
    const token = tokens[i];
    if (!token) break;
    if (token.type === 'heading_open') {
      const title = inlineAfter(i);
      const heading = /^(4\.\d+) .*: (GET|POST|PATCH|DELETE) (\/\S+)$/.exec(title);
      current =
        heading?.[1] && heading[2] && heading[3]
          ? { section: heading[1], method: heading[2], path: heading[3], parameters: new Map(), text: '' }
          : undefined;
      if (current) sections.push(current);
      i += 3;
      continue;
    }
    if (current && token.type === 'paragraph_open') {
      const text = inlineAfter(i);
      current.text += `${text}\n`;
      parseProseParameters(text, current.parameters);
      i += 3;
      continue;
    }
    if (current && token.type === 'table_open') {
      const rows: string[][] = [];
      let row: string[] = [];
      for (i++; i < tokens.length && tokens[i]?.type !== 'table_close'; i++) {
        const t = tokens[i];
        if (t?.type === 'tr_open') row = [];
        else if (t?.type === 'tr_close') rows.push(row);
        else if (t?.type === 'inline') row.push(t.content.trim());
      }
      const [header, ...body] = rows;
      if (header && header[0] === 'Parameter') {
        const requiredColumn = header.indexOf('Required');
        for (const cells of body) {
          const name = cells[0] ?? '';
          current.text += `${cells.join(' | ')}\n`;
          const rest = cells.slice(1).join(' ');
          let required: SpecRequired | undefined;
          if (requiredColumn >= 0) {
            const cell = (cells[requiredColumn] ?? '').toLowerCase();
            required = cell === 'yes' ? true : cell === 'no' ? false : 'conditional';
          } else {
            // Tables without a Required column: path rows say so; the others are optional by the prose
            // around them ("All parameters are optional", "all optional except the path").
            required = /\(path\)|\brequired\b/.test(rest) ? true : false;
          }
          setRequired(current.parameters, name, required);
        }
      }
      i++;
      continue;
    }
    i++;
  }
  return sections;
}

function setRequired(map: Map<string, SpecRequired | undefined>, name: string, required: SpecRequired | undefined): void {
  map.set(name, required ?? map.get(name));
}

describe('spec-operations.json', () => {
  // Skipped when ../shared/spec/team-chat-api.md is not beside the repository: nothing to compare with.
  it.skipIf(!specExists)('matches the headings and parameter tables of spec §4 (markdown-it)', () => {
    const sections = readSpecSections(readFileSync(specMarkdownPath, 'utf8'));
    expect(sections.map((s) => s.section)).toEqual(specOps.map((o) => o.section));
    for (const section of sections) {
      const op = specOps.find((o) => o.section === section.section);
      expect(op, `§${section.section}`).toBeDefined();
      if (!op) continue;
      const where = `§${section.section}`;
      expect(`${op.method} ${op.path}`, where).toBe(`${section.method} ${section.path}`);
      expect(op.parameters.map((p) => p.name).sort(), `${where}: parameter names`).toEqual([...section.parameters.keys()].sort());
      for (const param of op.parameters) {
        const fromSpec = section.parameters.get(param.name);
        if (fromSpec !== undefined) expect(param.required, `${where}: required-ness of ${param.name}`).toBe(fromSpec);
        // Path parameters are the ones in the heading's path template.
        expect(param.in === 'path', `${where}: ${param.name} in path`).toBe(section.path.includes(`{${param.name}}`));
      }
    }
  });
});
