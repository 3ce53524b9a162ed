import { describe, expect, it } from 'vitest';
import type { MessageRow, RealmState } from '../../src/store/state.js';
import { ROLES, WORLD, fetchMessage, freshRealm, pick, putRow, receivedFlags, tables, userOf, type Json, useDemo } from './support.js';

/**
 * The message object GET /messages/{id} returns (spec §2.5, §4.3; reference §4.3): every field, with its
 * type and its value checked against the stored row, as HTML by default (apply_markdown defaults to
 * true) or as Markdown; raw_content always the Markdown source.
 */

const env = useDemo();

const roleOf = (userId: number) => ROLES.find((r) => WORLD.credentials[r]!.user_id === userId);
/** A role that received the message, to fetch it with that role's own flags. */
const readerOf = (m: MessageRow) => ROLES.find((r) => receivedFlags(env.t, WORLD.credentials[r]!.user_id, m.id) !== undefined)!;
const hasReaction = (type: string) => (m: MessageRow) => m.reactions.some((r) => r.reaction_type === type);

/** Messages chosen by what they show, never by fixed IDs. */
const SAMPLES: Record<string, (t: RealmState) => MessageRow> = {
  'a content-edited message': (t) => pick(t, 'content edit', (m) => m.edit_history.some((e) => 'prev_content' in e)),
  'a moved message': (t) => pick(t, 'move', (m) => m.edit_history.some((e) => 'prev_topic' in e || 'prev_stream' in e)),
  'a message with a unicode reaction': (t) => pick(t, 'unicode reaction', hasReaction('unicode_emoji')),
  'a message with a custom-emoji reaction': (t) => pick(t, 'realm_emoji reaction', hasReaction('realm_emoji')),
  'a message with a service emoji reaction': (t) => pick(t, 'service_extra_emoji reaction', hasReaction('service_extra_emoji')),
  'a /me message': (t) => pick(t, '/me message', (m) => m.is_me_message),
  'a message in the empty topic': (t) => pick(t, 'empty-topic message', (m) => m.type === 'stream' && m.subject === ''),
  'a 1:1 direct message': (t) =>
    pick(t, 'direct message', (m) => m.type === 'private' && m.dm_user_ids!.length === 2 && !!roleOf(m.dm_user_ids![0]!)),
  'a group direct message': (t) => pick(t, 'group direct message', (m) => m.type === 'private' && m.dm_user_ids!.length >= 3),
  'a direct message to oneself': (t) => pick(t, 'self direct message', (m) => m.type === 'private' && m.dm_user_ids!.length === 1),
};

/** Spec §2.5 display_recipient for direct messages: the participants as user objects. */
const participants = (t: RealmState, m: MessageRow) =>
  m.dm_user_ids!.map((id) => ({ id, email: userOf(env.t, id).email, full_name: userOf(env.t, id).full_name, is_mirror_dummy: false }));

/** What §2.5 says the object holds for this row, seen by `viewerId` (avatar checked in fetch-params). */
function expectedMessage(t: RealmState, m: MessageRow, viewerId: number, html: boolean): Json {
  const sender = userOf(env.t, m.sender_id);
  const out: Json = {
    id: m.id,
    type: m.type,
    content: html ? m.rendered_content : m.content,
    content_type: html ? 'text/html' : 'text/x-markdown',
    avatar_url: expect.toSatisfy((v: unknown) => v === null || (typeof v === 'string' && v.length > 0)),
    client: m.client,
    display_recipient: m.type === 'stream' ? env.t.channels[String(m.stream_id)]!.name : participants(env.t, m),
    is_me_message: m.is_me_message,
    reactions: m.reactions,
    recipient_id: m.recipient_id,
    sender_email: sender.email,
    sender_full_name: sender.full_name,
    sender_id: m.sender_id,
    sender_realm_str: env.t.realm.realm.id,
    // The empty topic shows as the display name without allow_empty_topic_name (spec §1); DMs keep "".
    subject: m.type === 'stream' && m.subject === '' ? 'general chat' : m.subject,
    submessages: m.submessages,
    timestamp: m.timestamp,
    topic_links: expect.any(Array),
    flags: receivedFlags(env.t, viewerId, m.id),
  };
  if (m.type === 'stream') out.stream_id = m.stream_id;
  if (m.edit_history.length > 0) out.edit_history = m.edit_history;
  if (m.last_edit_timestamp !== null) out.last_edit_timestamp = m.last_edit_timestamp;
  if (m.last_moved_timestamp !== null) out.last_moved_timestamp = m.last_moved_timestamp;
  return out;
}

