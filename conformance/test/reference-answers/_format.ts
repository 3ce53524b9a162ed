import { Ajv2020 } from 'ajv/dist/2020.js';
import { CURRENT_LEVEL, FEATURE_NAMES, levelOf } from '../../src/openapi.js';

/** Answers may be of any level the feature-level table names, a later one than the current included (441). */
const NEWEST_LEVEL = Math.max(CURRENT_LEVEL, ...FEATURE_NAMES.map(levelOf));

/**
 * The format of a reference-answer file (one JSON file per topic in this folder): answers the reference server
 * documents, written as facts in our own words, each replayed through the proxy's judge and the suite's
 * ambient checks at its feature level by `../reference-answers.test.ts`.
 */
export interface ReferenceAnswer {
  id: string;
  level: number;
  /** Where the reference documents it: `reference <operation-id>: <fact> (feature level N)`. */
  source: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
  /** Path under /api/v1/, without the query string. */
  path: string;
  /** The request keys as sent (query string and form fields), as text. */
  params?: Record<string, string>;
  status: number;
  body: unknown;
  /** Words the findings the spec deliberately differs on must contain (each labelled as such). */
  deliberate?: string[];
}

export interface ReferenceAnswerFile {
  $comment: string;
  answers: ReferenceAnswer[];
}

const FILE_SCHEMA = {
  type: 'object',
  required: ['$comment', 'answers'],
  additionalProperties: false,
  properties: {
    $comment: { type: 'string', minLength: 1 },
    answers: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['id', 'level', 'source', 'method', 'path', 'status', 'body'],
        additionalProperties: false,
        properties: {
          id: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]*$' },
          level: { type: 'integer', minimum: 1, maximum: NEWEST_LEVEL },
          source: { type: 'string', pattern: '^reference \\S' },
          method: { enum: ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'] },
          path: { type: 'string', pattern: '^/api/v1/[^?#]*$' },
          params: { type: 'object', additionalProperties: { type: 'string' } },
          status: { type: 'integer', minimum: 100, maximum: 599 },
          body: {},
          deliberate: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
        },
      },
    },
  },
};

const validate = new Ajv2020({ allErrors: true }).compile(FILE_SCHEMA);

/** What is wrong with a parsed file (empty when it is well-formed): the test refuses a malformed file. */
export function formatProblems(file: unknown): string[] {
  if (validate(file)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`);
}
