import { describe, expect, it } from 'vitest';
import { indexOf } from '../../src/store/indexes.js';
import { drain, error, freshRealm, observeEvents, openQueue, success, tables, useTestRealm } from '../helpers/harness.js';
import { advance, CHANNEL, deleteMessage, fetchMessage, post, postDirect, setEditing } from './support.js';

/** DELETE /messages/{id} (companion tier, area edit-delete; reference delete-message). */
const env = useTestRealm();

describe('deleting a message', () => {
  it('removes the message, its receipts and its index entries', async () => {
    const { server, realm, who } = env;
    const id = await post(server, who.member!, CHANNEL.public, 'gone', 'bye');
    expect((await deleteMessage(server, who.member!, id)).body).toEqual(success());
    const t = tables(server, realm);
    expect(t.messages[String(id)]).toBeUndefined();
    expect(t.user_messages[String(id)]).toBeUndefined();
    expect(indexOf(t).messages.topic(CHANNEL.public, 'gone')).toBeUndefined();
    expect(indexOf(t).receipts.of(who.member_2!.user_id).received.has(id)).toBe(false);
    expect((await fetchMessage(server, who.member!, id)).body).toEqual(error('Invalid message(s)'));
    expect((await deleteMessage(server, who.member!, id)).body).toEqual(error('Invalid message(s)'));
  });

  it('lets owners of a message delete it within the limit, and deleters of any message at any time', async () => {
    const { server, realm, who } = env;
    const id = await post(server, who.member!, CHANNEL.public, 'policy', 'x');
    for (const role of ['member_2', 'guest']) {
      const res = await deleteMessage(server, who[role]!, id);
      expect([res.status, res.body]).toEqual([400, error("You don't have permission to delete this message")]);
    }
    await setEditing(server, realm, { message_content_delete_limit_seconds: 60 });
    await advance(server, realm, 61);
    expect((await deleteMessage(server, who.member!, id)).body).toEqual(error('The time limit for deleting this message has passed'));
    expect(tables(server, realm).messages[String(id)]).toBeDefined();
    expect((await deleteMessage(server, who.administrator!, id)).body).toEqual(success());
    // The demo's home channel gives moderators can_delete_any_message_group; alarm does not.
    const inHome = await post(server, who.member!, CHANNEL.public, 'policy', 'y');
    const inAlarm = await post(server, who.member!, CHANNEL.public_2, 'policy', 'y');
    expect((await deleteMessage(server, who.moderator!, inAlarm)).body).toEqual(error("You don't have permission to delete this message"));
    expect((await deleteMessage(server, who.moderator!, inHome)).body).toEqual(success());
  });

  it('follows the channel-level delete groups (level 407) beside the organization ones', async () => {
    const { server, realm, who } = env;
    // In the demo, can_delete_own_message_group of the channels is everyone: the organization's own
    // setting taken away, members still delete their messages there.
    await setEditing(server, realm, { can_delete_own_message_group: 1 /* role:nobody */ });
    const mine = await post(server, who.member!, CHANNEL.public, 'own', 'x');
    expect((await deleteMessage(server, who.member!, mine)).body).toEqual(success());
    // Direct messages have no channel: only the organization's setting counts.
    const dm = await postDirect(server, who.member!, [who.member_2!.user_id]);
    expect((await deleteMessage(server, who.member!, dm)).body).toEqual(error("You don't have permission to delete this message"));
  });

  it('sends delete_message to everyone who could see it, one at a time or in bulk (R4.21-15)', async () => {
    const { server, who } = env;
    const id = await post(server, who.member!, CHANNEL.private_protected, 'secret', 'x');
    const events = await observeEvents(env, ['member', 'member_2', 'administrator', 'owner', 'guest'], {}, () =>
      deleteMessage(server, who.member!, id),
    );
    const single = {
      type: 'delete_message',
      message_type: 'stream',
      message_id: id,
      stream_id: CHANNEL.private_protected,
      topic: 'secret',
    };
    for (const role of ['member', 'member_2', 'administrator']) expect(events[role]).toEqual([single]);
    for (const role of ['owner', 'guest']) expect(events[role]).toEqual([]);

    const dm = await postDirect(server, who.member!, [who.member_2!.user_id]);
    const bulk = await openQueue(server, who.member_2!, { client_capabilities: JSON.stringify({ bulk_message_deletion: true }) });
    const other = await openQueue(server, who.owner!);
    await deleteMessage(server, who.member!, dm);
    expect(await drain(server, who.member_2!, bulk.queueId)).toEqual([
      { type: 'delete_message', message_type: 'private', message_ids: [dm] },
    ]);
    expect(await drain(server, who.owner!, other.queueId)).toEqual([]);
  });
});

describe('who hears of a deletion', () => {
  it('the user who deleted it, even without a subscription or a copy; not a member without access', async () => {
    const { server, who } = env;
    // 54 (private, shared history): administrators may add subscribers, which lets them read it unsubscribed.
    const id = await post(server, who.member!, CHANNEL.private_shared, 'tidy up', 'x');
    const events = await observeEvents(env, ['administrator', 'member', 'member_2'], {}, () =>
      deleteMessage(server, who.administrator!, id),
    );
    const single = { type: 'delete_message', message_type: 'stream', message_id: id, stream_id: CHANNEL.private_shared, topic: 'tidy up' };
    for (const role of ['administrator', 'member']) expect(events[role], role).toEqual([single]);
    expect(events.member_2).toEqual([]);
  });
});

describe('deleting at a feature level before the channel delete groups (407)', () => {
  it('counts only the organization settings', async () => {
    const { server } = env;
    const { realm, who } = await freshRealm(server, 406);
    const inHome = await post(server, who.member!, CHANNEL.public, 'old level', 'x');
    // At 412 the home channel lets moderators delete any message; at 406 that channel setting does not exist.
    expect((await deleteMessage(server, who.moderator!, inHome)).body).toEqual(error("You don't have permission to delete this message"));
    await setEditing(server, realm, { can_delete_own_message_group: 1 /* role:nobody */ });
    expect((await deleteMessage(server, who.member!, inHome)).body).toEqual(error("You don't have permission to delete this message"));
    expect((await deleteMessage(server, who.administrator!, inHome)).body).toEqual(success());
  });
});