const CASES = Object.keys(SAMPLES).flatMap(
  (name) =>
    [
      [name, 'default (HTML)', {}, true],
      [name, 'apply_markdown=true', { apply_markdown: 'true' }, true],
      [name, 'apply_markdown=false', { apply_markdown: 'false' }, false],
    ] as [string, string, Record<string, string>, boolean][],
);

describe('every §2.5 field, against the stored row', () => {
  it.each(CASES)('%s, %s', async (name, _label, query, html) => {
    const m = SAMPLES[name]!(env.t);
    const role = readerOf(m);
    const res = await fetchMessage(env.server, env.who[role]!, m.id, query);
    expect(res.status).toBe(200);
    // Exactly these keys: nothing internal (rendered_content, _gravatar) leaks, nothing is missing.
    expect(res.body).toEqual({
      result: 'success',
      msg: '',
      message: expectedMessage(env.t, m, env.who[role]!.user_id, html),
      raw_content: m.content,
    });
    for (const link of (res.body.message as Json).topic_links as Json[])
      expect(link).toEqual({ text: expect.any(String), url: expect.any(String) });
  });

  it('apply_markdown=null means "not given": HTML (reference §1 value parsing)', async () => {
    const m = SAMPLES['a content-edited message']!(env.t);
    const res = await fetchMessage(env.server, env.who[readerOf(m)]!, m.id, { apply_markdown: 'null' });
    expect(res.body).toMatchObject({ message: { content: m.rendered_content, content_type: 'text/html' }, raw_content: m.content });
    expect(m.rendered_content).not.toBe(m.content);
  });
});

