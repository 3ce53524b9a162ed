import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AnswerOf, SchemaOf } from '../../src/contract/operation-types.js';
import { defineRoute } from '../../src/http/define-routes.js';

/**
 * A route's answer is typed from the document down to its resources: a listing of saved snippets
 * answers SavedSnippet objects, not any record. `npm run typecheck` checks this file; each
 * `@ts-expect-error` fails it when the line below it compiles. (A field the schema does not name is
 * caught in the presenters, whose return types are declared: TypeScript does not check excess fields
 * of an object an arrow function returns without one.)
 */

const snippet = { id: 1, title: 't', content: 'c', date_created: 0 };

// Never served: what matters is which of these compile.
export const answers = [
  defineRoute('get-saved-snippets', { handle: () => ({ saved_snippets: [snippet] }) }),
  defineRoute('get-saved-snippets', {
    // @ts-expect-error date_created is a number in SavedSnippet
    handle: () => ({ saved_snippets: [{ ...snippet, date_created: 'yesterday' }] }),
  }),
  defineRoute('get-saved-snippets', {
    // @ts-expect-error a record of unknown fields is not a SavedSnippet
    handle: () => ({ saved_snippets: [snippet as Record<string, unknown>] }),
  }),
];

describe('route answers follow the document', () => {
  it('types resource fields with the schemas', () => {
    expectTypeOf<AnswerOf<'get-users'>['members']>().toEqualTypeOf<SchemaOf<'User'>[]>();
    expectTypeOf<AnswerOf<'get-message'>['message']>().toEqualTypeOf<SchemaOf<'Message'>>();
    // Message is MessageFields with the caller's flags required, not an object that admits no field.
    expectTypeOf<SchemaOf<'Message'>['flags']>().toEqualTypeOf<string[]>();
    expectTypeOf<SchemaOf<'Message'>>().toMatchTypeOf<SchemaOf<'MessageFields'>>();
    // The envelope's keys are the pipeline's own.
    expectTypeOf<AnswerOf<'get-users'>>().not.toHaveProperty('result');
    expect(answers.map((route) => route.operationId)).toEqual(['get-saved-snippets', 'get-saved-snippets', 'get-saved-snippets']);
  });
});
