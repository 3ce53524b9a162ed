import { describe, expect, it } from 'vitest';
import { indexOf } from '../../src/store/indexes.js';
import { error, observeEvents, success, tables, useTestRealm } from '../helpers/harness.js';
import { freshRealm } from '../messages/support.js';
import { advance, CHANNEL, fetchMessage, messageRow, patchMessage, post, setEditing } from './support.js';

/** PATCH /messages/{id} moving topics and channels (companion tier, area edit-delete; reference update-message). */
const env = useTestRealm();
const OK = success({ detached_uploads: [] });

const topicIds = (realm: string, streamId: number, topic: string) =>
  indexOf(tables(env.server, realm)).messages.topic(streamId, topic)?.toArray() ?? [];

/** The notification bot's posts in a topic, oldest first. */
const notices = (realm: string, streamId: number, topic: string) => {
  const t = tables(env.server, realm);
  return topicIds(realm, streamId, topic)
    .map((id) => t.messages[String(id)]!)
    .filter((m) => m.sender_id === t.realm.realm.notification_bot_id)
    .map((m) => m.content);
};

describe('a move below feature level 365 (reference get-messages: before last_moved_timestamp)', () => {
  it('is told by last_edit_timestamp, as any edit was; from 365 by last_moved_timestamp only', async () => {
    for (const level of [364, 365]) {
      const { realm, who } = await freshRealm(env.server, level);
      const id = await post(env.server, who.member!, CHANNEL.public, 'ships', 'a');
      await advance(env.server, realm, 5);
      expect((await patchMessage(env.server, who.member!, id, { topic: 'boats', propagate_mode: 'change_one' })).body).toEqual(OK);
      const moved = (await fetchMessage(env.server, who.member!, id)).body.message as Record<string, unknown>;
      const at = messageRow(env.server, realm, id)!.timestamp + 5;
      if (level === 364) {
        expect(moved.last_edit_timestamp).toBe(at);
        expect(moved).not.toHaveProperty('last_moved_timestamp');
      } else {
        expect(moved.last_moved_timestamp).toBe(at);
        expect(moved).not.toHaveProperty('last_edit_timestamp');
      }
    }
  });
});

