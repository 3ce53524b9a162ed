import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { error, success, useTestRealm } from '../helpers/harness.js';
import { createSnippet, deleteSnippet, editSnippet, listSnippets, OWNER_SNIPPET, personalState, SNIPPET_MISSING } from './support.js';

/**
 * Saved snippets (spec §2.10, §4.14, C15; reference §4.14): create, list, edit and delete with the exact
 * errors, the parse order (create: title, content; edit: content, path ID, title) and "a failed request
 * changes nothing". Events, roles and stock-client wire forms have their own files.
 */
const env = useTestRealm();
const now = () => (env.server.control.clock(env.realm) as { now: number }).now;
const X = (n: number) => 'x'.repeat(n);
const missing = (name: string) => error(`Missing '${name}' argument`, 'REQUEST_VARIABLE_MISSING', { var_name: name });

describe('create-saved-snippet: parameters in the order title, content', () => {
  const cases: [string, Record<string, string>, Record<string, unknown>][] = [
    ['nothing sent', {}, missing('title')],
    ['no content', { title: 'A' }, missing('content')],
    ['content without a title', { content: 'Hi' }, missing('title')],
    ['a blank title beats a blank content', { title: '  ', content: ' ' }, error('title cannot be blank')],
    ['an empty title', { title: '', content: 'Hi' }, error('title cannot be blank')],
    ['a title longer than 60 characters', { title: X(61), content: 'Hi' }, error('title is too long (limit: 60 characters)')],
    ['a too long title beats a missing content', { title: X(61) }, error('title is too long (limit: 60 characters)')],
    ['a blank content', { title: 'A', content: ' \n\t ' }, error('content cannot be blank')],
    ['a content longer than 10000 characters', { title: 'A', content: X(10_001) }, error('content is too long (limit: 10000 characters)')],
  ];
  it.each(cases)('%s', async (_name, form, expected) => {
    const before = personalState(env.server, env.realm);
    const res = await createSnippet(env.server, env.who.member!, form);
    expect([res.status, res.body]).toEqual([400, expected]);
    expect(personalState(env.server, env.realm)).toBe(before);
  });

  it('stores the stripped values at the limits and answers the new ID; date_created is the realm’s time', async () => {
    await env.server.control.advanceRealm(env.realm, 3600);
    const res = await createSnippet(env.server, env.who.member!, { title: `  ${'🙂'.repeat(60)} `, content: `\n ${X(10_000)} \n` });
    expect([res.status, res.body]).toEqual([200, success({ saved_snippet_id: 4 })]);
    const list = await listSnippets(env.server, env.who.member!);
    expect(list.map((s) => s.id)).toEqual([1, 2, 4]);
    expect(list[2]).toEqual({ id: 4, title: '🙂'.repeat(60), content: X(10_000), date_created: now() });
    expect(list[2]!.date_created).toBe(1_767_603_600 + 3600);
  });

  it('IDs keep counting across users; a deleted ID is never reused', async () => {
    expect((await createSnippet(env.server, env.who.guest!, { title: 'A', content: 'a' })).body).toEqual(success({ saved_snippet_id: 4 }));
    expect((await deleteSnippet(env.server, env.who.guest!, 4)).body).toEqual(success());
    expect((await createSnippet(env.server, env.who.member!, { title: 'B', content: 'b' })).body).toEqual(success({ saved_snippet_id: 5 }));
  });

  it('allows two snippets with the same title and content (no uniqueness rule)', async () => {
    const form = { title: 'Same', content: 'Same' };
    expect((await createSnippet(env.server, env.who.member!, form)).body).toEqual(success({ saved_snippet_id: 4 }));
    expect((await createSnippet(env.server, env.who.member!, form)).body).toEqual(success({ saved_snippet_id: 5 }));
  });
});

describe('get-saved-snippets', () => {
  it('lists the caller’s snippets by ID with the §2.10 fields only', async () => {
    const list = await listSnippets(env.server, env.who.member!);
    expect(list.map((s) => s.id)).toEqual([1, 2]);
    for (const s of list) expect(Object.keys(s).sort()).toEqual(['content', 'date_created', 'id', 'title']);
    expect((await listSnippets(env.server, env.who.owner!)).map((s) => s.id)).toEqual([OWNER_SNIPPET]);
    expect(await listSnippets(env.server, env.who.member_2!)).toEqual([]);
  });
});

