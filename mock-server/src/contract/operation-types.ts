import type { AnonymousOperationId, components, operations } from './operations.generated.js';

/**
 * Names for the generated types (operations.generated.ts, `npm run gen:types`): what a handler of an
 * operation receives and what it must answer, both read from openapi/team-chat.openapi.yaml.
 */
export type OperationId = keyof operations;
export type { AnonymousOperationId };

/** The decoded parameters (path, query and body in one object, JSON parsed, defaults filled in). */
export type ParamsOf<Id extends OperationId> = components['schemas'][`${Id}.parameters`];

type SuccessBody<Id extends OperationId> = operations[Id]['responses'] extends { 200: { content: { 'application/json': infer B } } }
  ? B
  : never;

/** Keys the pipeline adds itself (spec §1 envelope), and the envelope's open index signature. */
type EnvelopeKey = 'result' | 'msg' | 'ignored_parameters_unsupported';
type OwnFields<S> = S extends unknown
  ? { [K in keyof S as string extends K ? never : number extends K ? never : K extends EnvelopeKey ? never : K]: S[K] }
  : never;

/**
 * The success body without its envelope: the fields the handler answers with, resources included (a
 * listing of users answers `SchemaOf<'User'>[]`), so an answer built from a presenter that strays from
 * the document does not compile.
 */
export type AnswerOf<Id extends OperationId> = OwnFields<SuccessBody<Id>>;

/** A schema of the document's components, e.g. `SchemaOf<'User'>`. */
export type SchemaOf<Name extends keyof components['schemas']> = components['schemas'][Name];
