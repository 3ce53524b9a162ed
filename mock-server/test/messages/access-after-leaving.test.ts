import { beforeEach, describe, expect, it } from 'vitest';
import { error, observeEvents, success, tables, useTestRealm, type Cred, type Json } from '../helpers/harness.js';
import { call, type Reply, type Who } from '../helpers/test-server.js';
import { post, postDirect, react } from '../flags-reactions/support.js';
import { subscribe, unsubscribe } from '../subscriptions/support.js';
import { G, patch } from '../channels/support.js';

/**
 * What a user keeps of a channel's messages after leaving it (reference has_message_access,
 * event_recipient_ids_for_action_on_messages, and GET /messages answered from the user's own copies):
 * - by ID (fetch, react, edit history) a message needs access to its channel now: a member who left a
 *   private channel, or a guest who left a public one, is answered `Invalid message(s)` even for a
 *   message they received; a member who left a public channel keeps access (public channels are open
 *   to every non-guest);
 * - changes to such a message (reactions) no longer reach them;
 * - their feed (GET /messages, also narrowed to that channel) still lists what they received, and a flag
 *   change by ID still works on their own copy;
 * - joining again gives access back; so does a group that grants content access without a subscription.
 * Demo channels (fixtures/world.demo.json): 51 home (public, everyone), 52 alarm (public), 53 directives
 * leads (private, protected history; every member may add subscribers, which grants content access, so
 * the tests of losing access cut that group to nobody first), 54 models team (private, shared history;
 * member_3 and administrators may add subscribers).
 */
const env = useTestRealm();

const HOME = 51;
const ALARM = 52;
const PROTECTED = 53;
const SHARED = 54;
const NAMES: Record<number, string> = { [HOME]: 'home', [ALARM]: 'alarm', [PROTECTED]: 'directives leads', [SHARED]: 'models team' };
const INVALID_MESSAGE = error('Invalid message(s)');

const who = (role: string): Cred => env.who[role]!;
const fetch = (as: Who, id: number): Promise<Reply> => call(env.server, 'GET', `/api/v1/messages/${id}`, { as });
const history = (as: Who, id: number): Promise<Reply> => call(env.server, 'GET', `/api/v1/messages/${id}/history`, { as });
const flagsOf = (role: string, id: number) => tables(env.server, env.realm).user_messages[String(id)]?.flags[String(who(role).user_id)];

/** Channel 53 as the reference creates a private channel: nobody may add subscribers, so nobody reads it unsubscribed. */
async function closeProtected(): Promise<void> {
  const res = await patch(env.server, who('administrator'), PROTECTED, { can_add_subscribers_group: { new: G.nobody } });
  expect(res.status, res.text).toBe(200);
}

async function leave(role: string, streamId: number): Promise<void> {
  const res = await unsubscribe(env.server, who(role), [NAMES[streamId]!]);
  expect(res.body, `${role} leaves ${streamId}`).toEqual(success({ removed: [NAMES[streamId]], not_removed: [] }));
}

/** The IDs GET /messages lists for `as` among the newest, optionally narrowed. */
async function listed(as: Who, narrow: Json[] = []): Promise<number[]> {
  const query = { anchor: 'newest', num_before: '100', num_after: '0', narrow: JSON.stringify(narrow) };
  const res = await call(env.server, 'GET', '/api/v1/messages', { as, query });
  expect(res.status, res.text).toBe(200);
  return (res.body.messages as Json[]).map((m) => m.id as number);
}

