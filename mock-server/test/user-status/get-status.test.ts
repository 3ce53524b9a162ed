import { describe, expect, it } from 'vitest';
import { error, openQueue, success, tables, useTestRealm } from '../helpers/harness.js';
import { customEmoji, deactivatedCredentials, getStatus, setOwn } from './support.js';

/**
 * GET /users/{user_id}/status (companion of §4.4; reference §2 "User status"): only non-default fields,
 * away only when true, `{}` when unset, exactly as register's user_status shows them.
 */
const env = useTestRealm();
const NOTIFICATION_BOT = 22;

describe('GET /users/{user_id}/status', () => {
  it('shows the three shapes of the demo statuses and {} when unset', async () => {
    const custom = customEmoji(env.server, env.realm).active;
    const cases: [string, Record<string, unknown>][] = [
      ['member', { status_text: 'In a meeting', emoji_name: 'computer', emoji_code: '1f4bb', reaction_type: 'unicode_emoji' }],
      ['member_2', { emoji_name: custom.name, emoji_code: String(custom.id), reaction_type: 'realm_emoji' }],
      ['moderator', { status_text: 'Out sick', away: true }],
      ['member_3', {}],
      ['owner', {}],
    ];
    for (const [role, status] of cases) {
      const res = await getStatus(env.server, env.who.guest!, env.who[role]!.user_id);
      expect({ role, status: res.status, body: res.body }).toEqual({ role, status: 200, body: success({ status }) });
    }
  });

  it('shows away alone once the text is cleared and presence is off', async () => {
    await setOwn(env.server, env.who.member!, { status_text: '', emoji_name: '', away: 'true' });
    expect((await getStatus(env.server, env.who.member_2!, env.who.member!.user_id)).body).toEqual(success({ status: { away: true } }));
  });

  it('presents every user as the register snapshot does', async () => {
    await setOwn(env.server, env.who.member_3!, { emoji_name: 'teamchat', away: 'true' });
    const { snapshot } = await openQueue(env.server, env.who.member!, { fetch_event_types: '["user_status"]' });
    const map = snapshot.user_status as Record<string, unknown>;
    const humans = Object.values(tables(env.server, env.realm).users).filter((u) => u.is_active && !u.is_bot);
    expect(humans.length).toBeGreaterThan(5);
    for (const user of humans) {
      const res = await getStatus(env.server, env.who.member!, user.user_id);
      expect({ user: user.user_id, status: res.body.status }).toEqual({ user: user.user_id, status: map[String(user.user_id)] ?? {} });
    }
  });

  it.each([
    ['an unknown user', () => 9999, 'No such user'],
    ['a bot (bots have no status)', () => env.who.bot!.user_id, 'No such user'],
    ['a system bot', () => NOTIFICATION_BOT, 'No such user'],
    ['a deactivated user', () => deactivatedCredentials(env.server, env.realm).user_id, 'User is deactivated'],
  ])('%s', async (_name, target, msg) => {
    const res = await getStatus(env.server, env.who.member!, target());
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: error(msg) });
  });
});
