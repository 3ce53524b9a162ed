import { describe, expect, it } from 'vitest';
import type { MessageRow, RealmState } from '../../src/store/state.js';
import { call } from '../helpers/test-server.js';
import {
  HISTORICAL,
  INVALID_MESSAGE,
  ROLES,
  WORLD,
  channelId,
  error,
  expectedAccess,
  fetchMessage,
  freshRealm,
  messages,
  pick,
  receivedFlags,
  tables,
  type Json,
  type Role,
  useDemo,
} from './support.js';

/**
 * Who may fetch which message (spec §4.3: BAD_REQUEST "when the message does not exist or is not
 * visible to the caller"; reference has_message_access and "Shared access checks"). Every kind of
 * message of the demo world against every role, the expectation computed from the rule (support.ts
 * expectedAccess): a public channel's message for every non-guest; protected history received and with
 * content access now; shared history with content access now; a direct message received. Visible ones
 * come with the caller's flags, or ["read", "historical"] when never received; anything else answers
 * exactly like a message that does not exist (after leaving a channel: access-after-leaving.test.ts).
 */

const env = useDemo();

const uid = (role: string) => WORLD.credentials[role]!.user_id;
const inChannel = (kind: string) => (m: MessageRow) => m.type === 'stream' && m.stream_id === channelId(kind);
const received = (m: MessageRow, role: string) => receivedFlags(env.t, uid(role), m.id) !== undefined;
const roleIds = () => new Set(ROLES.map(uid));
const dmOfRoles = (size: (n: number) => boolean) => (m: MessageRow) =>
  m.type === 'private' && size(m.dm_user_ids!.length) && m.dm_user_ids!.every((id) => roleIds().has(id));

/** One message of each kind, chosen from the store by what makes it that kind (never by a fixed ID). */
const KINDS: Record<string, (t: RealmState) => MessageRow> = {
  'public channel, received by every role': (t) =>
    pick(t, 'public message everyone got', (m) => inChannel('public')(m) && ROLES.every((r) => received(m, r))),
  'public channel, from before the guest subscribed': (t) =>
    pick(t, 'public message the guest missed', (m) => inChannel('public')(m) && !received(m, 'guest')),
  'public channel, never received by a former subscriber': (t) =>
    pick(t, 'public_2 message member_3 missed', (m) => inChannel('public_2')(m) && !received(m, 'member_3')),
  'private protected history, from before member_2 joined': (t) =>
    pick(t, 'protected message member_2 missed', (m) => inChannel('private_protected')(m) && !received(m, 'member_2')),
  'private protected history, after member_2 joined': (t) =>
    pick(t, 'protected message member_2 got', (m) => inChannel('private_protected')(m) && received(m, 'member_2')),
  'private shared history, not received by the administrator': (t) =>
    pick(t, 'shared-history message', (m) => inChannel('private_shared')(m) && !received(m, 'administrator')),
  'web-public channel, not received by the guest': (t) =>
    pick(t, 'web-public message', (m) => inChannel('web_public')(m) && !received(m, 'guest')),
  'archived channel': (t) => pick(t, 'archived-channel message', inChannel('archived')),
  'moderation channel (private, shared history)': (t) => pick(t, 'moderation message', inChannel('moderation')),
  'direct message between two roles': (t) =>
    pick(
      t,
      '1:1 direct message',
      dmOfRoles((n) => n === 2),
    ),
  'group direct message': (t) =>
    pick(
      t,
      'group direct message',
      dmOfRoles((n) => n >= 3),
    ),
  'direct message to oneself': (t) =>
    pick(
      t,
      'self direct message',
      dmOfRoles((n) => n === 1),
    ),
};

const ROWS = Object.keys(KINDS).flatMap((kind) => ROLES.map((role) => [kind, role] as [string, Role]));

describe('GET /messages/{id}: visibility, every kind of message × every role (spec §4.3)', () => {
  it.each(ROWS)('%s, fetched by %s', async (kind, role) => {
    const m = KINDS[kind]!(env.t);
    const before = receivedFlags(env.t, uid(role), m.id);
    const res = await fetchMessage(env.server, env.who[role]!, m.id);
    if (expectedAccess(env.t, uid(role), m)) {
      expect(res.status).toBe(200);
      const message = res.body.message as Json;
      expect(message.id).toBe(m.id);
      // Reference §4.3: the caller's own flags, or read + historical for history they never received.
      expect(message.flags).toEqual(before ?? HISTORICAL);
    } else {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_MESSAGE);
    }
    // Fetching is a read: it neither delivers the message to the caller nor changes their flags.
    expect(receivedFlags(env.t, uid(role), m.id)).toEqual(before);
  });
});