describe('moving to another topic', () => {
  it('moves one, later or all messages of the topic, sets last_moved_timestamp (R2.5-9) and keeps the indexes right', async () => {
    const { server, realm, who } = env;
    const [a, b, c] = [
      await post(server, who.member!, CHANNEL.public, 'ships', 'a'),
      await post(server, who.member_2!, CHANNEL.public, 'ships', 'b'),
      await post(server, who.member!, CHANNEL.public, 'ships', 'c'),
    ];
    await advance(server, realm, 5);
    expect((await patchMessage(server, who.member!, b, { topic: 'boats', propagate_mode: 'change_later' })).body).toEqual(OK);
    expect(topicIds(realm, CHANNEL.public, 'ships')).toEqual([a]);
    expect(topicIds(realm, CHANNEL.public, 'boats').filter((id) => id <= c)).toEqual([b, c]);
    const moved = (await fetchMessage(server, who.member!, b)).body.message as Record<string, unknown>;
    expect(moved.subject).toBe('boats');
    expect(moved.last_moved_timestamp).toBe(messageRow(server, realm, b)!.timestamp + 5);
    expect(moved).not.toHaveProperty('last_edit_timestamp');
    expect(moved.edit_history).toEqual([
      { user_id: who.member!.user_id, timestamp: moved.last_moved_timestamp as number, prev_topic: 'ships', topic: 'boats' },
    ]);
    expect((await fetchMessage(server, who.member!, a)).body.message).not.toHaveProperty('last_moved_timestamp');

    expect((await patchMessage(server, who.member!, c, { topic: 'ships', propagate_mode: 'change_one' })).body).toEqual(OK);
    // (the notification bot's notice of that move follows them in the topic)
    expect(topicIds(realm, CHANNEL.public, 'ships').filter((id) => id <= c)).toEqual([a, c]);
    expect((await patchMessage(server, who.member!, a, { topic: 'fleet', propagate_mode: 'change_all' })).body).toEqual(OK);
    expect(topicIds(realm, CHANNEL.public, 'ships')).toEqual([]);
    expect(topicIds(realm, CHANNEL.public, 'fleet').slice(0, 2)).toEqual([a, c]);
    // The index equals a recomputation from the rows.
    const fresh = new (indexOf(tables(server, realm)).messages.constructor as new (t: unknown) => { describe(): unknown })(
      tables(server, realm),
    );
    expect(indexOf(tables(server, realm)).messages.describe()).toEqual(fresh.describe());
  });

  it('posts the notification bot notices the reference posts', async () => {
    const { server, realm, who } = env;
    const a = await post(server, who.member!, CHANNEL.public, 'lone', 'only');
    await patchMessage(server, who.member!, a, { topic: 'lone two', send_notification_to_old_thread: 'true' });
    const mention = `@_**${tables(server, realm).users[String(who.member!.user_id)]!.full_name}|${who.member!.user_id}**`;
    expect(notices(realm, CHANNEL.public, 'lone two')).toEqual([`This topic was moved here from #**home>lone** by ${mention}.`]);
    expect(notices(realm, CHANNEL.public, 'lone')).toEqual([`This topic was moved to #**home>lone two** by ${mention}.`]);
    const b = await post(server, who.member!, CHANNEL.public, 'pair', 'one');
    await post(server, who.member!, CHANNEL.public, 'pair', 'two');
    await patchMessage(server, who.member!, b, {
      topic: 'split',
      send_notification_to_new_thread: 'false',
      send_notification_to_old_thread: 'true',
    });
    expect(notices(realm, CHANNEL.public, 'split')).toEqual([]);
    expect(notices(realm, CHANNEL.public, 'pair')).toEqual([`A message was moved from this topic to #**home>split** by ${mention}.`]);
  });

  it('resolves and unresolves with a notice, without counting as a move', async () => {
    const { server, realm, who } = env;
    const a = await post(server, who.member!, CHANNEL.public, 'bug 7', 'broken');
    expect((await patchMessage(server, who.guest!, a, { topic: '✔ bug 7', propagate_mode: 'change_all' })).body).toEqual(OK);
    const name = tables(server, realm).users[String(who.guest!.user_id)]!.full_name;
    expect(notices(realm, CHANNEL.public, '✔ bug 7')).toEqual([`@_**${name}|${who.guest!.user_id}** has marked this topic as resolved.`]);
    const row = messageRow(server, realm, a)!;
    expect(row.subject).toBe('✔ bug 7');
    expect(row.last_moved_timestamp).toBeNull();
    await patchMessage(server, who.member!, a, { topic: 'bug 7', propagate_mode: 'change_all' });
    expect(notices(realm, CHANNEL.public, 'bug 7').at(-1)).toMatch(/has marked this topic as unresolved\.$/);
  });

  it('resolves by can_resolve_topics_group alone (organization or channel), not by the right to move topics', async () => {
    const { server, realm, who } = env;
    const a = await post(server, who.member!, CHANNEL.public, 'needs fix', 'x');
    await setEditing(server, realm, { can_resolve_topics_group: 1 /* role:nobody */ });
    // The guest may move topics (organization: everyone) but is not in the home channel's resolve group (members).
    expect((await patchMessage(server, who.guest!, a, { topic: '✔ needs fix' })).body).toEqual(
      error("You don't have permission to resolve topics in this channel."),
    );
    expect((await patchMessage(server, who.guest!, a, { topic: 'needs more fix' })).body).toEqual(OK);
    expect((await patchMessage(server, who.member_2!, a, { topic: '✔ needs more fix' })).body).toEqual(OK);
  });

  it('applies the topic policy, the move time limit and the topic rules of spec §1', async () => {
    const { server, realm, who } = env;
    const a = await post(server, who.member!, CHANNEL.public, 'rules', 'x');
    await setEditing(server, realm, { can_move_messages_between_topics_group: 4 /* role:moderators */ });
    // The channel's own group (members in the demo) still lets a member move; a guest is in neither.
    expect((await patchMessage(server, who.guest!, a, { topic: 'guest move' })).body).toEqual(
      error("You don't have permission to edit this message"),
    );
    expect(messageRow(server, realm, a)!.subject).toBe('rules');
    expect((await patchMessage(server, who.member_2!, a, { topic: 'member move' })).body).toEqual(OK);
    await advance(server, realm, 7 * 24 * 3600 + 21);
    expect((await patchMessage(server, who.member_2!, a, { topic: 'late move' })).body).toEqual(
      error("The time limit for editing this message's topic has passed."),
    );
    expect((await patchMessage(server, who.moderator!, a, { topic: 'moderator move' })).body).toEqual(OK);
    const b = await post(server, who.member!, CHANNEL.disable_empty_topic, 'named', 'x');
    expect((await patchMessage(server, who.member!, b, { topic: '' })).body).toEqual(
      error('Sending messages to the general chat is not allowed in this channel.'),
    );
  });

  it('refuses a change_all reaching messages older than the limit, with the counts', async () => {
    const { server, realm, who } = env;
    const old = await post(server, who.member!, CHANNEL.public, 'aging', 'old');
    await advance(server, realm, 7 * 24 * 3600);
    const recent = await post(server, who.member!, CHANNEL.public, 'aging', 'new');
    await advance(server, realm, 100);
    const res = await patchMessage(server, who.member!, recent, { topic: 'aged', propagate_mode: 'change_all' });
    expect(res.body).toEqual(
      error('You only have permission to move the 1/2 most recent messages in this topic.', 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED', {
        first_message_id_allowed_to_move: recent,
        total_messages_in_topic: 2,
        total_messages_allowed_to_move: 1,
      }),
    );
    expect(topicIds(realm, CHANNEL.public, 'aging')).toEqual([old, recent]);
  });
});

