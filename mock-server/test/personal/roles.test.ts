import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { success, useTestRealm } from '../helpers/harness.js';
import {
  ACTING_ROLES,
  addView,
  createSnippet,
  DEACTIVATED,
  deactivatedWho,
  deleteSnippet,
  editSnippet,
  editView,
  listSnippets,
  listViews,
  personalState,
  removeView,
  SNIPPET_MISSING,
  VIEW_MISSING,
} from './support.js';

/**
 * Who may do what (spec §5 names no restriction; reference: none). Snippets and views are per-user
 * data: every role manages its own through every operation, sees only its own, and cannot touch anyone
 * else's, whatever its role (an owner gets the same 404 for member_2's rows as a guest). Deactivated
 * credentials get 401 on every operation (§5).
 */
const env = useTestRealm();

describe.each(ACTING_ROLES)('%s', (role) => {
  it('creates, lists, edits and deletes their own snippets', async () => {
    const as = env.who[role]!;
    const before = (await listSnippets(env.server, as)).map((s) => s.id);
    const created = await createSnippet(env.server, as, { title: `${role} title`, content: `${role} text` });
    expect(created).toMatchObject({ status: 200, body: success({ saved_snippet_id: 4 }) });
    expect((await listSnippets(env.server, as)).map((s) => s.id)).toEqual([...before, 4]);
    expect(await editSnippet(env.server, as, 4, { title: 'Edited' })).toMatchObject({ status: 200, body: success() });
    expect((await listSnippets(env.server, as)).find((s) => s.id === 4)).toMatchObject({ title: 'Edited', content: `${role} text` });
    expect(await deleteSnippet(env.server, as, 4)).toMatchObject({ status: 200, body: success() });
    expect((await listSnippets(env.server, as)).map((s) => s.id)).toEqual(before);
  });

  it('adds, lists, edits and removes their own views, built-in and custom', async () => {
    const as = env.who[role]!;
    const before = await listViews(env.server, as);
    expect((await addView(env.server, as, { fragment: 'narrow/is/starred', is_pinned: 'false' })).body).toEqual(success());
    expect((await addView(env.server, as, { fragment: 'narrow/is/alerted', is_pinned: 'false', name: 'Alerts' })).body).toEqual(success());
    expect((await editView(env.server, as, 'narrow/is/starred', { is_pinned: 'true' })).body).toEqual(success());
    expect((await editView(env.server, as, 'narrow/is/alerted', { name: 'Alert words' })).body).toEqual(success());
    expect((await listViews(env.server, as)).filter((v) => String(v.fragment).startsWith('narrow/is/'))).toEqual([
      { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alert words' },
      { fragment: 'narrow/is/starred', is_pinned: true },
    ]);
    expect((await removeView(env.server, as, 'narrow/is/alerted')).body).toEqual(success());
    expect((await removeView(env.server, as, 'narrow/is/starred')).body).toEqual(success());
    expect(await listViews(env.server, as)).toEqual(before);
  });

  it('neither sees nor touches member_2’s snippets and views', async () => {
    const other = env.who.member_2!;
    const { body } = await createSnippet(env.server, other, { title: 'Private', content: 'Mine only' });
    const id = body.saved_snippet_id as number;
    await addView(env.server, other, { fragment: 'narrow/is/alerted', is_pinned: 'true', name: 'Alerts' });
    await addView(env.server, other, { fragment: 'recent', is_pinned: 'true' });
    const as = env.who[role]!;
    const state = personalState(env.server, env.realm);
    expect((await listSnippets(env.server, as)).map((s) => s.id)).not.toContain(id);
    expect((await listViews(env.server, as)).map((v) => v.fragment)).not.toContain('narrow/is/alerted');
    for (const res of [
      await editSnippet(env.server, as, id, { title: 'Taken' }),
      await editSnippet(env.server, as, id, {}),
      await deleteSnippet(env.server, as, id),
    ]) {
      expect([res.status, res.body]).toEqual([404, SNIPPET_MISSING]);
    }
    for (const res of [
      await editView(env.server, as, 'narrow/is/alerted', { is_pinned: 'false' }),
      await editView(env.server, as, 'recent', { is_pinned: 'false' }),
      await removeView(env.server, as, 'narrow/is/alerted'),
    ]) {
      expect([res.status, res.body]).toEqual([404, VIEW_MISSING]);
    }
    expect(personalState(env.server, env.realm)).toBe(state);
    // The name and fragment are member_2's alone: anyone else may use both.
    expect((await addView(env.server, as, { fragment: 'narrow/is/alerted', is_pinned: 'true', name: 'Alerts' })).body).toEqual(success());
  });
});

describe('deactivated credentials: 401 on every operation, nothing changes', () => {
  const operations: [string, string, string, Record<string, string>][] = [
    ['get-saved-snippets', 'GET', '/api/v1/saved_snippets', {}],
    ['create-saved-snippet', 'POST', '/api/v1/saved_snippets', { title: 'A', content: 'a' }],
    ['edit-saved-snippet', 'PATCH', '/api/v1/saved_snippets/1', { title: 'A' }],
    ['delete-saved-snippet', 'DELETE', '/api/v1/saved_snippets/1', {}],
    ['get-navigation-views', 'GET', '/api/v1/navigation_views', {}],
    ['add-navigation-view', 'POST', '/api/v1/navigation_views', { fragment: 'recent', is_pinned: 'true' }],
    ['edit-navigation-view', 'PATCH', '/api/v1/navigation_views/inbox', { is_pinned: 'false' }],
    ['remove-navigation-view', 'DELETE', '/api/v1/navigation_views/inbox', {}],
  ];
  it.each(operations)('%s', async (_op, method, path, params) => {
    const state = personalState(env.server, env.realm);
    const res = await call(env.server, method, path, {
      as: deactivatedWho(env.server, env.realm, env.who.deactivated!.user_id),
      ...(method === 'GET' ? { query: params } : { form: params }),
    });
    expect([res.status, res.body]).toEqual([401, DEACTIVATED]);
    expect(personalState(env.server, env.realm)).toBe(state);
  });
});
