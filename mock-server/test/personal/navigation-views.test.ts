import { describe, expect, it } from 'vitest';
import { error, success, useTestRealm } from '../helpers/harness.js';
import {
  addView,
  BUILT_IN_NAMED,
  CUSTOM_UNNAMED,
  editView,
  LINK_VIEW,
  LINK_VIEW_NAME,
  listViews,
  personalState,
  removeView,
  TOPIC_VIEW,
  VIEW_EXISTS,
  VIEW_MISSING,
} from './support.js';

/**
 * Navigation views (spec §2.9, §4.12, C14; reference §2, §4.12): add, list, edit and remove with the
 * exact errors, the reference's order of checks and "a failed request changes nothing". Member (14) has
 * stored `inbox` and two custom views; `recent` and the other built-in views are not stored.
 */
const env = useTestRealm();
const BUILT_INS = ['inbox', 'recent', 'feed', 'drafts', 'narrow/has/reaction/sender/me', 'narrow/is/mentioned', 'narrow/is/starred'];
const missing = (name: string) => error(`Missing '${name}' argument`, 'REQUEST_VARIABLE_MISSING', { var_name: name });
const MEMBER_VIEWS = [
  { fragment: 'inbox', is_pinned: true },
  { fragment: TOPIC_VIEW, is_pinned: true, name: 'Indexing the circuit' },
  { fragment: LINK_VIEW, is_pinned: false, name: LINK_VIEW_NAME },
];

/** A request that must fail with `expected` and leave every view (and snippet) as it was. */
async function refused(
  request: Promise<{ status: number; body: Record<string, unknown> }>,
  status: number,
  expected: Record<string, unknown>,
) {
  const before = personalState(env.server, env.realm);
  const res = await request;
  expect([res.status, res.body]).toEqual([status, expected]);
  expect(personalState(env.server, env.realm)).toBe(before);
}

describe('add-navigation-view: parameters in the order fragment, is_pinned, name; then the checks', () => {
  const cases: [string, Record<string, string>, Record<string, unknown>][] = [
    ['nothing sent', {}, missing('fragment')],
    ['no is_pinned: required by the document', { fragment: 'narrow/is/alerted', name: 'Alerts' }, missing('is_pinned')],
    ['a blank fragment beats a missing is_pinned', { fragment: '   ' }, error('fragment cannot be blank')],
    ['is_pinned not JSON', { fragment: 'recent', is_pinned: 'True' }, error('is_pinned is not valid JSON')],
    ['is_pinned not a boolean', { fragment: 'recent', is_pinned: '1' }, error('is_pinned is not a boolean')],
    ['a missing is_pinned beats a blank name', { fragment: 'recent', name: '' }, missing('is_pinned')],
    ['a blank name, even for a built-in view', { fragment: 'recent', is_pinned: 'true', name: ' ' }, error('name cannot be blank')],
    ['a blank name for a custom view', { fragment: 'narrow/is/alerted', is_pinned: 'true', name: '' }, error('name cannot be blank')],
    ['a custom view without a name', { fragment: 'narrow/is/alerted', is_pinned: 'true' }, CUSTOM_UNNAMED],
    ['a fragment already stored (built-in)', { fragment: ' inbox ', is_pinned: 'false' }, VIEW_EXISTS],
    ['a fragment already stored (custom, another name)', { fragment: LINK_VIEW, is_pinned: 'true', name: 'Other' }, VIEW_EXISTS],
    ['a name another view uses', { fragment: 'narrow/is/alerted', is_pinned: 'true', name: ` ${LINK_VIEW_NAME} ` }, VIEW_EXISTS],
    ['a stored built-in view with a name: the name rule first', { fragment: 'inbox', is_pinned: 'true', name: 'Mine' }, BUILT_IN_NAMED],
    ...BUILT_INS.map((fragment): [string, Record<string, string>, Record<string, unknown>] => [
      `built-in ${fragment} with a name`,
      { fragment, is_pinned: 'true', name: 'Mine' },
      BUILT_IN_NAMED,
    ]),
  ];
  it.each(cases)('%s', async (_name, form, expected) => {
    await refused(addView(env.server, env.who.member!, form), 400, expected);
  });

  it('stores a built-in view without a name and a custom one with its stripped name, listed by fragment', async () => {
    expect(await addView(env.server, env.who.member!, { fragment: ' recent ', is_pinned: 'false' })).toMatchObject({
      status: 200,
      body: success(),
    });
    expect(
      await addView(env.server, env.who.member!, {
        fragment: 'narrow/channel/52-alarm/topic/a.20b',
        is_pinned: 'true',
        name: '  Alarm talk ',
      }),
    ).toMatchObject({ status: 200, body: success() });
    expect(await listViews(env.server, env.who.member!)).toEqual([
      MEMBER_VIEWS[0],
      MEMBER_VIEWS[1],
      { fragment: 'narrow/channel/52-alarm/topic/a.20b', is_pinned: true, name: 'Alarm talk' },
      MEMBER_VIEWS[2],
      { fragment: 'recent', is_pinned: false },
    ]);
  });

  it('every built-in fragment can be stored (once)', async () => {
    for (const fragment of BUILT_INS.slice(1))
      expect((await addView(env.server, env.who.member_2!, { fragment, is_pinned: 'true' })).body).toEqual(success());
    expect((await listViews(env.server, env.who.member_2!)).map((v) => v.fragment)).toEqual([...BUILT_INS.slice(1)].sort());
    await refused(addView(env.server, env.who.member_2!, { fragment: 'feed', is_pinned: 'true' }), 400, VIEW_EXISTS);
  });

  it('fragments and names are unique per user only: another user may use member’s', async () => {
    expect((await addView(env.server, env.who.member_2!, { fragment: LINK_VIEW, is_pinned: 'true', name: LINK_VIEW_NAME })).body).toEqual(
      success(),
    );
    expect((await addView(env.server, env.who.member_2!, { fragment: 'inbox', is_pinned: 'false' })).body).toEqual(success());
    expect(await listViews(env.server, env.who.member!)).toEqual(MEMBER_VIEWS);
  });
});

