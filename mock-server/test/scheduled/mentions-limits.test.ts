import { describe, expect, it } from 'vitest';
import { error, tables, useTestRealm } from '../helpers/harness.js';
import { advance, channelForm, listScheduled, newestMessage, remind, schedule } from './support.js';

/**
 * Rules a scheduled message shares with sending, and the limits of its delivery time: a group mention
 * needs the group's can_mention_group at creation (as sending refuses it) and again at delivery (a
 * permission lost since fails the message with the reason); a delivery time past the last second the
 * server can represent (9999-12-31T23:59:59Z) is refused while parsing (reference §1 "is too large").
 */
const env = useTestRealm();
const BOT = 22;
const SUPPORT = 9;
const notAllowed = error("You are not allowed to mention user group 'support'.");

/** Makes group `support` mentionable by nobody (its can_mention_group → the role:nobody system group). */
async function forbidMentions(): Promise<void> {
  await env.server.context.store.transact(env.realm, (tx) => {
    const nobody = Object.values(tx.tables.user_groups).find((g) => g.is_system_group && g.name === 'role:nobody')!;
    tx.put('user_groups', SUPPORT, { ...tx.tables.user_groups[String(SUPPORT)]!, can_mention_group: nobody.id });
  });
}

describe('group mentions', () => {
  it('refuses at creation a group mention the sender may not make, as sending does, and stores nothing', async () => {
    await forbidMentions();
    const form = channelForm(env.server, env.realm, { content: 'Hello @*support*' });
    const before = Object.keys(tables(env.server, env.realm).scheduled_messages).length;
    const res = await schedule(env.server, env.who.member!, form);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(notAllowed);
    expect(Object.keys(tables(env.server, env.realm).scheduled_messages)).toHaveLength(before);
    // A silent group mention notifies nobody and needs no permission.
    expect((await schedule(env.server, env.who.member!, { ...form, content: 'Hello @_*support*' })).status).toBe(200);
  });

  it('fails at delivery when the permission was lost since, with the reason in the Notification Bot notice', async () => {
    const created = await schedule(
      env.server,
      env.who.member!,
      channelForm(env.server, env.realm, { content: 'Hello @*support*', scheduled_delivery_timestamp: String(nowPlus(60)) }),
    );
    expect(created.status).toBe(200);
    await forbidMentions();
    await advance(env.server, env.realm, 60);
    const listed = (await listScheduled(env.server, env.who.member!)).find(
      (s) => s.scheduled_message_id === created.body.scheduled_message_id,
    );
    expect(listed).toMatchObject({ failed: true });
    const notice = newestMessage(env.server, env.realm);
    expect(notice).toMatchObject({ sender_id: BOT, type: 'private' });
    expect(notice.content).toContain(`Reason: ${notAllowed.msg}`);
  });
});

describe('delivery time limits', () => {
  it.each([
    [
      'create-scheduled-message',
      () => schedule(env.server, env.who.member!, channelForm(env.server, env.realm, { scheduled_delivery_timestamp: '253402300800' })),
    ],
    [
      'create-message-reminder',
      () => remind(env.server, env.who.member!, { message_id: String(firstMessageOf51()), scheduled_delivery_timestamp: '253402300800' }),
    ],
  ])('%s refuses a time after 9999-12-31T23:59:59Z', async (_op, request) => {
    const res = await request();
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error('scheduled_delivery_timestamp is too large'));
  });

  it('accepts the last representable second', async () => {
    const res = await schedule(
      env.server,
      env.who.member!,
      channelForm(env.server, env.realm, { scheduled_delivery_timestamp: '253402300799' }),
    );
    expect(res.status).toBe(200);
  });
});

function nowPlus(seconds: number): number {
  return (env.server.control.clock(env.realm) as { now: number }).now + seconds;
}

function firstMessageOf51(): number {
  return Math.min(
    ...Object.values(tables(env.server, env.realm).messages)
      .filter((m) => m.stream_id === 51)
      .map((m) => m.id),
  );
}
