import { beforeAll, describe, expect, it } from 'vitest';
// The stock JavaScript client, unmodified (npm zulip-js 2.1.0).
import zulip from 'zulip-js';
import type { MessageRow, RealmState, UserRow } from '../../src/store/state.js';
import {
  INVALID_MESSAGE,
  channelId,
  error,
  fetchMessage,
  freshRealm,
  pick,
  putRow,
  receivedFlags,
  tables,
  userOf,
  type Creds,
  type Json,
  useDemo,
} from './support.js';

/**
 * GET /messages/{id} parameters and viewer-dependent fields (spec §1 topic names, §2.5 avatar_url, §4.3,
 * §9; reference §1 value parsing and stock clients, §4.3): the empty topic, allow_empty_topic_name and
 * its feature level, avatars as if client_gravatar were true, the JavaScript client's duplicated path
 * parameter, malformed booleans.
 */

const env = useDemo();

const EMPTY_TOPIC_ONLY = channelId('empty_topic_only');
const emptyTopicMessage = (rt: RealmState, sender?: number) =>
  pick(
    rt,
    'message in the empty topic of the empty_topic_only channel',
    (m) => m.stream_id === EMPTY_TOPIC_ONLY && m.subject === '' && (sender === undefined || m.sender_id === sender),
  );
const message = (body: Json) => body.message as Json;

describe('the empty topic (spec §1 "Topic names", §4.3 allow_empty_topic_name)', () => {
  it.each([
    ['not given', {}, 'general chat'],
    ['false', { allow_empty_topic_name: 'false' }, 'general chat'],
    ['true', { allow_empty_topic_name: 'true' }, ''],
  ])('allow_empty_topic_name %s → subject %j', async (_label, query, subject) => {
    const m = emptyTopicMessage(env.t, env.who.member_2!.user_id);
    const res = await fetchMessage(env.server, env.who.member!, m.id, query);
    expect(res.status).toBe(200);
    expect(message(res.body).subject).toBe(subject);
    expect(res.body).not.toHaveProperty('ignored_parameters_unsupported');
  });

  it('a direct message keeps subject "" whatever allow_empty_topic_name says', async () => {
    const dm = pick(env.t, 'direct message of member', (m) => m.type === 'private' && m.dm_user_ids!.includes(env.who.member!.user_id));
    for (const value of ['false', 'true'])
      expect(message((await fetchMessage(env.server, env.who.member!, dm.id, { allow_empty_topic_name: value })).body).subject).toBe('');
  });

  it.each([
    ['not given', {}, 'general chat'],
    ['true', { allow_empty_topic_name: 'true' }, ''],
  ])('inside edit_history too (allow_empty_topic_name %s → %j), newest entry first', async (_label, query, shown) => {
    const { realm, who: w } = await freshRealm(env.server);
    const m = emptyTopicMessage(tables(env.server, realm));
    // The fixture has no move out of or into the empty topic: moved "" → "plans", then back.
    const edit_history = [
      { user_id: w.moderator!.user_id, timestamp: m.timestamp + 20, prev_topic: 'plans', topic: '' },
      { user_id: w.owner!.user_id, timestamp: m.timestamp + 10, prev_topic: '', topic: 'plans' },
    ];
    await putRow(env.server, realm, 'messages', m.id, { ...m, edit_history, last_moved_timestamp: m.timestamp + 20 });
    const got = message((await fetchMessage(env.server, w.member!, m.id, query)).body);
    expect(got.subject).toBe(shown);
    expect(got.edit_history).toEqual([
      { user_id: w.moderator!.user_id, timestamp: m.timestamp + 20, prev_topic: 'plans', topic: shown },
      { user_id: w.owner!.user_id, timestamp: m.timestamp + 10, prev_topic: shown, topic: 'plans' },
    ]);
    expect(got.last_moved_timestamp).toBe(m.timestamp + 20);
  });

  it.each([
    [333, 'general chat', ['allow_empty_topic_name']],
    [334, '', undefined],
  ])(
    'at feature level %i allow_empty_topic_name=true gives subject %j (the parameter exists from 334, §9)',
    async (level, subject, ignored) => {
      const { realm, who: w } = await freshRealm(env.server, level);
      const m = emptyTopicMessage(tables(env.server, realm), w.member_2!.user_id);
      const res = await fetchMessage(env.server, w.member!, m.id, { allow_empty_topic_name: 'true' });
      expect(res.status).toBe(200);
      expect(message(res.body).subject).toBe(subject);
      expect(res.body.ignored_parameters_unsupported).toEqual(ignored);
    },
  );
});

