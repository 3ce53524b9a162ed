import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { drain, error, freshRealm, openQueue, success, useTestRealm, nowOf } from '../helpers/harness.js';
import { channelDraft, create, draftState, MEMBER_DRAFTS, NEXT_ID, storedDrafts } from './support.js';

/** POST /drafts (spec §4.6, §2.6; reference §4.6 for the parse errors, the check order and the texts). */
const env = useTestRealm();
const member = () => env.who.member!;
const unchanged = (before: string) => expect(draftState(env.server, env.realm)).toBe(before);

describe('create-drafts: parse errors come from the document (reference §1 "Parse-time error texts")', () => {
  const cases: [string, string, string][] = [
    ['not JSON', 'drafts', 'drafts is not valid JSON'],
    ['an unencoded list (JavaScript client without pre-encoding)', '[object Object]', 'drafts is not valid JSON'],
    ['an object instead of a list', '{"type": ""}', 'drafts is not a list'],
    ['a list of strings', '["x"]', 'drafts[0] is not a dict'],
    ['type direct is refused', '[{"type": "direct", "to": [15], "topic": "", "content": "c"}]', 'Invalid drafts[0]["type"]'],
    ['type channel is refused', '[{"type": "channel", "to": [51], "topic": "t", "content": "c"}]', 'Invalid drafts[0]["type"]'],
    [
      'the location names the element',
      '[{"type": "", "to": [], "topic": "", "content": "c"}, {"type": "x", "to": [], "topic": "", "content": "c"}]',
      'Invalid drafts[1]["type"]',
    ],
    ['empty content', '[{"type": "", "to": [], "topic": "", "content": ""}]', 'drafts[0]["content"] cannot be blank'],
    ['whitespace content', '[{"type": "", "to": [], "topic": "", "content": " \\n\\t "}]', 'drafts[0]["content"] cannot be blank'],
    ['an id is unexpected', '[{"type": "", "to": [], "topic": "", "content": "c", "id": 1}]', 'Argument "id" at drafts[0] is unexpected'],
    [
      'any unknown key is unexpected',
      '[{"type": "", "to": [], "topic": "", "content": "c", "stream_id": 51}]',
      'Argument "stream_id" at drafts[0] is unexpected',
    ],
    [
      'a missing key is named with its location',
      '[{"type": "stream", "topic": "t", "content": "c"}]',
      "Missing 'to' argument at drafts[0]",
    ],
    ['to not a list', '[{"type": "stream", "to": 51, "topic": "t", "content": "c"}]', 'drafts[0]["to"] is not a list'],
    ['to of names', '[{"type": "private", "to": ["a@b.c"], "topic": "", "content": "c"}]', 'drafts[0]["to"][0] is not an integer'],
    ['topic not a string', '[{"type": "stream", "to": [51], "topic": 5, "content": "c"}]', 'drafts[0]["topic"] is not a string'],
    [
      'timestamp quoted',
      '[{"type": "", "to": [], "topic": "", "content": "c", "timestamp": "5"}]',
      'drafts[0]["timestamp"] is not a float',
    ],
    [
      'a timestamp past year 9999 (it would not stay an integer on the wire)',
      '[{"type": "", "to": [], "topic": "", "content": "c", "timestamp": 1e300}]',
      'drafts[0]["timestamp"] is too large',
    ],
    [
      'the first second past year 9999',
      '[{"type": "", "to": [], "topic": "", "content": "c", "timestamp": 253402300800}]',
      'drafts[0]["timestamp"] is too large',
    ],
  ];
  it.each(cases)('%s', async (_name, drafts, msg) => {
    const before = draftState(env.server, env.realm);
    const res = await create(env.server, member(), drafts);
    expect([res.status, res.body]).toEqual([400, error(msg)]);
    unchanged(before);
  });

  it('a blank content anywhere in the batch beats the checks of earlier drafts: parsing comes first', async () => {
    const res = await create(env.server, member(), [
      channelDraft({ content: 'nul \u0000' }),
      channelDraft(),
      channelDraft({ content: '   ' }),
    ]);
    expect(res.body).toEqual(error('drafts[2]["content"] cannot be blank'));
  });
});

