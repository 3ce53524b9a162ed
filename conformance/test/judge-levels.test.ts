import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { ambientChecks } from '../src/checks/ambient.js';
import type { Exchange } from '../src/model.js';
import { ResponseSchemas, type JudgedLevel } from '../src/openapi.js';
import { ContractFacts } from '../src/proxy/contract.js';
import { Judge } from '../src/proxy/judge.js';

/**
 * The judging mechanisms on a small document of their own, so that each is tested whatever marks the project's
 * document carries: schemas by feature level, error codes and texts by level, the variant an error answer
 * meant, the spec's deliberate differences, and the shared 401 answers.
 */
const envelope = { type: 'object', required: ['result', 'msg'], properties: { result: { type: 'string' }, msg: { type: 'string' } } };
const variant = (code: string, extra: Record<string, unknown> = {}, required: string[] = []) => ({
  allOf: [
    { type: 'object', required: ['result', 'msg', 'code'], properties: { result: { const: 'error' }, msg: { type: 'string' } } },
    { type: 'object', required, properties: { code: { const: code }, ...extra } },
  ],
});
const json = (schema: unknown, examples?: Record<string, unknown>) => ({
  description: 'an answer',
  content: { 'application/json': { schema, ...(examples ? { examples } : {}) } },
});
const error = (code: string, msg: string, marks: Record<string, unknown> = {}) => ({ ...marks, value: { result: 'error', code, msg } });

const document = {
  openapi: '3.1.0',
  info: { title: 'mechanisms', version: '1' },
  security: [{ basicAuth: [] }],
  components: {
    responses: {
      Unauthorized: json(variant('INVALID_API_KEY'), { 'invalid-key': error('INVALID_API_KEY', 'Invalid API key') }),
    },
  },
  paths: {
    '/api/v1/things': {
      get: {
        operationId: 'get-things',
        'x-spec-section': 'companion',
        responses: {
          '200': json({
            allOf: [
              envelope,
              {
                type: 'object',
                required: ['things'],
                properties: {
                  things: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['id', 'newer', 'older', 'date_joined'],
                      properties: {
                        id: { type: 'integer' },
                        newer: { type: 'string', 'x-feature-level': { name: 'newer_field', level: 300 } },
                        older: { type: 'string', 'x-feature-level-removed': { name: 'older_field', level: 350 } },
                        date_joined: {
                          type: 'integer',
                          'x-reference-conflict': { spec: '§2.8', reference: 'answers an ISO 8601 text' },
                        },
                      },
                    },
                  },
                },
              },
            ],
          }),
          '400': json(
            {
              anyOf: [
                variant('BAD_REQUEST'),
                variant('REQUEST_VARIABLE_MISSING', { var_name: { type: 'string' } }, ['var_name']),
                variant('STREAM_DOES_NOT_EXIST', { stream_id: { type: 'integer' } }, ['stream_id']),
                { ...variant('REACTION_ALREADY_EXISTS'), 'x-feature-level': { name: 'reaction_codes', level: 193 } },
              ],
            },
            {
              'old-text': error('STREAM_DOES_NOT_EXIST', "Stream with ID '9' does not exist", {
                'x-feature-level-removed': { name: 'channel_texts', level: 250 },
              }),
              'new-text': error('STREAM_DOES_NOT_EXIST', "Channel with ID '9' does not exist", {
                'x-feature-level': { name: 'channel_texts', level: 250 },
              }),
            },
          ),
        },
      },
    },
    '/api/v1/legacy': {
      get: {
        operationId: 'get-legacy',
        'x-reference-conflict': { spec: '§4.9', reference: 'answers the older shape' },
        responses: { '200': json({ type: 'object', required: ['result', 'x'], properties: { x: { type: 'integer' } } }) },
      },
    },
    '/api/v1/events': {
      get: {
        operationId: 'get-events',
        security: [{}],
        responses: {
          '200': json({
            type: 'object',
            required: ['events'],
            properties: {
              events: {
                type: 'array',
                items: {
                  oneOf: [
                    {
                      type: 'object',
                      required: ['type', 'a'],
                      properties: { type: { const: 'alpha' }, a: { type: 'integer' }, ids: { type: 'array' } },
                    },
                    {
                      type: 'object',
                      required: ['type', 'b', 'c'],
                      properties: { type: { const: 'beta' }, ids: { type: 'array', 'x-feature-level': { name: 'beta_ids', level: 343 } } },
                    },
                  ],
                },
              },
            },
          }),
        },
      },
    },
  },
} as unknown as OpenAPIV3_1.Document;

const schemas = ResponseSchemas.of(document);
const judge = new Judge(schemas, ContractFacts.of(document), []);
const thing = (fields: Record<string, unknown>) => ({ result: 'success', msg: '', things: [{ id: 1, date_joined: 5, ...fields }] });
const problems = (path: string, status: number, body: unknown, level: JudgedLevel) =>
  schemas.problems('GET', path, status, body, level)?.problems ?? [];
