import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-server.js';
import { CH, channelRow, err, OK, patch, streamAsAdmin, useDemoServer, type FormInput } from './support.js';

/**
 * PATCH /api/v1/streams/{stream_id}: topics_policy (spec §3 transition), message_retention_days, folder_id,
 * new_name and description (spec §4.16; reference §1 value parsing and channel names, §4.16 checks 5, 7, 10).
 * The owner acts unless stated: an organization administrator may edit any property (§4.16).
 */

const env = useDemoServer();

/** Asserts a refusal and that the channel is exactly as before (a failed request changes nothing). */
async function refused(id: number, values: FormInput, msg: string, as = env.who.owner!): Promise<void> {
  const before = structuredClone(channelRow(env.server, id));
  const res = await patch(env.server, as, id, values);
  expect([res.status, res.body]).toEqual([400, err(msg)]);
  expect(channelRow(env.server, id)).toEqual(before);
}
async function accepted(id: number, values: FormInput, after: Record<string, unknown>): Promise<void> {
  const res = await patch(env.server, env.who.owner!, id, values);
  expect(res.body).toEqual(OK);
  expect(await streamAsAdmin(env.server, id)).toMatchObject(after);
}

const EMPTY_ONLY_REFUSED = 'To allow only the general chat topic, move every message of this channel to it first.';

describe('topics_policy (§3, §4.16)', () => {
  it.each([
    ['inherit', CH.disable_empty_topic],
    ['allow_empty_topic', CH.public],
    ['disable_empty_topic', CH.public],
    ['allow_empty_topic', CH.empty_topic_only],
  ])('accepts %s on channel %i', async (policy, id) => {
    await accepted(id, { topics_policy: policy }, { topics_policy: policy });
  });

  it.each([
    ['51, which mixes the empty topic and named topics', CH.public],
    ['59, whose messages all have named topics', CH.disable_empty_topic],
  ])('refuses empty_topic_only for %s', async (_label, id) => {
    await refused(id, { topics_policy: 'empty_topic_only' }, EMPTY_ONLY_REFUSED);
  });

  it('accepts empty_topic_only for 58, whose messages are all in the empty topic', async () => {
    const topics = Object.values(env.server.context.store.realm('demo')!.messages)
      .filter((m) => m.stream_id === CH.empty_topic_only)
      .map((m) => m.subject);
    expect(topics.length).toBeGreaterThan(0);
    expect(new Set(topics)).toEqual(new Set(['']));
    await accepted(CH.empty_topic_only, { topics_policy: 'allow_empty_topic' }, { topics_policy: 'allow_empty_topic' });
    await accepted(CH.empty_topic_only, { topics_policy: 'empty_topic_only' }, { topics_policy: 'empty_topic_only' });
  });

  it('refuses an unknown policy at parse time, before the channel lookup', async () => {
    for (const id of [CH.public, 999]) {
      const res = await patch(env.server, env.who.owner!, id, { topics_policy: 'sometimes' });
      expect([res.status, res.body]).toEqual([400, err('Invalid topics_policy')]);
    }
  });
});

describe('message_retention_days (§4.16, C17)', () => {
  // JSON-decoded (reference §1 value parsing): the two words travel quoted.
  it.each([
    ['"realm_default" (null: follow the organization)', CH.private_protected, '"realm_default"', null],
    ['"unlimited" (-1: retain forever)', CH.public, '"unlimited"', -1],
    ['30 days', CH.public, 30, 30],
    ['365 days on a channel that kept everything', CH.public_2, 365, 365],
  ])('accepts %s', async (_label, id, value, stored) => {
    await accepted(id, { message_retention_days: value }, { message_retention_days: stored });
  });

  it.each([
    ['"forever"', "Bad value for 'message_retention_days': forever"],
    ['"30"', "Bad value for 'message_retention_days': 30"],
    ['0', "Bad value for 'message_retention_days': 0"],
    ['-1', "Bad value for 'message_retention_days': -1"],
    ['-5', "Bad value for 'message_retention_days': -5"],
    ['unlimited', 'message_retention_days is not valid JSON'],
    ['1.5', 'message_retention_days is not an integer'],
  ])('refuses %s: %s', async (raw, msg) => {
    const before = structuredClone(channelRow(env.server, CH.public));
    const res = await call(env.server, 'PATCH', `/api/v1/streams/${CH.public}`, {
      as: env.who.owner!,
      form: { message_retention_days: raw },
    });
    expect([res.status, res.body]).toEqual([400, err(msg)]);
    expect(channelRow(env.server, CH.public)).toEqual(before);
  });

  it('a malformed value is a parse error: it beats Invalid channel ID and the permission check', async () => {
    await refused(999, { message_retention_days: '"forever"' }, "Bad value for 'message_retention_days': forever");
    await refused(
      CH.empty_topic_only,
      { message_retention_days: '"forever"' },
      "Bad value for 'message_retention_days': forever",
      env.who.member!,
    );
  });

  it('organization administrators may set it (C17: the spec, not the reference server, which wants an owner)', async () => {
    expect((await patch(env.server, env.who.administrator!, CH.private_shared, { message_retention_days: 7 })).body).toEqual(OK);
    expect(channelRow(env.server, CH.private_shared).message_retention_days).toBe(7);
  });
});