describe('edit-saved-snippet: parse order content, path ID, title; then existence (C15)', () => {
  const cases: [string, number | string, Record<string, string>, number, Record<string, unknown>][] = [
    ['a blank content beats a blank title', 1, { content: ' ', title: ' ' }, 400, error('content cannot be blank')],
    [
      'a too long content beats a too long title',
      1,
      { content: X(10_001), title: X(61) },
      400,
      error('content is too long (limit: 10000 characters)'),
    ],
    ['a blank content beats an unknown ID', 999, { content: '' }, 400, error('content cannot be blank')],
    ['a blank title beats an unknown ID', 999, { title: '' }, 400, error('title cannot be blank')],
    [
      "a too long title beats another user's snippet",
      OWNER_SNIPPET,
      { title: X(61) },
      400,
      error('title is too long (limit: 60 characters)'),
    ],
    ['an unknown ID', 999, { title: 'New' }, 404, SNIPPET_MISSING],
    ["another user's snippet", OWNER_SNIPPET, { title: 'New', content: 'New' }, 404, SNIPPET_MISSING],
    ['an unknown ID with nothing sent (C15)', 999, {}, 404, SNIPPET_MISSING],
    ["another user's snippet with nothing sent (C15)", OWNER_SNIPPET, {}, 404, SNIPPET_MISSING],
    ['a huge ID', '99999999999999999999', { title: 'New' }, 404, SNIPPET_MISSING],
    ['an ID that is not a number: no such path', 'abc', { title: '' }, 404, error('Not Found')],
    ['a negative ID: no such path', '-1', { title: 'New' }, 404, error('Not Found')],
  ];
  it.each(cases)('%s', async (_name, id, form, status, expected) => {
    const before = personalState(env.server, env.realm);
    const res = await editSnippet(env.server, env.who.member!, id, form);
    expect([res.status, res.body]).toEqual([status, expected]);
    expect(personalState(env.server, env.realm)).toBe(before);
  });

  it('nothing sent and the snippet is the caller’s: success, nothing changes', async () => {
    const before = personalState(env.server, env.realm);
    expect(await editSnippet(env.server, env.who.member!, 1, {})).toMatchObject({ status: 200, body: success() });
    expect(personalState(env.server, env.realm)).toBe(before);
  });

  it('changes only what is sent, stripped; id and date_created stay', async () => {
    const [first] = await listSnippets(env.server, env.who.member!);
    await env.server.control.advanceRealm(env.realm, 600);
    expect((await editSnippet(env.server, env.who.member!, 1, { title: '  Renamed ' })).body).toEqual(success());
    expect((await listSnippets(env.server, env.who.member!))[0]).toEqual({ ...first, title: 'Renamed' });
    expect((await editSnippet(env.server, env.who.member!, 1, { content: ' New **text** ' })).body).toEqual(success());
    expect((await listSnippets(env.server, env.who.member!))[0]).toEqual({ ...first, title: 'Renamed', content: 'New **text**' });
    expect((await editSnippet(env.server, env.who.member!, 1, { content: X(10_000), title: X(60) })).body).toEqual(success());
    expect((await listSnippets(env.server, env.who.member!))[0]).toEqual({ ...first, title: X(60), content: X(10_000) });
  });
});

describe('delete-saved-snippet', () => {
  it.each([
    ['an unknown ID', 999],
    ["another user's snippet", OWNER_SNIPPET],
  ])('answers 404 for %s and deletes nothing', async (_name, id) => {
    const before = personalState(env.server, env.realm);
    const res = await deleteSnippet(env.server, env.who.member!, id);
    expect([res.status, res.body]).toEqual([404, SNIPPET_MISSING]);
    expect(personalState(env.server, env.realm)).toBe(before);
  });

  it('deletes the caller’s snippet; a second delete and an edit of it are 404', async () => {
    expect(await deleteSnippet(env.server, env.who.member!, 2)).toMatchObject({ status: 200, body: success() });
    expect((await listSnippets(env.server, env.who.member!)).map((s) => s.id)).toEqual([1]);
    expect(await deleteSnippet(env.server, env.who.member!, 2)).toMatchObject({ status: 404, body: SNIPPET_MISSING });
    expect(await editSnippet(env.server, env.who.member!, 2, {})).toMatchObject({ status: 404, body: SNIPPET_MISSING });
  });

  it('a path ID that is not a number names no resource', async () => {
    const res = await call(env.server, 'DELETE', '/api/v1/saved_snippets/1.0', { as: env.who.member! });
    expect([res.status, res.body]).toEqual([404, error('Not Found')]);
  });
});
