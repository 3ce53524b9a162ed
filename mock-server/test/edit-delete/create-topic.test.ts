import { describe, expect, it } from 'vitest';
import type { GroupSettingValue } from '../../src/store/state.js';
import { error, send, tables, useTestRealm } from '../helpers/harness.js';
import { G } from '../channels/support.js';
import { CHANNEL, patchMessage, post } from './support.js';

/**
 * can_create_topic_group (reference send-message and update-message, feature level 441): from that level
 * a message that starts a topic (sent to it, or moved into it) needs the channel's group; a topic that
 * has messages is open to anyone who may post. Below it (every level this server emulates by default)
 * posting rights suffice, as on the reference server then.
 */
const env = useTestRealm();
const REFUSED = error('You do not have permission to create new topics in this channel.');
const quiet = { send_notification_to_old_thread: 'false', send_notification_to_new_thread: 'false' };

/** The channel's group, and the realm's level: set in the state, since 441 is above the levels realms are created at. */
async function setUp(level: number, group: GroupSettingValue): Promise<void> {
  await env.server.context.store.transact(env.realm, (tx) => {
    const realm = tx.tables.realm.realm;
    tx.put('realm', 'realm', { ...realm, feature_level: level });
    const channel = tx.tables.channels[String(CHANNEL.public)]!;
    tx.put('channels', CHANNEL.public, { ...channel, can_create_topic_group: group });
  });
}
const sendTo = (who: keyof typeof env.who, topic: string) =>
  send(env.server, env.who[who]!, { type: 'stream', to: String(CHANNEL.public), topic, content: 'hi' });

describe('can_create_topic_group', () => {
  it('below level 441 is not asked: a member starts a topic whatever the group', async () => {
    await setUp(412, G.administrators);
    expect((await sendTo('member', 'ct free')).body.result).toBe('success');
  });

  it('from level 441 a member outside the group cannot start a topic, only post to existing ones', async () => {
    await setUp(441, G.administrators);
    const before = Object.keys(tables(env.server, env.realm).messages).length;
    const refused = await sendTo('member', 'ct new');
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 400, body: REFUSED });
    expect(Object.keys(tables(env.server, env.realm).messages)).toHaveLength(before);
    expect((await sendTo('administrator', 'ct new')).body.result).toBe('success');
    expect((await sendTo('member', 'ct new')).body.result).toBe('success');
  });

  it("a bot starts topics through its owner's membership", async () => {
    await setUp(441, { direct_members: [env.who.member_3!.user_id], direct_subgroups: [] });
    expect((await sendTo('member', 'ct bot')).body).toEqual(REFUSED);
    expect((await sendTo('bot', 'ct bot')).body.result).toBe('success');
  });

  it('moving into a topic that does not exist needs the group; into an existing one or resolving does not', async () => {
    await setUp(412, G.everyone);
    const id = await post(env.server, env.who.member!, CHANNEL.public, 'ct move', 'one');
    await post(env.server, env.who.member!, CHANNEL.public, 'ct there', 'two');
    await setUp(441, G.administrators);
    const refused = await patchMessage(env.server, env.who.member!, id, { topic: 'ct elsewhere', ...quiet });
    expect(refused.body).toEqual(REFUSED);
    expect(tables(env.server, env.realm).messages[String(id)]!.subject).toBe('ct move');
    expect((await patchMessage(env.server, env.who.member!, id, { topic: '✔ ct move', ...quiet })).body.result).toBe('success');
    expect((await patchMessage(env.server, env.who.member!, id, { topic: 'ct there', ...quiet })).body.result).toBe('success');
    await setUp(412, G.everyone);
  });
});