describe('folder_id (§4.16)', () => {
  it('null removes the channel from its folder', async () => {
    await accepted(CH.public_2, { folder_id: null }, { folder_id: null });
  });

  it('an existing folder is accepted', async () => {
    await accepted(CH.public, { folder_id: 1 }, { folder_id: 1 });
  });

  it('an unknown folder is refused', async () => {
    await refused(CH.public, { folder_id: 999 }, 'Invalid channel folder ID');
  });

  it('a quoted folder ID is not an integer', async () => {
    await refused(CH.public, { folder_id: '"1"' }, 'folder_id is not an integer');
  });
});

describe('new_name (§4.16, reference §1 channel names)', () => {
  it.each([
    ['a new name', 'lounge', 'lounge'],
    ['a change of letter case only', 'Home', 'Home'],
    ['surrounding whitespace stripped', '  lounge  ', 'lounge'],
    ['60 characters', 'n'.repeat(60), 'n'.repeat(60)],
    // Limits count characters, not UTF-16 code units (reference §8).
    ['60 characters outside the BMP', '\u{1F600}'.repeat(60), '\u{1F600}'.repeat(60)],
  ])('accepts %s', async (_label, name, stored) => {
    await accepted(CH.public, { new_name: name }, { name: stored });
  });

  it.each([
    ['the same name', 'home', 'Channel already has that name.'],
    ['the same name after stripping', ' home ', 'Channel already has that name.'],
    ["another channel's name", 'alarm', 'Channel name is already in use.'],
    ["another channel's name in other case", 'ALARM', 'Channel name is already in use.'],
    ["an archived channel's name", 'old matrix', 'Channel name is already in use.'],
    ['61 characters', 'n'.repeat(61), 'Channel name too long (limit: 60 characters).'],
    ['the empty string', '', "Channel name can't be empty."],
    ['only spaces', '   ', "Channel name can't be empty."],
    ['a control character', 'a\u0001b', 'Invalid character in channel name, at position 2.'],
  ])('refuses %s', async (_label, name, msg) => {
    await refused(CH.public, { new_name: name }, msg);
  });
});

describe('description (§4.16)', () => {
  it('renders the Markdown into rendered_description', async () => {
    await accepted(
      CH.public,
      { description: 'Talk **here**' },
      { description: 'Talk **here**', rendered_description: '<p>Talk <strong>here</strong></p>' },
    );
  });

  it.each([
    ['\\n', 'first\nsecond'],
    ['\\r\\n', 'first\r\nsecond'],
  ])('turns %s newlines into spaces', async (_label, text) => {
    await accepted(CH.public, { description: text }, { description: 'first second', rendered_description: '<p>first second</p>' });
  });

  it('accepts 1024 characters and the empty description', async () => {
    await accepted(CH.public, { description: 'd'.repeat(1024) }, { description: 'd'.repeat(1024) });
    await accepted(CH.public, { description: '\u{1F600}'.repeat(1024) }, { description: '\u{1F600}'.repeat(1024) });
    await accepted(CH.public, { description: '' }, { description: '', rendered_description: '' });
  });

  it('refuses 1025 characters at parse time, before Invalid channel ID and the access check', async () => {
    const msg = 'description is too long (limit: 1024 characters)';
    await refused(CH.public, { description: 'd'.repeat(1025) }, msg);
    await refused(999, { description: 'd'.repeat(1025) }, msg);
    await refused(CH.private_shared, { description: 'd'.repeat(1025) }, msg, env.who.moderator!);
  });
});

describe('a request is applied whole or not at all (reference §1 order of checks)', () => {
  it.each([
    ['a taken name', { new_name: 'alarm' }, 'Channel name is already in use.'],
    ['an unknown folder', { folder_id: 999 }, 'Invalid channel folder ID'],
    ['archiving an active channel', { is_archived: true }, 'Channels cannot be archived with this operation.'],
    ['a private default channel', { is_private: true }, 'A default channel cannot be private.'],
  ])('valid changes sent with %s are not applied', async (_label, bad, msg) => {
    const before = await streamAsAdmin(env.server, CH.public);
    const res = await patch(env.server, env.who.owner!, CH.public, {
      description: 'New words',
      topics_policy: 'allow_empty_topic',
      message_retention_days: 30,
      ...bad,
    });
    expect([res.status, res.body]).toEqual([400, err(msg)]);
    expect(await streamAsAdmin(env.server, CH.public)).toEqual(before);
  });

  it('the path stream_id wins over a body stream_id (Python client), which is listed as ignored', async () => {
    const res = await patch(env.server, env.who.owner!, CH.public, { stream_id: CH.public_2, description: 'For 51' });
    expect(res.body).toEqual({ ...OK, ignored_parameters_unsupported: ['stream_id'] });
    expect(channelRow(env.server, CH.public).description).toBe('For 51');
    expect(channelRow(env.server, CH.public_2).description).not.toBe('For 51');
  });
});
