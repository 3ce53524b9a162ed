import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, credentials, startTestServer } from '../helpers/test-server.js';
import { error, observeEvents, send, success, tables, useTestRealm } from '../helpers/harness.js';
import { ROLES, addWords, removeWords, snapshotOf, wordsOf } from './support.js';

/**
 * Alert words (companion tier, reference server behaviour): each user's own list, case-insensitive,
 * trimmed; every change answers and sends (to the user's queues only) the whole list.
 */
const env = useTestRealm();

describe('alert words', () => {
  it('start empty, and every role adds, lists and removes its own', async () => {
    for (const role of ROLES) {
      const who = env.who[role]!;
      expect(await wordsOf(env.server, who), role).toEqual([]);
      expect((await addWords(env.server, who, [`${role} word`])).body, role).toEqual(success({ alert_words: [`${role} word`] }));
    }
    for (const role of ROLES) expect(await wordsOf(env.server, env.who[role]!), role).toEqual([`${role} word`]);
    const member = env.who.member!;
    expect((await removeWords(env.server, member, ['member word'])).body).toEqual(success({ alert_words: [] }));
    expect(await wordsOf(env.server, env.who.owner!)).toEqual(['owner word']);
  });

  it('keep the order of adding, ignore words present in any case, trim, drop empty ones', async () => {
    const member = env.who.member!;
    await addWords(env.server, member, ['Castle', 'moat']);
    const res = await addWords(env.server, member, [' bench ', 'CASTLE', '', '   ', 'Bench', 'drawbridge']);
    expect(res.body).toEqual(success({ alert_words: ['Castle', 'moat', 'bench', 'drawbridge'] }));
  });

  it('remove in any letter case and ignore words that are not there', async () => {
    const member = env.who.member!;
    await addWords(env.server, member, ['Castle', 'moat', 'bench']);
    const res = await removeWords(env.server, member, ['castle', 'no such word', ' BENCH ']);
    expect(res.body).toEqual(success({ alert_words: ['moat'] }));
    expect(await wordsOf(env.server, member)).toEqual(['moat']);
  });

  it('refuse a word over 100 characters, a missing or malformed list, and change nothing', async () => {
    const member = env.who.member!;
    await addWords(env.server, member, ['keep']);
    const refusals: [() => ReturnType<typeof addWords>, object][] = [
      [() => addWords(env.server, member, ['ok', 'x'.repeat(101)]), error('alert_words[1] is too long (limit: 100 characters)')],
      [() => addWords(env.server, member, 'castle'), error('alert_words is not a list')],
      [() => addWords(env.server, member, [1]), error('alert_words[0] is not a string')],
      [() => removeWords(env.server, member, { castle: 1 }), error('alert_words is not a list')],
    ];
    for (const [send, expected] of refusals) {
      const res = await send();
      expect(res.status).toBe(400);
      expect(res.body).toEqual(expected);
    }
    const missing = await call(env.server, 'POST', '/api/v1/users/me/alert_words', { as: member, form: {} });
    expect(missing.body).toEqual(error("Missing 'alert_words' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'alert_words' }));
    expect(await wordsOf(env.server, member)).toEqual(['keep']);
  });

  it('accept exactly 100 characters', async () => {
    const word = 'y'.repeat(100);
    expect((await addWords(env.server, env.who.member!, [word])).body).toEqual(success({ alert_words: [word] }));
  });

  it("send alert_words with the whole list to the caller's queues only, on every change", async () => {
    const member = env.who.member!;
    await addWords(env.server, member, ['moat']);
    const seen = await observeEvents(env, ['member', ...ROLES.filter((r) => r !== 'member')], {}, async () => {
      await addWords(env.server, member, ['Castle']);
      await removeWords(env.server, member, ['MOAT']);
    });
    expect(seen.member).toEqual([
      { type: 'alert_words', alert_words: ['moat', 'Castle'] },
      { type: 'alert_words', alert_words: ['Castle'] },
    ]);
    for (const role of ROLES.filter((r) => r !== 'member')) expect(seen[role], role).toEqual([]);
  });

  it("appear in register's alert_words (type alert_words) for the viewer alone", async () => {
    await addWords(env.server, env.who.member!, ['moat']);
    expect((await snapshotOf(env.server, env.who.member!, ['alert_words'])).alert_words).toEqual(['moat']);
    expect((await snapshotOf(env.server, env.who.owner!, ['alert_words'])).alert_words).toEqual([]);
    expect(await snapshotOf(env.server, env.who.member!, ['message'])).not.toHaveProperty('alert_words');
  });

  it('are stored as one row per user with words, none for a user without', async () => {
    const member = env.who.member!;
    await addWords(env.server, member, ['moat']);
    expect(tables(env.server, env.realm).alert_words[String(member.user_id)]).toEqual({ user_id: member.user_id, words: ['moat'] });
    await removeWords(env.server, member, ['moat']);
    expect(tables(env.server, env.realm).alert_words[String(member.user_id)]).toBeUndefined();
  });
});

describe('has_alert_word', () => {
  /** A public channel member and member_2 are both subscribed to. */
  function sharedChannel(): string {
    const t = tables(env.server, env.realm);
    const [a, b] = [env.who.member!.user_id, env.who.member_2!.user_id];
    const c = Object.values(t.channels).find(
      (c) => !c.is_archived && t.subscriptions[`${a}:${c.stream_id}`]?.active && t.subscriptions[`${b}:${c.stream_id}`]?.active,
    )!;
    return String(c.stream_id);
  }
  const flagsOf = (messageId: number, userId: number): string[] =>
    tables(env.server, env.realm).user_messages[String(messageId)]?.flags[String(userId)] ?? [];

  it('flags a new message for a receiver whose alert word it says as a word, in any case, and tells them in the message event', async () => {
    const member = env.who.member!;
    await addWords(env.server, member, ['Castle', 'two words']);
    const to = sharedChannel();
    const cases: [string, boolean][] = [
      ['The castle is big', true],
      ['(CASTLE)', true],
      ['about Two Words, really', true],
      ['castles everywhere', false],
      ['sandcastle', false],
      ['nothing here', false],
    ];
    for (const [content, alerted] of cases) {
      const seen = await observeEvents(env, ['member'], {}, async () => {
        const res = await send(env.server, env.who.member_2!, { type: 'stream', to, topic: 'alerts', content });
        expect(res.status, content).toBe(200);
      });
      const event = seen.member!.find((e) => e.type === 'message')!;
      const id = (event.message as { id: number }).id;
      expect(flagsOf(id, member.user_id).includes('has_alert_word'), content).toBe(alerted);
      expect((event.flags as string[]).includes('has_alert_word'), content).toBe(alerted);
      // The sender's copy never carries the flag of someone else's words.
      expect(flagsOf(id, env.who.member_2!.user_id)).not.toContain('has_alert_word');
    }
  });

  it('follows content edits: an edit that says the word sets the flag, one that no longer does clears it', async () => {
    const [member, sender] = [env.who.member!, env.who.member_2!];
    await addWords(env.server, member, ['castle']);
    const res = await send(env.server, sender, { type: 'stream', to: sharedChannel(), topic: 'alerts', content: 'nothing yet' });
    const id = res.body.id as number;
    expect(flagsOf(id, member.user_id)).not.toContain('has_alert_word');
    const edit = (content: string) => call(env.server, 'PATCH', `/api/v1/messages/${id}`, { as: sender, form: { content } });
    expect((await edit('now the castle')).body).toMatchObject(success());
    expect(flagsOf(id, member.user_id)).toContain('has_alert_word');
    expect(flagsOf(id, sender.user_id)).not.toContain('has_alert_word');
    expect((await edit('gone again')).body).toMatchObject(success());
    expect(flagsOf(id, member.user_id)).not.toContain('has_alert_word');
  });

  it("never flags the sender's own message with their own words", async () => {
    const member = env.who.member!;
    await addWords(env.server, member, ['castle']);
    const res = await send(env.server, member, { type: 'stream', to: sharedChannel(), topic: 'alerts', content: 'my castle' });
    expect(flagsOf(res.body.id as number, member.user_id)).not.toContain('has_alert_word');
  });
});

describe('alert words on disk', () => {
  it('survive a restart, and a state file written before the table existed still loads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'teamchat-alert-words-'));
    const statePath = join(dir, 'state.json');
    try {
      let server = await startTestServer({ statePath });
      const member = credentials(server).member!;
      await addWords(server, member, ['moat', 'Castle']);
      await server.close();
      server = await startTestServer({ statePath });
      expect(await wordsOf(server, member)).toEqual(['moat', 'Castle']);
      await server.close();

      // An older file: the same state without the companion tables.
      const doc = JSON.parse(await readFile(statePath, 'utf8')) as { realms: Record<string, Record<string, unknown>> };
      for (const realm of Object.values(doc.realms)) {
        delete realm.alert_words;
        delete realm.bot_storage;
        delete realm.user_topics;
      }
      await writeFile(statePath, JSON.stringify(doc));
      await rm(`${statePath}.journal`, { force: true });
      server = await startTestServer({ statePath });
      expect(await wordsOf(server, member)).toEqual([]);
      expect((await addWords(server, member, ['again'])).body).toEqual(success({ alert_words: ['again'] }));
      await server.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