const findings = (status: number, body: unknown, level: JudgedLevel, path = '/api/v1/things') =>
  judge.judge({ method: 'GET', path, params: {}, status, body }, level).findings;
const messages = (status: number, body: unknown, level: JudgedLevel, path?: string) =>
  findings(status, body, level, path).map((f) => f.message);

describe('response schemas by feature level', () => {
  it('requires a marked field only at the levels it exists at', () => {
    expect(problems('/api/v1/things', 200, thing({ older: 'o' }), 299)).toEqual([]);
    expect(problems('/api/v1/things', 200, thing({ older: 'o' }), 300)).toEqual([{ text: '/things/0/newer is missing' }]);
    expect(problems('/api/v1/things', 200, thing({ newer: 'n' }), 349)).toEqual([{ text: '/things/0/older is missing' }]);
    expect(problems('/api/v1/things', 200, thing({ newer: 'n' }), 350)).toEqual([]);
    // Unknown level: an answer of any level passes.
    expect(problems('/api/v1/things', 200, thing({}), null)).toEqual([]);
    // No level given: the document's current one, where `older` no longer exists.
    expect(schemas.forOperation('get-things', 200)(thing({ newer: 'n' }))).toBe(true);
  });

  it('compiles one validator per set of marks a level crosses', () => {
    const at = (level: JudgedLevel) => schemas.forOperation('get-things', 200, level);
    expect(at(100)).toBe(at(299));
    expect(at(300)).toBe(at(349));
    expect(at(350)).toBe(at(412));
    expect(new Set([at(299), at(300), at(350), at(null)]).size).toBe(4);
  });

  it('the suite checks the schema of the level it is given', () => {
    const x: Exchange = {
      method: 'GET',
      path: '/api/v1/things',
      as: null,
      params: {},
      status: 200,
      headers: {},
      body: thing({}),
      ms: 0,
      curl: '',
    };
    expect(ambientChecks([{ ...x, body: thing({ older: 'o' }) }], schemas, 299)).toEqual([]);
    expect(ambientChecks([{ ...x, body: thing({ older: 'o' }) }], schemas, 300).map((c) => c.message)).toEqual([
      'GET /api/v1/things → 200: does not match the OpenAPI response schema of get-things 200: /things/0/newer is missing',
    ]);
  });
});