describe('a member who left a private channel with protected history', () => {
  beforeEach(closeProtected);

  it('can no longer fetch, react to or read the history of a message they received there', async () => {
    const id = await post(env, who('administrator'), PROTECTED, 'before leaving', 'Seen by every subscriber.');
    expect((await fetch(who('member'), id)).status).toBe(200);
    await leave('member', PROTECTED);
    // The copy stays (the feed needs it); access by ID does not.
    expect(flagsOf('member', id)).toBeDefined();
    for (const res of [await fetch(who('member'), id), await history(who('member'), id)]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_MESSAGE);
    }
    const reaction = await react(env.server, who('member'), id, { emoji_name: 'octopus' });
    expect(reaction.body).toEqual(INVALID_MESSAGE);
    expect(tables(env.server, env.realm).messages[String(id)]!.reactions).toEqual([]);
  });

  it('cannot edit or delete even a message they sent there, nor set a reminder on it', async () => {
    const id = await post(env, who('member'), PROTECTED, 'own words', 'Written while subscribed.');
    await leave('member', PROTECTED);
    const edit = await call(env.server, 'PATCH', `/api/v1/messages/${id}`, {
      as: who('member'),
      form: { content: 'Changed after leaving.' },
    });
    const remove = await call(env.server, 'DELETE', `/api/v1/messages/${id}`, { as: who('member') });
    const remind = await call(env.server, 'POST', '/api/v1/reminders', {
      as: who('member'),
      form: { message_id: String(id), scheduled_delivery_timestamp: String(2_000_000_000) },
    });
    for (const res of [edit, remove, remind]) expect(res.body).toEqual(INVALID_MESSAGE);
    expect(tables(env.server, env.realm).messages[String(id)]!.content).toBe('Written while subscribed.');
  });

  it('hears of no reaction to it any more, while the subscribers who received it do', async () => {
    const id = await post(env, who('administrator'), PROTECTED);
    await leave('member', PROTECTED);
    const roles = ['administrator', 'moderator', 'member', 'member_2'];
    const events = await observeEvents(env, roles, { event_types: '["reaction"]' }, () =>
      react(env.server, who('moderator'), id, { emoji_name: 'octopus' }),
    );
    for (const role of ['administrator', 'moderator', 'member_2'])
      expect(
        events[role]!.map((e) => e.type),
        role,
      ).toEqual(['reaction']);
    expect(events.member).toEqual([]);
  });

  it('hears of no deletion of it either, even with the message starred (the reference leaves that copy to go stale)', async () => {
    const id = await post(env, who('administrator'), PROTECTED);
    const star = await call(env.server, 'POST', '/api/v1/messages/flags', {
      as: who('member'),
      form: { messages: JSON.stringify([id]), op: 'add', flag: 'starred' },
    });
    expect(star.status, star.text).toBe(200);
    await leave('member', PROTECTED);
    const events = await observeEvents(env, ['member', 'moderator'], { event_types: '["delete_message"]' }, () =>
      call(env.server, 'DELETE', `/api/v1/messages/${id}`, { as: who('administrator') }),
    );
    expect(events.member).toEqual([]);
    expect(events.moderator!.map((e) => e.type)).toEqual(['delete_message']);
  });

  it('still finds it in the feed, also narrowed to the channel, and may still flag it by ID', async () => {
    const id = await post(env, who('administrator'), PROTECTED);
    await leave('member', PROTECTED);
    expect(await listed(who('member'))).toContain(id);
    expect(await listed(who('member'), [{ operator: 'channel', operand: PROTECTED }])).toContain(id);
    const starred = await call(env.server, 'POST', '/api/v1/messages/flags', {
      as: who('member'),
      form: { messages: JSON.stringify([id]), op: 'add', flag: 'starred' },
    });
    expect(starred.status, starred.text).toBe(200);
    expect(flagsOf('member', id)).toContain('starred');
  });

  it('gets access back on joining again', async () => {
    const id = await post(env, who('administrator'), PROTECTED);
    await leave('member', PROTECTED);
    expect((await fetch(who('member'), id)).body).toEqual(INVALID_MESSAGE);
    const res = await subscribe(env.server, who('administrator'), [NAMES[PROTECTED]!], {
      principals: JSON.stringify([who('member').user_id]),
    });
    expect(res.status, res.text).toBe(200);
    const again = await fetch(who('member'), id);
    expect(again.status).toBe(200);
    // Their own copy again, not a historical one.
    expect((again.body.message as Json).flags).toEqual(flagsOf('member', id));
  });
});

describe('other channels and messages', () => {
  it('a member who left a private channel with shared history loses access too; the feed keeps what they received', async () => {
    const id = await post(env, who('owner'), SHARED);
    expect((await fetch(who('member'), id)).status).toBe(200);
    await leave('member', SHARED);
    expect((await fetch(who('member'), id)).body).toEqual(INVALID_MESSAGE);
    expect(await listed(who('member'))).toContain(id);
  });

  it('a guest who left a public channel loses access and its reaction events; the feed keeps the message', async () => {
    const id = await post(env, who('member'), HOME);
    expect((await fetch(who('guest'), id)).status).toBe(200);
    await leave('guest', HOME);
    expect((await fetch(who('guest'), id)).body).toEqual(INVALID_MESSAGE);
    expect((await react(env.server, who('guest'), id, { emoji_name: 'octopus' })).body).toEqual(INVALID_MESSAGE);
    const events = await observeEvents(env, ['guest', 'member'], { event_types: '["reaction"]' }, () =>
      react(env.server, who('member_2'), id, { emoji_name: 'octopus' }),
    );
    expect(events.guest).toEqual([]);
    expect(events.member!.map((e) => e.type)).toEqual(['reaction']);
    expect(await listed(who('guest'))).toContain(id);
  });

  it('a member who left a public channel keeps access, and keeps hearing of changes to what they received', async () => {
    const id = await post(env, who('owner'), ALARM);
    await leave('member', ALARM);
    expect((await fetch(who('member'), id)).status).toBe(200);
    const events = await observeEvents(env, ['member'], { event_types: '["reaction"]' }, () =>
      react(env.server, who('member_2'), id, { emoji_name: 'octopus' }),
    );
    expect(events.member!.map((e) => e.type)).toEqual(['reaction']);
  });

  it('a member of a group that may add subscribers keeps access to a private channel after leaving it', async () => {
    const id = await post(env, who('administrator'), PROTECTED);
    await leave('member', PROTECTED);
    const res = await fetch(who('member'), id);
    expect(res.status).toBe(200);
    expect((res.body.message as Json).flags).toEqual(flagsOf('member', id));
  });

  it('leaving a channel changes nothing for direct messages', async () => {
    const id = await postDirect(env, who('administrator'), [who('member').user_id]);
    await leave('member', PROTECTED);
    expect((await fetch(who('member'), id)).status).toBe(200);
  });
});
