import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadOperations, type OperationSpec } from '../../src/http/openapi.js';
import { checkPathShape, readParams, type ParamSources } from '../../src/http/params.js';

let edit: OperationSpec;
let list: OperationSpec;
beforeAll(async () => {
  const ops = await loadOperations(fileURLToPath(new URL('./data/mini.openapi.yaml', import.meta.url)));
  edit = ops.find((o) => o.operationId === 'edit-thing')!;
  list = ops.find((o) => o.operationId === 'list-things')!;
});

const sources = (body: Record<string, string>, query: Record<string, string> = {}, path = { thing_id: '7' }): ParamSources => ({
  path,
  body,
  query,
});
const errorOf = (op: () => OperationSpec, s: ParamSources) => {
  try {
    readParams(op(), s);
  } catch (e) {
    return { ...(e as { body(): object }).body(), status: (e as { status: number }).status };
  }
  throw new Error('expected an error');
};

describe('readParams', () => {
  it('decodes typed values, applies defaults and reads the body before the query string', () => {
    const { params, ignored } = readParams(
      edit,
      sources({ content: 'body wins', to: '[1, 2]', topic: '  t  ' }, { content: 'query', extra: '1' }),
    );
    expect(params).toEqual({ content: 'body wins', thing_id: 7, to: [1, 2], flag: false, topic: 't' });
    expect(ignored).toEqual(['extra']);
  });

  it('takes parameters from the query string for PATCH too, and lists a repeated path parameter as ignored', () => {
    const { params, ignored } = readParams(edit, sources({}, { content: 'x', thing_id: '7', to: '5' }));
    expect(params).toMatchObject({ content: 'x', thing_id: 7, to: 5 });
    expect(ignored).toEqual(['thing_id']);
  });

  it.each([
    [{}, 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument"],
    [{ content: 'x', flag: 'True' }, 'BAD_REQUEST', 'flag is not valid JSON'],
    [{ content: 'x', flag: '1' }, 'BAD_REQUEST', 'flag is not a boolean'],
    [{ content: 'x', count: '"5"' }, 'BAD_REQUEST', 'count is not an integer'],
    [{ content: 'x', count: '5.0' }, 'BAD_REQUEST', 'count is not an integer'],
    [{ content: 'x', count: '0' }, 'BAD_REQUEST', 'count is too small'],
    [{ content: 'x', count: '11' }, 'BAD_REQUEST', 'count is too large'],
    [{ content: 'x', to: 'general,dev' }, 'BAD_REQUEST', 'to is not valid JSON'],
    [{ content: 'x', to: 'undefined' }, 'BAD_REQUEST', 'to is not valid JSON'],
    [{ content: 'x', status_text: 'x'.repeat(61) }, 'BAD_REQUEST', 'status_text is too long (limit: 60 characters)'],
    [{ content: 'x', kind: 'ham' }, 'BAD_REQUEST', 'Invalid kind: Value error, Not in the list of possible values'],
    [{ content: 'x', drafts: '[{"type":"direct","content":"c"}]' }, 'BAD_REQUEST', 'Invalid drafts[0]["type"]'],
    [{ content: 'x', drafts: '[{"type":"","content":"c","id":1}]' }, 'BAD_REQUEST', 'Argument "id" at drafts[0] is unexpected'],
    [{ content: 'x', drafts: '[{"type":""}]' }, 'BAD_REQUEST', "Missing 'content' argument at drafts[0]"],
    [{ content: 'x', drafts: '{"a":1}' }, 'BAD_REQUEST', 'drafts is not a list'],
    [{ content: 'x', topic: 'a', subject: 'b' }, 'REQUEST_CONFUSING_VAR', "Can't decide between 'topic' and 'subject' arguments"],
  ])('%j → %s %s', (body, code, msg) => {
    expect(errorOf(() => edit, sources(body as Record<string, string>))).toMatchObject({ result: 'error', code, msg, status: 400 });
  });

  it('reports the first bad parameter in parse order', () => {
    // content is first in x-parse-order, so its absence wins over the malformed flag.
    expect(errorOf(() => edit, sources({ flag: 'nope' }))).toMatchObject({ msg: "Missing 'content' argument", var_name: 'content' });
  });

  it('reads the literal null as "not given", except where null is a value', () => {
    const { params } = readParams(edit, sources({ content: 'x', flag: 'null', folder_id: 'null', to: 'null' }));
    expect(params.flag).toBe(false);
    expect(params.folder_id).toBeNull();
    expect('to' in params).toBe(false);
  });

  it('answers 404 for a path segment that must be an integer but is not', () => {
    expect(() => checkPathShape(edit, { thing_id: 'abc' })).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => checkPathShape(edit, { thing_id: '-1' })).toThrow(expect.objectContaining({ status: 404 }));
    expect(() => checkPathShape(edit, { thing_id: '12' })).not.toThrow();
  });

  it('accepts the subject alias and JSON with or without spaces', () => {
    expect(readParams(edit, sources({ content: 'x', subject: 'via alias' })).params.topic).toBe('via alias');
    expect(readParams(list, sources({}, { narrow: '[["is", "dm"]]' })).params.narrow).toEqual([['is', 'dm']]);
    expect(readParams(list, sources({}, { narrow: '[["is","dm"]]' })).params.narrow).toEqual([['is', 'dm']]);
  });

  it('strips before checking length, so whitespace is blank', () => {
    expect(errorOf(() => list, sources({}, { name: '   ' }))).toMatchObject({ msg: 'name cannot be blank' });
  });
});