describe('schema errors that name their cause', () => {
  it('reports only the variant whose code the answer carries', () => {
    const body = { result: 'error', code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'x' argument" };
    expect(problems('/api/v1/things', 400, body, 412)).toEqual([{ text: 'REQUEST_VARIABLE_MISSING variant: /var_name is missing' }]);
    const missing = { ...body, code: 'STREAM_DOES_NOT_EXIST', msg: "Channel with ID '9' does not exist" };
    expect(messages(400, missing, 412).filter((m) => m.includes('schema'))).toEqual([
      'does not match the OpenAPI response schema of get-things 400: STREAM_DOES_NOT_EXIST variant: /stream_id is missing',
    ]);
  });

  it('says when no variant has the answer’s code, once', () => {
    const body = { result: 'error', code: 'NO_SUCH_CODE', msg: 'x' };
    expect(problems('/api/v1/things', 400, body, 412)).toEqual([
      {
        text: '/code NO_SUCH_CODE is none of the documented variants (BAD_REQUEST, REQUEST_VARIABLE_MISSING, STREAM_DOES_NOT_EXIST, REACTION_ALREADY_EXISTS)',
      },
    ]);
    // The proxy reports it through its code check alone.
    expect(messages(400, body, 412)).toEqual([
      'error code NO_SUCH_CODE is not one get-things documents for HTTP 400 (BAD_REQUEST, REQUEST_VARIABLE_MISSING, STREAM_DOES_NOT_EXIST, REACTION_ALREADY_EXISTS)',
    ]);
  });

  it('picks the success variant by its type, else the closest one', () => {
    const events = (...e: unknown[]) => ({ events: e });
    expect(problems('/api/v1/events', 200, events({ type: 'beta', b: 1 }), 412)).toEqual([{ text: '/events/0/c is missing' }]);
    expect(problems('/api/v1/events', 200, events({ type: 'alpha', a: 'x' }), 412)).toEqual([
      { text: '/events/0/a must be of type integer' },
    ]);
    // Each item of a list is judged by its own variant.
    expect(problems('/api/v1/events', 200, events({ type: 'beta', b: 1 }, { type: 'alpha', a: 'x' }), 412)).toEqual([
      { text: '/events/0/c is missing' },
      { text: '/events/1/a must be of type integer' },
    ]);
    // No type: the branch with the fewest errors (alpha lacks one field, beta three).
    expect(problems('/api/v1/events', 200, events({ a: 1 }), 412)).toEqual([{ text: '/events/0/type is missing' }]);
  });

  it("labels a difference the document marks as the spec's deliberate one, apart from plain violations", () => {
    const body = { result: 'success', msg: '', things: [{ id: 'one', newer: 'n', date_joined: '2020-01-01T00:00:00Z' }] };
    const found = findings(200, body, 412);
    expect(found.map((f) => [f.kind ?? 'violation', f.message])).toEqual([
      ['violation', 'does not match the OpenAPI response schema of get-things 200: /things/0/id must be of type integer'],
      [
        'deliberate',
        'does not match the OpenAPI response schema of get-things 200: /things/0/date_joined must be of type integer ' +
          '(spec §2.8 deliberately differs from the reference: answers an ISO 8601 text)',
      ],
    ]);
    // A mark on the operation covers every schema difference of its answers.
    expect(findings(200, { result: 'success', msg: '' }, 412, '/api/v1/legacy').map((f) => [f.kind, f.message])).toEqual([
      [
        'deliberate',
        'does not match the OpenAPI response schema of get-legacy 200: /x is missing (spec §4.9 deliberately differs from the reference: answers the older shape)',
      ],
    ]);
    // A missing field whose own schema carries the mark counts too.
    const missing = { result: 'success', msg: '', things: [{ id: 1, newer: 'n' }] };
    expect(findings(200, missing, 412).map((f) => f.kind)).toEqual(['deliberate']);
  });
});

describe('fields newer than the announced level', () => {
  const events = (...e: unknown[]) => ({ result: 'success', msg: '', events: e });
  it('are reported in the variant the answer takes, not because another variant marks a field of that name', () => {
    expect(messages(200, events({ type: 'alpha', a: 1, ids: [1] }), 300, '/api/v1/events')).toEqual([]);
    expect(messages(200, events({ type: 'beta', b: 1, c: 1, ids: [1] }), 300, '/api/v1/events')).toEqual([
      '/events/0/ids is there, but beta_ids came at feature level 343 and the server announced 300 (no §9 rule names that level)',
    ]);
    expect(messages(200, events({ type: 'beta', b: 1, c: 1, ids: [1] }), 343, '/api/v1/events')).toEqual([]);
  });
});

describe('error answers by feature level', () => {
  const stream = (msg: string) => ({ result: 'error', code: 'STREAM_DOES_NOT_EXIST', msg, stream_id: 9 });
  const [older, newer] = ["Stream with ID '9' does not exist", "Channel with ID '9' does not exist"];

  it('accepts the text of the announced level and names the level of the other', () => {
    expect(messages(400, stream(older), 249)).toEqual([]);
    expect(messages(400, stream(newer), 250)).toEqual([]);
    expect(messages(400, stream(newer), 249)).toEqual([
      `msg ${JSON.stringify(newer)} is the STREAM_DOES_NOT_EXIST text from feature level 250; the server announced 249`,
    ]);
    expect(messages(400, stream(older), 250)).toEqual([
      `msg ${JSON.stringify(older)} is the STREAM_DOES_NOT_EXIST text below feature level 250; the server announced 250`,
    ]);
    expect(messages(400, stream('Channel 9 is gone'), 250)).toEqual([
      'msg "Channel 9 is gone" is none of the documented STREAM_DOES_NOT_EXIST messages at feature level 250',
    ]);
  });

  it('accepts either text when no level was announced', () => {
    expect(messages(400, stream(older), null)).toEqual([]);
    expect(messages(400, stream(newer), null)).toEqual([]);
  });

  it('accepts a code from the level its variant is marked with', () => {
    const duplicate = { result: 'error', code: 'REACTION_ALREADY_EXISTS', msg: 'Reaction already exists.' };
    expect(messages(400, duplicate, 193)).toEqual([]);
    expect(messages(400, duplicate, null)).toEqual([]);
    // The variant's mark dates its code, not a field: another variant's answer below the level is not reported.
    expect(messages(400, { result: 'error', code: 'BAD_REQUEST', msg: 'Invalid emoji name' }, 180)).toEqual([]);
    expect(messages(400, duplicate, 192)).toEqual([
      'error code REACTION_ALREADY_EXISTS is documented for get-things from feature level 193; the server announced 192',
    ]);
  });

  it('accepts the shared 401 answers on an operation a caller authenticates to, even when it lists none', () => {
    const invalid = { result: 'error', code: 'INVALID_API_KEY', msg: 'Invalid API key' };
    expect(messages(401, invalid, 412)).toEqual([]);
    expect(messages(401, { ...invalid, msg: 'Wrong key' }, 412)).toEqual([
      'msg "Wrong key" is none of the documented INVALID_API_KEY messages at feature level 412',
    ]);
    // An anonymous-only operation has no credentials to refuse.
    expect(messages(401, invalid, 412, '/api/v1/events')).toEqual(['get-events documents no error answer with HTTP 401']);
  });
});