describe('the cases the table exists for, stated without the model', () => {
  it('a subscriber who joined a protected-history channel late cannot fetch older messages, only newer ones', async () => {
    const old = KINDS['private protected history, from before member_2 joined']!(env.t);
    const recent = KINDS['private protected history, after member_2 joined']!(env.t);
    expect(env.t.subscriptions[`${uid('member_2')}:${channelId('private_protected')}`]?.active).toBe(true);
    expect((await fetchMessage(env.server, env.who.member_2!, old.id)).body).toEqual(INVALID_MESSAGE);
    expect((await fetchMessage(env.server, env.who.member_2!, recent.id)).status).toBe(200);
    // The world file names one such pair too.
    const named = WORLD.messages.protected_history;
    expect((await fetchMessage(env.server, env.who.member_2!, named.hidden_id)).body).toEqual(INVALID_MESSAGE);
    expect((await fetchMessage(env.server, env.who.member_2!, named.visible_id)).status).toBe(200);
  });

  it('a guest reads the web-public channel without subscribing, as historical', async () => {
    const m = KINDS['web-public channel, not received by the guest']!(env.t);
    const res = await fetchMessage(env.server, env.who.guest!, m.id);
    expect(res.status).toBe(200);
    expect((res.body.message as Json).flags).toEqual(HISTORICAL);
  });

  it('a private channel with shared history is read through a granting group, a subscription, or not at all', async () => {
    const m = KINDS['private shared history, not received by the administrator']!(env.t);
    // 54: can_add_subscribers_group = member_3 + administrators; the administrator is not subscribed.
    expect((await fetchMessage(env.server, env.who.administrator!, m.id)).body).toMatchObject({
      result: 'success',
      message: { flags: HISTORICAL },
    });
    expect((await fetchMessage(env.server, env.who.moderator!, m.id)).body).toEqual(INVALID_MESSAGE);
    const notJoined = KINDS['public channel, never received by a former subscriber']!(env.t);
    expect((await fetchMessage(env.server, env.who.guest!, notJoined.id)).body).toEqual(INVALID_MESSAGE);
  });

  it('subscribing late opens shared history (as historical) but never protected history', async () => {
    const { realm, who: w } = await freshRealm(env.server);
    const rt = tables(env.server, realm);
    const shared = pick(rt, 'shared-history message', inChannel('private_shared'));
    const prot = pick(rt, 'protected message', inChannel('private_protected'));
    expect((await fetchMessage(env.server, w.member_2!, shared.id)).body).toEqual(INVALID_MESSAGE);
    expect((await fetchMessage(env.server, w.member_3!, prot.id)).body).toEqual(INVALID_MESSAGE);
    for (const [kind, role] of [
      ['private_shared', 'member_2'],
      ['private_protected', 'member_3'],
    ] as const) {
      const form = { subscriptions: JSON.stringify([{ name: WORLD.channels[kind]!.name }]), principals: JSON.stringify([uid(role)]) };
      const res = await call(env.server, 'POST', '/api/v1/users/me/subscriptions', { as: w.administrator!, form });
      expect(res.status).toBe(200);
    }
    expect((await fetchMessage(env.server, w.member_2!, shared.id)).body).toMatchObject({ message: { id: shared.id, flags: HISTORICAL } });
    expect((await fetchMessage(env.server, w.member_3!, prot.id)).body).toEqual(INVALID_MESSAGE);
  });

  it('a member reads a public-channel message they never received, flagged historical', async () => {
    const m = KINDS['public channel, never received by a former subscriber']!(env.t);
    expect((await fetchMessage(env.server, env.who.member_3!, m.id)).body).toMatchObject({ message: { id: m.id, flags: HISTORICAL } });
  });

  it('messages of an archived channel stay readable (reference §4.3)', async () => {
    const m = KINDS['archived channel']!(env.t);
    expect(env.t.channels[String(m.stream_id)]!.is_archived).toBe(true);
    const subscriber = ROLES.find((r) => received(m, r))!;
    expect((await fetchMessage(env.server, env.who[subscriber]!, m.id)).status).toBe(200);
    // A non-subscriber who may read the (public) channel gets it as history.
    expect((await fetchMessage(env.server, env.who.moderator!, m.id)).body).toMatchObject({ message: { flags: HISTORICAL } });
  });

  it('direct messages are visible to their participants only', async () => {
    for (const kind of ['direct message between two roles', 'group direct message', 'direct message to oneself']) {
      const m = KINDS[kind]!(env.t);
      for (const role of ROLES) {
        const res = await fetchMessage(env.server, env.who[role]!, m.id);
        expect([role, res.status]).toEqual([role, m.dm_user_ids!.includes(uid(role)) ? 200 : 400]);
      }
    }
  });
});

describe('an invisible message answers exactly like a missing one (reference "Shared access checks")', () => {
  const newest = () => Math.max(...messages(env.t).map((m) => m.id));

  it.each([
    ['ID 0', () => 0],
    ['the next unused ID', () => newest() + 1],
    ['a huge ID (15 digits)', () => '999999999999999'],
    ['the largest safe JavaScript integer', () => String(Number.MAX_SAFE_INTEGER)],
    ['a huge ID (largest 64-bit integer)', () => '9223372036854775807'],
  ])('%s', async (_label, id) => {
    // member_2 joined the protected-history channel after this message.
    const missing = await fetchMessage(env.server, env.who.member_2!, id());
    const invisible = await fetchMessage(
      env.server,
      env.who.member_2!,
      KINDS['private protected history, from before member_2 joined']!(env.t).id,
    );
    expect(invisible.body).toEqual(INVALID_MESSAGE);
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual(INVALID_MESSAGE);
    expect(missing.text).toBe(invisible.text);
  });

  it('with parameters given, too', async () => {
    const hidden = KINDS['direct message between two roles']!(env.t);
    const outsider = ROLES.find((r) => !hidden.dm_user_ids!.includes(uid(r)))!;
    const query = { apply_markdown: 'false', allow_empty_topic_name: 'true' };
    const invisible = await fetchMessage(env.server, env.who[outsider]!, hidden.id, query);
    const missing = await fetchMessage(env.server, env.who[outsider]!, 0, query);
    expect([invisible.status, invisible.body]).toEqual([400, INVALID_MESSAGE]);
    expect(missing.text).toBe(invisible.text);
  });

  it.each(['abc', '1.5', '-1', '1e3', '0x10', '%20'])('a path segment %j that is not an integer → 404 (reference §1)', async (segment) => {
    const res = await fetchMessage(env.server, env.who.member!, segment);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(error('Not Found'));
  });
});
