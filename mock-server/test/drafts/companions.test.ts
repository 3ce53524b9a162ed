import { beforeAll, describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { call } from '../helpers/test-server.js';
import { loadResponseSchemas } from '../helpers/response-schemas.js';
import { error, success, tables, useTestRealm, nowOf } from '../helpers/harness.js';
import {
  channelDraft,
  create,
  draftState,
  edit,
  list,
  MEMBER_2_DRAFT,
  MEMBER_DRAFTS,
  NEXT_ID,
  NO_DRAFT,
  pythonJson,
  remove,
  storedDrafts,
} from './support.js';

/**
 * The companions of §4.6 (reference §4.6 "Related"): GET /drafts, PATCH and DELETE /drafts/{draft_id}.
 * Not in the spec; they follow the reference server and the document's x-parse-order.
 */
const env = useTestRealm();
const member = () => env.who.member!;
const row = (id: number) => tables(env.server, env.realm).drafts[String(id)];

let validateList: ValidateFunction;
beforeAll(async () => {
  validateList = (await loadResponseSchemas())('get-drafts', 200);
});

describe('get-drafts', () => {
  it("the caller's drafts only, oldest first, as the document describes them", async () => {
    const res = await list(env.server, member());
    const expected = storedDrafts(env.server, env.realm, member().user_id)
      .sort((a, b) => a.timestamp - b.timestamp)
      .map(({ user_id: _u, ...d }) => d);
    expect(expected.map((d) => d.id).sort()).toEqual(MEMBER_DRAFTS);
    expect([res.status, res.body]).toEqual([200, success({ count: 3, drafts: expected })]);
    expect(validateList(res.body) ? [] : validateList.errors).toEqual([]);
  });

  it("equal timestamps are ordered by ID; another user's drafts never appear", async () => {
    const at = 1_800_000_000;
    await create(env.server, member(), [channelDraft({ timestamp: at, content: 'b' }), channelDraft({ timestamp: at, content: 'a' })]);
    const drafts = (await list(env.server, member())).body.drafts as { id: number }[];
    expect(drafts.slice(-2).map((d) => d.id)).toEqual([NEXT_ID, NEXT_ID + 1]);
    const theirs = await list(env.server, env.who.member_2!);
    expect(theirs.body).toMatchObject({ count: 1, drafts: [{ id: MEMBER_2_DRAFT }] });
    expect((await list(env.server, env.who.owner!)).body).toEqual(success({ count: 0, drafts: [] }));
  });
});

describe('edit-draft', () => {
  it("replaces the draft; a missing timestamp is now; the Python client's form body", async () => {
    const res = await edit(env.server, member(), 1, { type: 'private', to: [15], topic: 'dropped', content: 'Rewritten' });
    expect([res.status, res.body]).toEqual([200, success()]);
    expect(row(1)).toEqual({
      id: 1,
      user_id: member().user_id,
      type: 'private',
      to: [15],
      topic: '',
      content: 'Rewritten',
      timestamp: nowOf(env.server, env.realm),
    });
  });

  it('the JavaScript client sends PATCH parameters in the query string', async () => {
    const draft = JSON.stringify({ type: 'stream', to: [52], topic: 'moved', content: 'Query', timestamp: 1_767_000_000.75 });
    const res = await call(env.server, 'PATCH', '/api/v1/drafts/2', { as: member(), query: { draft } });
    expect([res.status, res.body]).toEqual([200, success()]);
    expect(row(2)).toMatchObject({ type: 'stream', to: [52], topic: 'moved', content: 'Query', timestamp: 1_767_000_000 });
  });

  it('a direct draft edited to no recipients becomes unaddressed', async () => {
    await edit(env.server, member(), 2, { type: 'private', to: [], topic: '', content: 'Later' });
    expect(row(2)).toMatchObject({ type: '', to: [], topic: '' });
  });

  // x-parse-order [draft_id, draft]: the path first (its shape before authentication even), then the
  // draft, whose blank-content rule is part of parsing; then the lookup; then the draft's own checks.
  type Case = [string, string, () => Promise<{ status: number; body: Record<string, unknown> }>, number, Record<string, unknown>];
  const cases: Case[] = [
    [
      'a draft_id that is no integer names no resource',
      'x',
      () => edit(env.server, member(), 'x', channelDraft()),
      404,
      error('Not Found'),
    ],
    [
      'draft missing',
      '1',
      () => call(env.server, 'PATCH', '/api/v1/drafts/1', { as: member() }),
      400,
      { result: 'error', code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'draft' argument", var_name: 'draft' },
    ],
    [
      'draft missing, on a draft that does not exist: parsing first',
      '999',
      () => call(env.server, 'PATCH', '/api/v1/drafts/999', { as: member() }),
      400,
      { result: 'error', code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'draft' argument", var_name: 'draft' },
    ],
    ['draft not JSON', '1', () => edit(env.server, member(), 1, '{type: stream}'), 400, error('draft is not valid JSON')],
    ['draft a list', '1', () => edit(env.server, member(), 1, [channelDraft()]), 400, error('draft is not a dict')],
    [
      'type direct',
      '1',
      () => edit(env.server, member(), 1, { type: 'direct', to: [15], topic: '', content: 'c' }),
      400,
      error('Invalid draft["type"]'),
    ],
    [
      'an id inside the draft',
      '1',
      () => edit(env.server, member(), 1, channelDraft({ id: 1 })),
      400,
      error('Argument "id" at draft is unexpected'),
    ],
    [
      'blank content beats a missing draft',
      '999',
      () => edit(env.server, member(), 999, channelDraft({ content: ' ' })),
      400,
      error('draft["content"] cannot be blank'),
    ],
    [
      "a missing draft beats the draft's own checks",
      '999',
      () => edit(env.server, member(), 999, channelDraft({ content: '\u0000', to: [999] })),
      404,
      NO_DRAFT,
    ],
    [
      "another user's draft does not exist for the caller",
      String(MEMBER_2_DRAFT),
      () => edit(env.server, member(), MEMBER_2_DRAFT, channelDraft()),
      404,
      NO_DRAFT,
    ],
    [
      'NUL in the content',
      '1',
      () => edit(env.server, member(), 1, channelDraft({ content: '\u0000' })),
      400,
      error('Message must not contain null bytes'),
    ],
    [
      'a negative timestamp',
      '1',
      () => edit(env.server, member(), 1, channelDraft({ timestamp: -5 })),
      400,
      error('Timestamp must not be negative.'),
    ],
    [
      'NUL in the topic',
      '1',
      () => edit(env.server, member(), 1, channelDraft({ topic: '\u0000' })),
      400,
      error('Topic must not contain null bytes'),
    ],
    [
      'two channels',
      '1',
      () => edit(env.server, member(), 1, channelDraft({ to: [51, 52] })),
      400,
      error('Must specify exactly 1 channel ID for channel messages'),
    ],
    ['an inaccessible channel', '1', () => edit(env.server, member(), 1, channelDraft({ to: [57] })), 400, error('Invalid channel ID')],
    [
      'an unknown user',
      '1',
      () => edit(env.server, member(), 1, { type: 'private', to: [999], topic: '', content: 'c' }),
      400,
      error('Invalid user ID 999'),
    ],
  ];
  it.each(cases)('%s', async (_name, _id, run, status, body) => {
    const before = draftState(env.server, env.realm);
    const res = await run();
    expect([res.status, res.body]).toEqual([status, body]);
    expect(draftState(env.server, env.realm)).toBe(before);
  });
});

describe('delete-draft', () => {
  it("deletes the caller's draft; a second delete finds nothing", async () => {
    expect(await remove(env.server, member(), 3).then((r) => [r.status, r.body])).toEqual([200, success()]);
    expect(row(3)).toBeUndefined();
    expect((await list(env.server, member())).body.count).toBe(2);
    expect(await remove(env.server, member(), 3).then((r) => [r.status, r.body])).toEqual([404, NO_DRAFT]);
  });

  it("the Python client's form body and the JavaScript client's empty body both work", async () => {
    const python = await call(env.server, 'DELETE', '/api/v1/drafts/1', { as: member(), form: {} });
    const js = await call(env.server, 'DELETE', '/api/v1/drafts/2', { as: member(), headers: { 'content-length': '0' } });
    expect([python.body, js.body]).toEqual([success(), success()]);
    // A copy of the path parameter in the body is not read from there (reference "Compatibility" 4).
    const copy = await call(env.server, 'DELETE', '/api/v1/drafts/3', { as: member(), form: { draft_id: '999' } });
    expect(copy.body).toEqual(success({ ignored_parameters_unsupported: ['draft_id'] }));
  });

  it.each([
    ["another user's draft", MEMBER_2_DRAFT, 404, NO_DRAFT],
    ['a draft that never existed', 999, 404, NO_DRAFT],
  ] as const)('%s: 404, nothing deleted', async (_name, id, status, body) => {
    const before = draftState(env.server, env.realm);
    const res = await remove(env.server, member(), id);
    expect([res.status, res.body]).toEqual([status, body]);
    expect(draftState(env.server, env.realm)).toBe(before);
  });

  it('a draft_id that is no integer names no resource', async () => {
    const res = await remove(env.server, member(), '1.5');
    expect([res.status, res.body]).toEqual([404, error('Not Found')]);
  });
});

describe('the stored form round-trips', () => {
  it('what the listing shows can be sent back unchanged as an edit (without id)', async () => {
    const before = (await list(env.server, member())).body.drafts as Record<string, unknown>[];
    for (const { id, ...draft } of before)
      expect((await edit(env.server, member(), id as number, pythonJson(draft))).body).toEqual(success());
    expect((await list(env.server, member())).body.drafts).toEqual(before);
  });
});