describe('get-navigation-views', () => {
  it('lists the caller’s stored views only; built-in views without a name (spec §2.9)', async () => {
    expect(await listViews(env.server, env.who.member!)).toEqual(MEMBER_VIEWS);
    expect(await listViews(env.server, env.who.owner!)).toEqual([]);
  });
});

describe('edit-navigation-view (§4.12): parse order fragment, is_pinned, name; then the reference’s checks', () => {
  const cases: [string, string, Record<string, string>, number, Record<string, unknown>][] = [
    ['a blank fragment', '%20', { is_pinned: 'true' }, 400, error('fragment cannot be blank')],
    ['is_pinned not JSON', LINK_VIEW, { is_pinned: 'yes' }, 400, error('is_pinned is not valid JSON')],
    ['is_pinned not a boolean beats a blank name', LINK_VIEW, { is_pinned: '"true"', name: '' }, 400, error('is_pinned is not a boolean')],
    ['an empty name', LINK_VIEW, { name: '' }, 400, error('name cannot be blank')],
    ['a blank name for an unknown view: parsing first', 'narrow/is/alerted', { name: '  ' }, 400, error('name cannot be blank')],
    ['a name for a stored built-in view', 'inbox', { name: 'Mine' }, 400, BUILT_IN_NAMED],
    [
      'a name for a built-in view never stored: the name rule before existence',
      'recent',
      { name: 'Mine', is_pinned: 'true' },
      400,
      BUILT_IN_NAMED,
    ],
    ['a name another view uses', TOPIC_VIEW.replace(/%/g, '%25'), { name: LINK_VIEW_NAME }, 400, VIEW_EXISTS],
    [
      'a used name for an unknown view: the duplicate rule before existence',
      'narrow/is/alerted',
      { name: LINK_VIEW_NAME },
      400,
      VIEW_EXISTS,
    ],
    ['an unknown custom view (C14)', 'narrow/is/alerted', { is_pinned: 'true' }, 404, VIEW_MISSING],
    ['a built-in view never stored (C14)', 'recent', { is_pinned: 'true' }, 404, VIEW_MISSING],
    ['an unknown view with nothing sent', 'narrow/is/alerted', {}, 404, VIEW_MISSING],
    ['a trailing slash is part of the fragment', `${LINK_VIEW}/`, { is_pinned: 'true' }, 404, VIEW_MISSING],
    ['a doubled slash is part of the fragment', '/inbox', { is_pinned: 'true' }, 404, VIEW_MISSING],
  ];
  it.each(cases)('%s', async (_name, fragment, form, status, expected) => {
    await refused(editView(env.server, env.who.member!, fragment, form), status, expected);
  });

  it('pins, hides and renames; each change only touches its field', async () => {
    expect(await editView(env.server, env.who.member!, LINK_VIEW, { is_pinned: 'true' })).toMatchObject({ status: 200, body: success() });
    expect(await editView(env.server, env.who.member!, 'inbox', { is_pinned: 'false' })).toMatchObject({ status: 200, body: success() });
    expect(await editView(env.server, env.who.member!, LINK_VIEW, { name: '  Shared links ' })).toMatchObject({
      status: 200,
      body: success(),
    });
    expect(await listViews(env.server, env.who.member!)).toEqual([
      { fragment: 'inbox', is_pinned: false },
      MEMBER_VIEWS[1],
      { fragment: LINK_VIEW, is_pinned: true, name: 'Shared links' },
    ]);
  });

  it('renaming a view to its own name is no duplicate; the old name is free afterwards', async () => {
    expect((await editView(env.server, env.who.member!, LINK_VIEW, { name: LINK_VIEW_NAME, is_pinned: 'false' })).body).toEqual(success());
    expect((await editView(env.server, env.who.member!, LINK_VIEW, { name: 'Elsewhere' })).body).toEqual(success());
    expect(
      (await addView(env.server, env.who.member!, { fragment: 'narrow/is/alerted', is_pinned: 'true', name: LINK_VIEW_NAME })).body,
    ).toEqual(success());
  });

  it('neither field sent and the view exists: success, nothing changes', async () => {
    const before = personalState(env.server, env.realm);
    expect(await editView(env.server, env.who.member!, LINK_VIEW, {})).toMatchObject({ status: 200, body: success() });
    expect(personalState(env.server, env.realm)).toBe(before);
  });
});

