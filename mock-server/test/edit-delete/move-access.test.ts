import { describe, expect, it } from 'vitest';
import { drain, openQueue, tables, useTestRealm } from '../helpers/harness.js';
import { CHANNEL, deleteMessage, patchMessage, post } from './support.js';

/** Moves and access (companion tier, area edit-delete): receipts, protected history, first_message_id, empty topic. */
const env = useTestRealm();

const flagsOf = (realm: string, id: number, userId: number) => tables(env.server, realm).user_messages[String(id)]?.flags[String(userId)];

describe('moves and who may see the messages', () => {
  it('gives every subscriber of a protected-history destination a read receipt, and takes receipts from those shut out', async () => {
    const { server, realm, who } = env;
    const id = await post(server, who.member!, CHANNEL.public, 'to protected', 'x');
    expect(flagsOf(realm, id, who.guest!.user_id)).toBeDefined();
    expect(flagsOf(realm, id, who.moderator!.user_id)).toBeDefined();
    await patchMessage(server, who.administrator!, id, {
      stream_id: String(CHANNEL.private_protected),
      send_notification_to_new_thread: 'false',
    });
    // private_protected: administrator, moderator, member, member_2 (history not shared with new subscribers).
    for (const role of ['administrator', 'moderator', 'member', 'member_2']) expect(flagsOf(realm, id, who[role]!.user_id)).toBeDefined();
    for (const role of ['guest', 'owner', 'member_3']) expect(flagsOf(realm, id, who[role]!.user_id)).toBeUndefined();
  });

  it('moves with change_all only the messages of protected history the mover may see', async () => {
    const { server, realm, who } = env;
    // A message of the topic the member never received (protected history): their receipt taken away.
    const early = await post(server, who.moderator!, CHANNEL.private_protected, 'layers', 'before');
    await server.context.store.transact(realm, (tx) => {
      const row = tx.tables.user_messages[String(early)]!;
      const flags = { ...row.flags };
      delete flags[String(who.member!.user_id)];
      tx.put('user_messages', early, { ...row, flags });
    });
    const late = await post(server, who.member!, CHANNEL.private_protected, 'layers', 'after');
    await patchMessage(server, who.member!, late, {
      topic: 'layers moved',
      propagate_mode: 'change_all',
      send_notification_to_new_thread: 'false',
    });
    const t = tables(server, realm);
    expect([t.messages[String(early)]!.subject, t.messages[String(late)]!.subject]).toEqual(['layers', 'layers moved']);
  });

  it('keeps first_message_id of both channels right and tells those who know the channel', async () => {
    const { server, realm, who } = env;
    const channels = () => tables(server, realm).channels;
    const firstOf = (id: number) => channels()[String(id)]!.first_message_id;
    const first = firstOf(CHANNEL.public_2)!;
    const queue = await openQueue(server, who.member!);
    await patchMessage(server, who.administrator!, first, {
      stream_id: String(CHANNEL.public),
      propagate_mode: 'change_one',
      send_notification_to_new_thread: 'false',
    });
    const next = firstOf(CHANNEL.public_2)!;
    expect(next).toBeGreaterThan(first);
    const events = await drain(server, who.member!, queue.queueId);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'stream', op: 'update', stream_id: CHANNEL.public_2, property: 'first_message_id', value: next }),
    );
    await deleteMessage(server, who.administrator!, next);
    expect(firstOf(CHANNEL.public_2)).toBeGreaterThan(next);
  });

  it('shows the empty topic by its display name in update_message for clients without empty_topic_name', async () => {
    const { server, who } = env;
    const id = await post(server, who.member!, CHANNEL.public, 'soon empty', 'x');
    const legacy = await openQueue(server, who.member_2!, { event_types: JSON.stringify(['update_message']) });
    const modern = await openQueue(server, who.member_2!, {
      event_types: JSON.stringify(['update_message']),
      client_capabilities: JSON.stringify({ empty_topic_name: true }),
    });
    await patchMessage(server, who.member!, id, { topic: '', send_notification_to_new_thread: 'false' });
    expect((await drain(server, who.member_2!, legacy.queueId))[0]).toMatchObject({ orig_subject: 'soon empty', subject: 'general chat' });
    expect((await drain(server, who.member_2!, modern.queueId))[0]).toMatchObject({ orig_subject: 'soon empty', subject: '' });
  });
});