describe('avatar_url, computed as if client_gravatar were true (spec §2.5, reference §4.3)', () => {
  it('a URL for a sender with an uploaded avatar, whoever looks', async () => {
    const m = pick(
      env.t,
      'message of an uploaded-avatar sender everyone received',
      (x) =>
        userOf(env.t, x.sender_id).avatar_source === 'U' &&
        x.stream_id === channelId('public') &&
        receivedFlags(env.t, env.who.guest!.user_id, x.id) !== undefined,
    );
    for (const role of ['owner', 'member', 'guest'] as const) {
      const url = message((await fetchMessage(env.server, env.who[role]!, m.id)).body).avatar_url;
      expect(typeof url === 'string' && url.length > 0).toBe(true);
    }
  });

  it('null for a Gravatar sender whose email everyone may see', async () => {
    const m = pick(env.t, 'message of a Gravatar sender with visibility 1', (x) => {
      const u = userOf(env.t, x.sender_id);
      return u.avatar_source === 'G' && u.settings.email_address_visibility === 1 && !u.is_bot && x.stream_id === channelId('public');
    });
    expect(message((await fetchMessage(env.server, env.who.member!, m.id)).body).avatar_url).toBeNull();
  });

  /** Reference email_address_visibility: 1 everyone, 2 members, 3 administrators, 4 nobody, 5 moderators. */
  const MAY_SEE: Record<number, readonly string[]> = {
    1: ['owner', 'administrator', 'moderator', 'member', 'guest'],
    2: ['owner', 'administrator', 'moderator', 'member'],
    3: ['owner', 'administrator'],
    4: [],
    5: ['owner', 'administrator', 'moderator'],
  };
  let avatars: { realm: string; who: Creds; m: MessageRow; owner: UserRow };
  beforeAll(async () => {
    const { realm, who: w } = await freshRealm(env.server);
    const rt = tables(env.server, realm);
    // The owner's own avatar is uploaded; make it a Gravatar so that only email visibility decides.
    const owner = { ...userOf(rt, w.owner!.user_id), avatar_source: 'G' as const };
    const m = pick(
      rt,
      'owner message every role received',
      (x) =>
        x.sender_id === owner.user_id &&
        ['administrator', 'moderator', 'member', 'guest'].every((r) => rt.user_messages[String(x.id)]?.flags[String(w[r]!.user_id)]),
    );
    avatars = { realm, who: w, m, owner };
  });

  it.each(Object.keys(MAY_SEE).map(Number))(
    'email_address_visibility %i: null exactly for those who may see the real email, and the sender',
    async (level) => {
      const { realm, who: w, m, owner } = avatars;
      await putRow(env.server, realm, 'users', owner.user_id, {
        ...owner,
        settings: { ...owner.settings, email_address_visibility: level },
      });
      for (const role of ['owner', 'administrator', 'moderator', 'member', 'guest']) {
        const url = message((await fetchMessage(env.server, w[role]!, m.id)).body).avatar_url;
        const visible = role === 'owner' || MAY_SEE[level]!.includes(role);
        expect([role, visible ? url : typeof url]).toEqual([role, visible ? null : 'string']);
      }
    },
  );
});

describe('the JavaScript client repeats message_id in the query (reference §1, "What arrives on the wire")', () => {
  it('is ignored and listed in ignored_parameters_unsupported', async () => {
    const m = emptyTopicMessage(env.t, env.who.member_2!.user_id);
    const res = await fetchMessage(env.server, env.who.member!, m.id, { message_id: String(m.id), apply_markdown: 'false' });
    expect(res.status).toBe(200);
    expect(message(res.body)).toMatchObject({ id: m.id, content: m.content, content_type: 'text/x-markdown' });
    expect(res.body.ignored_parameters_unsupported).toEqual(['message_id']);
  });

  it('the path wins when the copy differs, and ignored names are sorted', async () => {
    const m = emptyTopicMessage(env.t, env.who.member_2!.user_id);
    const res = await fetchMessage(env.server, env.who.member!, m.id, { message_id: '0', zeta: '1', alpha: '2' });
    expect(message(res.body).id).toBe(m.id);
    expect(res.body.ignored_parameters_unsupported).toEqual(['alpha', 'message_id', 'zeta']);
  });

  it('zulip-js messages.getById fetches a message', async () => {
    const client = (await (zulip as unknown as (c: Json) => Promise<unknown>)({
      username: env.who.member!.email,
      apiKey: env.who.member!.api_key,
      realm: env.server.url,
    })) as {
      messages: { getById(p: Json): Promise<Json> };
    };
    const m = emptyTopicMessage(env.t, env.who.member_2!.user_id);
    const res = await client.messages.getById({ message_id: m.id, apply_markdown: false });
    expect(res).toMatchObject({
      result: 'success',
      raw_content: m.content,
      message: { id: m.id, content: m.content },
      ignored_parameters_unsupported: ['message_id'],
    });
    expect(await client.messages.getById({ message_id: 0 })).toEqual(INVALID_MESSAGE);
  });
});

describe('malformed booleans (reference §1 value parsing; parse order allow_empty_topic_name → apply_markdown → path ID)', () => {
  it.each([
    ['apply_markdown', 'True', 'apply_markdown is not valid JSON'],
    ['apply_markdown', 'yes', 'apply_markdown is not valid JSON'],
    ['apply_markdown', 'undefined', 'apply_markdown is not valid JSON'],
    ['apply_markdown', '1', 'apply_markdown is not a boolean'],
    ['apply_markdown', '"true"', 'apply_markdown is not a boolean'],
    ['apply_markdown', '[]', 'apply_markdown is not a boolean'],
    ['allow_empty_topic_name', 'False', 'allow_empty_topic_name is not valid JSON'],
    ['allow_empty_topic_name', '0', 'allow_empty_topic_name is not a boolean'],
  ])('%s=%s → %j', async (name, value, msg) => {
    const m = emptyTopicMessage(env.t, env.who.member_2!.user_id);
    const res = await fetchMessage(env.server, env.who.member!, m.id, { [name]: value });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it('allow_empty_topic_name is parsed before apply_markdown', async () => {
    const m = emptyTopicMessage(env.t, env.who.member_2!.user_id);
    const res = await fetchMessage(env.server, env.who.member!, m.id, { apply_markdown: '1', allow_empty_topic_name: '1' });
    expect(res.body).toEqual(error('allow_empty_topic_name is not a boolean'));
  });

  it('a parse error beats a missing or invisible message', async () => {
    const hidden = pick(
      env.t,
      'direct message member_3 is not in',
      (x) => x.type === 'private' && !x.dm_user_ids!.includes(env.who.member_3!.user_id),
    );
    for (const id of [0, hidden.id])
      expect((await fetchMessage(env.server, env.who.member_3!, id, { apply_markdown: 'True' })).body).toEqual(
        error('apply_markdown is not valid JSON'),
      );
  });
});