describe('create-drafts: the checks of reference §4.6, per draft, in order', () => {
  const topic61 = 'x'.repeat(60) + '\u0000';
  type Case = [string, string, unknown[], string];
  const cases: Case[] = [
    ['1. NUL in the content', 'member', [{ type: '', to: [], topic: '', content: 'a\u0000b' }], 'Message must not contain null bytes'],
    [
      '1 before 2: NUL beats a negative timestamp',
      'member',
      [{ type: '', to: [], topic: '', content: '\u0000', timestamp: -1 }],
      'Message must not contain null bytes',
    ],
    [
      '2. a negative timestamp',
      'member',
      [{ type: '', to: [], topic: '', content: 'c', timestamp: -1 }],
      'Timestamp must not be negative.',
    ],
    ['2. a negative float', 'member', [{ type: '', to: [], topic: '', content: 'c', timestamp: -0.5 }], 'Timestamp must not be negative.'],
    [
      '2 before 3: the timestamp beats a bad channel',
      'member',
      [channelDraft({ to: [999], timestamp: -3 })],
      'Timestamp must not be negative.',
    ],
    ['3. NUL in a channel topic', 'member', [channelDraft({ topic: 'a\u0000' })], 'Topic must not contain null bytes'],
    [
      '3. the topic comes before the channel count',
      'member',
      [channelDraft({ topic: '\u0000', to: [] })],
      'Topic must not contain null bytes',
    ],
    ['3. no channel ID', 'member', [channelDraft({ to: [] })], 'Must specify exactly 1 channel ID for channel messages'],
    ['3. two channel IDs', 'member', [channelDraft({ to: [51, 52] })], 'Must specify exactly 1 channel ID for channel messages'],
    [
      '3. the same channel twice is still two IDs',
      'member',
      [channelDraft({ to: [51, 51] })],
      'Must specify exactly 1 channel ID for channel messages',
    ],
    ['3. a channel that does not exist', 'member', [channelDraft({ to: [999] })], 'Invalid channel ID'],
    ['3. an archived channel', 'member', [channelDraft({ to: [56] })], 'Invalid channel ID'],
    ['3. a private channel without access', 'member', [channelDraft({ to: [57] })], 'Invalid channel ID'],
    ['3. a private channel a guest is not subscribed to', 'guest', [channelDraft({ to: [53] })], 'Invalid channel ID'],
    ['3. a public channel a guest is not subscribed to', 'guest', [channelDraft({ to: [52] })], 'Invalid channel ID'],
    ['4. an unknown user', 'member', [{ type: 'private', to: [15, 999], topic: '', content: 'c' }], 'Invalid user ID 999'],
    [
      '4. the lowest unknown user first',
      'member',
      [{ type: 'private', to: [999, 15, 998], topic: '', content: 'c' }],
      'Invalid user ID 998',
    ],
    [
      '4. the notification bot is no user of the realm',
      'member',
      [{ type: 'private', to: [22], topic: '', content: 'c' }],
      'Invalid user ID 22',
    ],
    [
      '4. unknown users before deactivated ones',
      'member',
      [{ type: 'private', to: [20, 999], topic: '', content: 'c' }],
      'Invalid user ID 999',
    ],
    [
      '4. a deactivated user (the text of the message layer)',
      'member',
      [{ type: 'private', to: [15, 20], topic: '', content: 'c' }],
      "'{deactivated}' is no longer using Zulip.",
    ],
    [
      'an unaddressed draft never looks at to',
      'member',
      [{ type: '', to: [999], topic: '\u0000', content: 'c' }, channelDraft({ to: [999] })],
      'Invalid channel ID',
    ],
    [
      'a direct draft never looks at its topic',
      'member',
      [{ type: 'private', to: [15], topic: '\u0000', content: 'c' }, channelDraft({ to: [] })],
      'Must specify exactly 1 channel ID for channel messages',
    ],
  ];
  it.each(cases)('%s', async (_name, role, drafts, msg) => {
    const before = draftState(env.server, env.realm);
    const res = await create(env.server, env.who[role]!, drafts);
    expect([res.status, res.body]).toEqual([400, error(msg.replace('{deactivated}', env.who.deactivated!.email))]);
    unchanged(before);
  });

  it('a NUL the truncation cuts away is no NUL: the topic is cut to 60 characters first', async () => {
    const res = await create(env.server, member(), [channelDraft({ topic: topic61 })]);
    expect(res.body).toEqual(success({ ids: [NEXT_ID] }));
    expect(storedDrafts(env.server, env.realm, member().user_id).at(-1)!.topic).toBe('x'.repeat(60));
  });
});

describe('create-drafts: the first failure aborts the whole batch', () => {
  it('the third draft invalid: nothing created, no ID taken, no event, the listing unchanged', async () => {
    const { queueId } = await openQueue(env.server, member());
    const before = draftState(env.server, env.realm);
    const listed = (await call(env.server, 'GET', '/api/v1/drafts', { as: member() })).body;
    const res = await create(env.server, member(), [
      channelDraft(),
      { type: '', to: [], topic: '', content: 'b' },
      channelDraft({ to: [53, 54] }),
    ]);
    expect([res.status, res.body]).toEqual([400, error('Must specify exactly 1 channel ID for channel messages')]);
    unchanged(before);
    expect((await call(env.server, 'GET', '/api/v1/drafts', { as: member() })).body).toEqual(listed);
    expect(await drain(env.server, member(), queueId)).toEqual([]);
    // The IDs the refused batch would have taken are still free.
    expect((await create(env.server, member(), [channelDraft()])).body).toEqual(success({ ids: [NEXT_ID] }));
  });
});

