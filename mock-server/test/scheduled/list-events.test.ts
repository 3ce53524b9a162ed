import { describe, expect, it } from 'vitest';
import { error, observeEvents, openQueue, drain, success, tables, useTestRealm, nowOf } from '../helpers/harness.js';
import { advance, channelForm, deleteScheduled, directForm, editScheduled, HOUR, listScheduled, schedule } from './support.js';

/** The list and delete companions of §4.1/§4.2, and the `scheduled_messages` events (reference §6). */
const env = useTestRealm();
const NOT_FOUND = { result: 'error', code: 'BAD_REQUEST', msg: 'Scheduled message does not exist' };
const ids = async (role = 'member') => (await listScheduled(env.server, env.who[role]!)).map((s) => s.scheduled_message_id);

describe('get-scheduled-messages', () => {
  it("lists the caller's own, pending and failed, by delivery time", async () => {
    expect(await ids()).toEqual([3, 2, 1]);
    expect(await ids('owner')).toEqual([4]);
    expect(await ids('member_2')).toEqual([]);
    const failed = (await listScheduled(env.server, env.who.member!))[0]!;
    expect(failed).toMatchObject({ scheduled_message_id: 3, failed: true });
  });

  it('orders equal times by ID, and drops what was delivered', async () => {
    const at = String(nowOf(env.server, env.realm) + 2 * HOUR);
    const a = (await schedule(env.server, env.who.member!, channelForm(env.server, env.realm, { scheduled_delivery_timestamp: at }))).body
      .scheduled_message_id;
    const b = (await schedule(env.server, env.who.member!, directForm(env.server, env.realm, [15], { scheduled_delivery_timestamp: at })))
      .body.scheduled_message_id;
    expect(await ids()).toEqual([3, a, b, 2, 1]);
    await advance(env.server, env.realm, 3 * HOUR + 3600);
    expect(await ids()).toEqual([3, 1]);
  });
});

describe('delete-scheduled-message', () => {
  it('cancels one of the caller’s, failed ones included', async () => {
    expect((await deleteScheduled(env.server, env.who.member!, 2)).body).toEqual(success());
    expect((await deleteScheduled(env.server, env.who.member!, 3)).body).toEqual(success());
    expect(await ids()).toEqual([1]);
    expect(tables(env.server, env.realm).scheduled_messages['2']).toBeUndefined();
  });

  it.each([
    ["another user's", 4],
    ['a reminder', 5],
    ['an unknown ID', 99],
  ])('answers 404 for %s and changes nothing', async (_name, id) => {
    const res = await deleteScheduled(env.server, env.who.member!, id);
    expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    expect(await ids('owner')).toEqual([4]);
  });

  it('refuses a message already sent', async () => {
    await advance(env.server, env.realm, 4 * HOUR);
    const res = await deleteScheduled(env.server, env.who.member!, 2);
    expect([res.status, res.body]).toEqual([400, error('Scheduled message was already sent')]);
  });
});

describe('scheduled_messages events: to every queue of the sender, nobody else', () => {
  const ROLES = ['member', 'member_2', 'owner'];

  it('add carries the object as the list presents it (here to a legacy client: the empty topic renamed)', async () => {
    let id = 0;
    const events = await observeEvents(env, ROLES, {}, async () => {
      id = (await schedule(env.server, env.who.member!, channelForm(env.server, env.realm, { topic: '' }))).body
        .scheduled_message_id as number;
    });
    const listed = (await listScheduled(env.server, env.who.member!)).find((s) => s.scheduled_message_id === id)!;
    expect(listed.topic).toBe('general chat');
    expect(events).toEqual({ member: [{ type: 'scheduled_messages', op: 'add', scheduled_messages: [listed] }], member_2: [], owner: [] });
  });

  it('a client declaring empty_topic_name gets the empty topic as ""', async () => {
    const events = await observeEvents(env, ['member'], { client_capabilities: '{"empty_topic_name": true}' }, () =>
      schedule(env.server, env.who.member!, channelForm(env.server, env.realm, { topic: '' })),
    );
    expect((events.member![0]!.scheduled_messages as { topic: string }[])[0]!.topic).toBe('');
  });

  it('update carries the full object; remove the ID; every queue of the sender gets them', async () => {
    const at = tables(env.server, env.realm).scheduled_messages['2']!.scheduled_delivery_timestamp;
    const first = await openQueue(env.server, env.who.member!);
    const second = await openQueue(env.server, env.who.member!, { event_types: '["scheduled_messages"]' });
    await editScheduled(env.server, env.who.member!, 2, { content: 'Changed' });
    await deleteScheduled(env.server, env.who.member!, 2);
    const update = {
      type: 'scheduled_messages',
      op: 'update',
      scheduled_message: {
        scheduled_message_id: 2,
        type: 'private',
        to: [15],
        content: 'Changed',
        rendered_content: '<p>Changed</p>',
        scheduled_delivery_timestamp: at,
        read_by_sender: true,
        failed: false,
      },
    };
    const remove = { type: 'scheduled_messages', op: 'remove', scheduled_message_id: 2 };
    expect(await drain(env.server, env.who.member!, first.queueId)).toEqual([update, remove]);
    expect(await drain(env.server, env.who.member!, second.queueId)).toEqual([update, remove]);
  });

  it('a refused request sends nothing', async () => {
    const events = await observeEvents(env, ['member'], {}, async () => {
      await editScheduled(env.server, env.who.member!, 2, { content: '' });
      await deleteScheduled(env.server, env.who.member!, 4);
      await schedule(env.server, env.who.member!, channelForm(env.server, env.realm, { to: '999' }));
    });
    expect(events.member).toEqual([]);
  });
});
