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
 * A presented resource (a channel, a user, a message) is built by the domain's presenters as a plain
 * record whose fields follow the realm's feature level; its exact shape is checked at run time against the
 * same document (test/http/response-schemas.test.ts). At compile time the answer's own fields are
 * checked, and a resource field must at least be an object (or a list of objects).
 */
type Presented<T> = T extends readonly (infer E)[] ? Presented<E>[] : T extends object ? T | Record<string, unknown> : T;
type Answer<S> = S extends unknown ? { [K in keyof S]: Presented<S[K]> } : never;

/** The success body without its envelope: the fields the handler answers with. */
export type AnswerOf<Id extends OperationId> = Answer<OwnFields<SuccessBody<Id>>>;

/** A schema of the document's components, e.g. `SchemaOf<'User'>`. */
export type SchemaOf<Name extends keyof components['schemas']> = components['schemas'][Name];