describe('create-drafts: what is stored', () => {
  it('drafts absent (C6), null (not given) or an empty list: {"ids": []}, nothing created', async () => {
    const before = draftState(env.server, env.realm);
    for (const form of [{}, { drafts: 'null' }, { drafts: '[]' }] as Record<string, string>[]) {
      const res = await call(env.server, 'POST', '/api/v1/drafts', { as: member(), form });
      expect([res.status, res.body]).toEqual([200, success({ ids: [] })]);
    }
    unchanged(before);
  });

  it('a batch: IDs in input order; the type, to and topic rules of §2.6 and reference §4.6 step 5', async () => {
    const now = nowOf(env.server, env.realm);
    const res = await create(env.server, member(), [
      { type: 'stream', to: [51], topic: 'y'.repeat(70), content: ' spaced content ' },
      { type: 'private', to: [], topic: 'dropped', content: 'no one yet' },
      { type: '', to: [15, 16], topic: 'dropped', content: 'unaddressed', timestamp: 1_700_000_000.9 },
      { type: 'private', to: [19, 14, 15, 19], topic: 'dropped', content: 'group', timestamp: now + 86_400 },
      { type: 'private', to: [14], topic: '', content: 'note to self', timestamp: 0 },
    ]);
    expect(res.body).toEqual(success({ ids: [5, 6, 7, 8, 9] }));
    const rows = storedDrafts(env.server, env.realm, member().user_id).filter((d) => !MEMBER_DRAFTS.includes(d.id));
    expect(rows.map(({ user_id: _u, ...d }) => d)).toEqual([
      { id: 5, type: 'stream', to: [51], topic: 'y'.repeat(60), content: ' spaced content ', timestamp: now },
      { id: 6, type: '', to: [], topic: '', content: 'no one yet', timestamp: now },
      { id: 7, type: '', to: [], topic: '', content: 'unaddressed', timestamp: 1_700_000_000 },
      // The caller is left out of a group and kept for a note to self; duplicates go, IDs ascend.
      { id: 8, type: 'private', to: [15, 19], topic: '', content: 'group', timestamp: now + 86_400 },
      { id: 9, type: 'private', to: [14], topic: '', content: 'note to self', timestamp: 0 },
    ]);
  });

  it.each([
    ['general chat', ''],
    ['(no topic)', ''],
    [' spaced ', ' spaced '],
    ['', ''],
  ])('a channel draft with topic %j is stored as %j (spec §1 at level 412)', async (topic, stored) => {
    await create(env.server, member(), [channelDraft({ topic })]);
    expect(storedDrafts(env.server, env.realm, member().user_id).at(-1)!.topic).toBe(stored);
  });

  it.each([
    [333, 'general chat', 'general chat'],
    [369, '(no topic)', '(no topic)'],
    [369, 'general chat', ''],
    [370, '(no topic)', ''],
  ] as const)('at level %i the topic %j is stored as %j (§9: 334, 370)', async (level, topic, stored) => {
    const { realm, who } = await freshRealm(env.server, level);
    expect((await create(env.server, who.member!, [channelDraft({ topic })])).body).toEqual(success({ ids: [NEXT_ID] }));
    expect(storedDrafts(env.server, realm, who.member!.user_id).at(-1)!.topic).toBe(stored);
  });
});

describe('create-drafts: the stock clients and the envelope', () => {
  const drafts = [{ type: 'stream', to: [51], topic: 'wire', content: 'from a client', timestamp: 1_767_600_000 }];

  it('JavaScript: multipart with compact JSON (reference §4.6 "Wire")', async () => {
    const res = await call(env.server, 'POST', '/api/v1/drafts', { as: member(), multipart: { drafts: JSON.stringify(drafts) } });
    expect([res.status, res.body]).toEqual([200, success({ ids: [NEXT_ID] })]);
  });

  it('Python: a form body with JSON spaced after "," and ":"', async () => {
    const spaced = '[{"type": "stream", "to": [51], "topic": "wire", "content": "from a client", "timestamp": 1767600000}]';
    const res = await call(env.server, 'POST', '/api/v1/drafts', { as: member(), form: { drafts: spaced } });
    expect([res.status, res.body]).toEqual([200, success({ ids: [NEXT_ID] })]);
    expect(storedDrafts(env.server, env.realm, member().user_id).at(-1)).toMatchObject({ topic: 'wire', timestamp: 1_767_600_000 });
  });

  it('a key the operation does not read is listed from level 167, and not below (spec §1)', async () => {
    const form = { drafts: JSON.stringify(drafts), draft: 'x' };
    expect((await call(env.server, 'POST', '/api/v1/drafts', { as: member(), form })).body).toEqual(
      success({ ids: [NEXT_ID], ignored_parameters_unsupported: ['draft'] }),
    );
    const old = await freshRealm(env.server, 166);
    expect((await call(env.server, 'POST', '/api/v1/drafts', { as: old.who.member!, form })).body).toEqual(success({ ids: [NEXT_ID] }));
  });
});