describe('fragments in the path (reference §4.12: the fragment spans the rest of the path)', () => {
  const forms: [string, string][] = [
    ['unencoded, several segments', LINK_VIEW],
    ['percent-encoded slashes', encodeURIComponent(LINK_VIEW)],
    ['some slashes encoded', 'narrow/has%2Flink/sender%2F15'],
    ['surrounding whitespace, stripped', `%20${LINK_VIEW}%09`],
  ];
  it.each(forms)('PATCH: %s', async (_name, path) => {
    expect(await editView(env.server, env.who.member!, path, { is_pinned: 'true' })).toMatchObject({ status: 200, body: success() });
    expect((await listViews(env.server, env.who.member!))[2]).toEqual({ fragment: LINK_VIEW, is_pinned: true, name: LINK_VIEW_NAME });
  });

  it.each(forms)('DELETE: %s', async (_name, path) => {
    expect(await removeView(env.server, env.who.member!, path)).toMatchObject({ status: 200, body: success() });
    expect(await listViews(env.server, env.who.member!)).toEqual(MEMBER_VIEWS.slice(0, 2));
  });

  it('a fragment holding a literal "%20" is reached with "%2520": the path is percent-decoded once', async () => {
    const fragment = 'narrow/search/two%20words';
    expect((await addView(env.server, env.who.member!, { fragment, is_pinned: 'true', name: 'Two words' })).body).toEqual(success());
    await refused(editView(env.server, env.who.member!, fragment, { is_pinned: 'false' }), 404, VIEW_MISSING);
    expect((await editView(env.server, env.who.member!, fragment.replace(/%/g, '%25'), { is_pinned: 'false' })).body).toEqual(success());
    expect((await removeView(env.server, env.who.member!, fragment.replace(/%/g, '%25'))).body).toEqual(success());
    expect(await listViews(env.server, env.who.member!)).toEqual(MEMBER_VIEWS);
  });

  it('a malformed percent-escape is a JSON 400, not a 500', async () => {
    const res = await editView(env.server, env.who.member!, 'narrow/%E0%A4%A', { is_pinned: 'true' });
    expect([res.status, res.body]).toEqual([400, error('Malformed URL.')]);
  });
});

describe('remove-navigation-view', () => {
  it.each([
    ['an unknown custom view', 'narrow/is/alerted'],
    ['a built-in view never stored', 'recent'],
    ['a fragment that differs only in case', 'Inbox'],
  ])('answers 404 NOT_FOUND for %s (C14) and removes nothing', async (_name, fragment) => {
    await refused(removeView(env.server, env.who.member!, fragment), 404, VIEW_MISSING);
  });

  it('removes a stored built-in view, which can then be stored again', async () => {
    expect(await removeView(env.server, env.who.member!, 'inbox')).toMatchObject({ status: 200, body: success() });
    expect(await listViews(env.server, env.who.member!)).toEqual(MEMBER_VIEWS.slice(1));
    await refused(removeView(env.server, env.who.member!, 'inbox'), 404, VIEW_MISSING);
    await refused(editView(env.server, env.who.member!, 'inbox', { is_pinned: 'true' }), 404, VIEW_MISSING);
    expect((await addView(env.server, env.who.member!, { fragment: 'inbox', is_pinned: 'false' })).body).toEqual(success());
    expect((await listViews(env.server, env.who.member!))[0]).toEqual({ fragment: 'inbox', is_pinned: false });
  });
});