describe('field details', () => {
  it('a channel message names its channel and has stream_id; a direct message has neither and subject ""', async () => {
    const channel = SAMPLES['a moved message']!(env.t);
    const c = (await fetchMessage(env.server, env.who[readerOf(channel)]!, channel.id)).body.message as Json;
    expect([c.display_recipient, c.stream_id, c.type]).toEqual([
      env.t.channels[String(channel.stream_id)]!.name,
      channel.stream_id,
      'stream',
    ]);
    for (const name of ['a 1:1 direct message', 'a group direct message', 'a direct message to oneself']) {
      const m = SAMPLES[name]!(env.t);
      const d = (await fetchMessage(env.server, env.who[readerOf(m)]!, m.id)).body.message as Json;
      expect(d).not.toHaveProperty('stream_id');
      expect([d.type, d.subject]).toEqual(['private', '']);
      expect(d.display_recipient).toEqual(participants(env.t, m));
      expect((d.display_recipient as Json[]).map((u) => u.id)).toEqual([...m.dm_user_ids!].sort((a, b) => a - b));
    }
  });

  it('reactions carry the three reaction_type namespaces (spec §2.5)', async () => {
    const seen = new Set<string>();
    for (const name of [
      'a message with a unicode reaction',
      'a message with a custom-emoji reaction',
      'a message with a service emoji reaction',
    ]) {
      const m = SAMPLES[name]!(env.t);
      const reactions = ((await fetchMessage(env.server, env.who[readerOf(m)]!, m.id)).body.message as Json).reactions as Json[];
      for (const r of reactions) {
        expect(Object.keys(r).sort()).toEqual(['emoji_code', 'emoji_name', 'reaction_type', 'user_id']);
        expect(typeof r.user_id).toBe('number');
        seen.add(r.reaction_type as string);
        // unicode: dash-separated hex codepoints; realm: the custom emoji's ID; service: the emoji's name.
        if (r.reaction_type === 'unicode_emoji') expect(r.emoji_code).toMatch(/^[0-9a-f]+(-[0-9a-f]+)*$/);
        else if (r.reaction_type === 'realm_emoji') expect(env.t.custom_emoji[r.emoji_code as string]?.name).toBe(r.emoji_name);
        else expect([r.reaction_type, r.emoji_code]).toEqual(['service_extra_emoji', r.emoji_name]);
      }
    }
    expect([...seen].sort()).toEqual(['realm_emoji', 'service_extra_emoji', 'unicode_emoji']);
  });

  it('a content edit: edit_history with only the content keys, last_edit_timestamp, no last_moved_timestamp', async () => {
    const m = SAMPLES['a content-edited message']!(env.t);
    const got = (await fetchMessage(env.server, env.who[readerOf(m)]!, m.id)).body.message as Json;
    const history = got.edit_history as Json[];
    expect(history.map((e) => Object.keys(e).sort())).toEqual(
      m.edit_history.map(() => ['prev_content', 'prev_rendered_content', 'timestamp', 'user_id']),
    );
    expect(got.last_edit_timestamp).toBe(history[0]!.timestamp);
    expect(got).not.toHaveProperty('last_moved_timestamp');
  });

  it('a move: edit_history with only the topic or channel keys, last_moved_timestamp, no last_edit_timestamp', async () => {
    const m = SAMPLES['a moved message']!(env.t);
    const got = (await fetchMessage(env.server, env.who[readerOf(m)]!, m.id)).body.message as Json;
    const history = got.edit_history as Json[];
    for (const entry of history) {
      const keys = Object.keys(entry).filter((k) => k !== 'user_id' && k !== 'timestamp');
      expect(keys.every((k) => ['prev_topic', 'topic', 'prev_stream', 'stream'].includes(k))).toBe(true);
      expect(keys.length).toBeGreaterThan(0);
    }
    expect(got.last_moved_timestamp).toBe(history[0]!.timestamp);
    expect(got).not.toHaveProperty('last_edit_timestamp');
  });

  it('a never-edited message has no edit_history and neither timestamp', async () => {
    const m = pick(env.t, 'unedited message', (x) => x.edit_history.length === 0 && x.type === 'stream');
    const got = (await fetchMessage(env.server, env.who[readerOf(m)]!, m.id)).body.message as Json;
    for (const key of ['edit_history', 'last_edit_timestamp', 'last_moved_timestamp']) expect(got).not.toHaveProperty(key);
  });

  it('edit_history keeps newest first, and submessages carry their five fields', async () => {
    const { realm, who: w } = await freshRealm(env.server);
    const rt = tables(env.server, realm);
    const m = pick(
      rt,
      'member message in the public channel',
      (x) => x.sender_id === w.member!.user_id && x.stream_id === 51 && x.edit_history.length === 0,
    );
    const edit_history = [
      { user_id: w.moderator!.user_id, timestamp: m.timestamp + 200, prev_topic: 'older', topic: m.subject },
      {
        user_id: w.member!.user_id,
        timestamp: m.timestamp + 100,
        prev_content: 'first draft',
        prev_rendered_content: '<p>first draft</p>',
      },
    ];
    const submessages = [
      { id: 9001, msg_type: 'widget', content: '{"widget_type": "poll"}', message_id: m.id, sender_id: w.member!.user_id },
    ];
    await putRow(env.server, realm, 'messages', m.id, {
      ...m,
      edit_history,
      submessages,
      last_edit_timestamp: m.timestamp + 100,
      last_moved_timestamp: m.timestamp + 200,
    });
    const got = (await fetchMessage(env.server, w.member!, m.id)).body.message as Json;
    expect(got.edit_history).toEqual(edit_history);
    expect(got.submessages).toEqual(submessages);
    expect([got.last_edit_timestamp, got.last_moved_timestamp]).toEqual([m.timestamp + 100, m.timestamp + 200]);
  });
});