describe('moving to another channel', () => {
  it('moves, tells who can see it, and sends delete_message to those who lose it', async () => {
    const { server, realm, who } = env;
    const id = await post(server, who.member!, CHANNEL.public, 'crossing', 'over');
    const events = await observeEvents(env, ['member', 'member_2', 'guest', 'owner', 'administrator'], {}, () =>
      patchMessage(server, who.moderator!, id, { stream_id: String(CHANNEL.private_protected), send_notification_to_new_thread: 'false' }),
    );
    const row = messageRow(server, realm, id)!;
    expect([row.stream_id, row.recipient_id]).toEqual([
      CHANNEL.private_protected,
      tables(server, realm).channels[String(CHANNEL.private_protected)]!.recipient_id,
    ]);
    expect(row.edit_history[0]).toMatchObject({ prev_stream: CHANNEL.public, stream: CHANNEL.private_protected });
    const update = events.member!.find((e) => e.type === 'update_message')!;
    expect(update).toMatchObject({
      message_ids: [id],
      stream_id: CHANNEL.public,
      new_stream_id: CHANNEL.private_protected,
      orig_subject: 'crossing',
      propagate_mode: 'change_one',
    });
    for (const role of ['member', 'member_2', 'administrator']) expect(events[role]!.map((e) => e.type)).toContain('update_message');
    // Guest and owner are not subscribed to the private channel: the message is gone for them.
    for (const role of ['guest', 'owner']) {
      expect(events[role]!.filter((e) => e.type === 'update_message')).toEqual([]);
      expect(events[role]!.filter((e) => e.type === 'delete_message')).toEqual([
        { type: 'delete_message', message_type: 'stream', message_id: id, stream_id: CHANNEL.public, topic: 'crossing' },
      ]);
      expect((await fetchMessage(server, who[role]!, id)).body).toEqual(error('Invalid message(s)'));
    }
    expect(indexOf(tables(server, realm)).messages.topic(CHANNEL.private_protected, 'crossing')?.toArray()).toContain(id);
    expect(indexOf(tables(server, realm)).messages.topic(CHANNEL.public, 'crossing')).toBeUndefined();
  });

  it('needs the right to move between channels, access to the destination, and the right to post there', async () => {
    const { server, realm, who } = env;
    const id = await post(server, who.member!, CHANNEL.public, 'stay', 'x');
    expect((await patchMessage(server, who.member!, id, { stream_id: String(CHANNEL.web_public) })).body).toEqual(
      error('You do not have permission to post in this channel.'),
    );
    expect((await patchMessage(server, who.member_2!, id, { stream_id: String(CHANNEL.private_shared) })).body).toEqual(
      error('Invalid channel ID'),
    );
    expect((await patchMessage(server, who.member!, id, { stream_id: String(CHANNEL.archived) })).body).toEqual(
      error('Invalid channel ID'),
    );
    await setEditing(server, realm, { can_move_messages_between_channels_group: 3 /* role:administrators */ });
    expect((await patchMessage(server, who.member!, id, { stream_id: String(CHANNEL.public_2) })).body).toEqual(
      error("You don't have permission to move this message"),
    );
    expect(messageRow(server, realm, id)!.stream_id).toBe(CHANNEL.public);
    expect((await patchMessage(server, who.administrator!, id, { stream_id: String(CHANNEL.public_2) })).body).toEqual(OK);
  });
});
