import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/app.js';
import type { MessageRow, RealmState } from '../../src/store/state.js';
import { startTestServer } from '../helpers/test-server.js';
import {
  INVALID_MESSAGE,
  WORLD,
  channelId,
  error,
  freshRealm,
  observe,
  pick,
  putRow,
  receivedFlags,
  report,
  tables,
  type Creds,
  type Json,
} from './support.js';

/**
 * POST /messages/{id}/report refusals (spec §4.13, §7; reference §1 value parsing and §4.13 checks):
 * parse order message_id → report_type → description, then, in order: `other` needs an explanation,
 * the organization needs a moderation request channel, the message must be visible, the report must be
 * sent. Every refusal has its exact body and changes nothing: no message, no event.
 */

type RealmKind = 'plain' | 'no-moderation' | 'archived-moderation';
let server: MockServer;
const realms = {} as Record<RealmKind, { realm: string; who: Creds }>;

beforeAll(async () => {
  server = await startTestServer();
  realms.plain = await freshRealm(server);
  realms['no-moderation'] = await freshRealm(server);
  realms['archived-moderation'] = await freshRealm(server);
  const noMod = tables(server, realms['no-moderation'].realm).realm.realm;
  await putRow(server, realms['no-moderation'].realm, 'realm', 'realm', { ...noMod, moderation_request_channel_id: null });
  const archived = realms['archived-moderation'].realm;
  const moderation = tables(server, archived).channels[String(channelId('moderation'))]!;
  await putRow(server, archived, 'channels', moderation.stream_id, { ...moderation, is_archived: true });
});
afterAll(() => server.close());

const uid = (role: string) => WORLD.credentials[role]!.user_id;

/** Messages by what makes them fit a case, read from the realm's store. */
const MESSAGES: Record<string, (t: RealmState) => MessageRow | { id: number | string }> = {
  'a public message': (t) => pick(t, 'public message', (m) => m.stream_id === channelId('public') && m.sender_id === uid('member_2')),
  'a DM between member and member_2': (t) =>
    pick(t, 'dm', (m) => m.type === 'private' && m.dm_user_ids!.join() === [uid('member'), uid('member_2')].join()),
  'an old protected-history message': (t) =>
    pick(
      t,
      'protected message member_2 missed',
      (m) => m.stream_id === channelId('private_protected') && receivedFlags(t, uid('member_2'), m.id) === undefined,
    ),
  'a public_2 message': (t) => pick(t, 'public_2 message', (m) => m.stream_id === channelId('public_2')),
  'message ID 0': () => ({ id: 0 }),
  'a nonexistent message': () => ({ id: 999999999999999 }),
  'a non-integer ID': () => ({ id: 'abc' }),
};

const TOO_LONG = 'x'.repeat(1001);
const REQUIRED = error('An explanation is required.');
const DISABLED = error('Message reporting is not enabled in this organization.');
const FAILED = error('Failed to send the message report.');
const INVALID_TYPE = error('Invalid report_type: Value error, Not in the list of possible values');
const MISSING_TYPE = error("Missing 'report_type' argument", 'REQUEST_VARIABLE_MISSING', { var_name: 'report_type' });
const TOO_LONG_ERR = error('description is too long (limit: 1000 characters)');

/** [case, realm, reporter, message, form (undefined: no body at all), status, body] */
const CASES: [string, RealmKind, string, string, Record<string, string> | undefined, number, Json][] = [
  // Parameters (reference §1: missing, then malformed, in parse order).
  ['no body at all', 'plain', 'member', 'a public message', undefined, 400, MISSING_TYPE],
  ['no report_type', 'plain', 'member', 'a public message', {}, 400, MISSING_TYPE],
  ['no report_type, a description too long', 'plain', 'member', 'a public message', { description: TOO_LONG }, 400, MISSING_TYPE],
  ['report_type not in the list', 'plain', 'member', 'a public message', { report_type: 'abuse' }, 400, INVALID_TYPE],
  ['report_type in another case', 'plain', 'member', 'a public message', { report_type: 'Spam' }, 400, INVALID_TYPE],
  [
    'report_type with a space (a raw string, never stripped)',
    'plain',
    'member',
    'a public message',
    { report_type: ' spam' },
    400,
    INVALID_TYPE,
  ],
  ['report_type empty', 'plain', 'member', 'a public message', { report_type: '' }, 400, INVALID_TYPE],
  [
    'report_type invalid, a description too long',
    'plain',
    'member',
    'a public message',
    { report_type: 'abuse', description: TOO_LONG },
    400,
    INVALID_TYPE,
  ],
  [
    'a description of 1001 characters',
    'plain',
    'member',
    'a public message',
    { report_type: 'spam', description: TOO_LONG },
    400,
    TOO_LONG_ERR,
  ],
  [
    'a description of 1001 characters, other',
    'plain',
    'member',
    'a public message',
    { report_type: 'other', description: TOO_LONG },
    400,
    TOO_LONG_ERR,
  ],
  [
    'a parse error beats every check',
    'no-moderation',
    'member_3',
    'a DM between member and member_2',
    { report_type: 'spam', description: TOO_LONG },
    400,
    TOO_LONG_ERR,
  ],
  // 1. `other` needs an explanation.
  ['other, empty description', 'plain', 'member', 'a public message', { report_type: 'other', description: '' }, 400, REQUIRED],
  ['other, no description', 'plain', 'member', 'a public message', { report_type: 'other' }, 400, REQUIRED],
  ['other, whitespace description', 'plain', 'member', 'a public message', { report_type: 'other', description: ' \n\t ' }, 400, REQUIRED],
  [
    'other, empty description, before the moderation-channel check',
    'no-moderation',
    'member',
    'a public message',
    { report_type: 'other' },
    400,
    REQUIRED,
  ],
  [
    'other, empty description, before the visibility check',
    'plain',
    'member_3',
    'a DM between member and member_2',
    { report_type: 'other' },
    400,
    REQUIRED,
  ],
  [
    'other, empty description, on a missing message',
    'plain',
    'member',
    'message ID 0',
    { report_type: 'other', description: '' },
    400,
    REQUIRED,
  ],
  [
    'other, empty description, all three checks failing',
    'no-moderation',
    'guest',
    'a public_2 message',
    { report_type: 'other' },
    400,
    REQUIRED,
  ],
  // 2. A moderation request channel.
  ['no moderation channel', 'no-moderation', 'member', 'a public message', { report_type: 'spam' }, 400, DISABLED],
  [
    'no moderation channel, other with a description',
    'no-moderation',
    'member',
    'a public message',
    { report_type: 'other', description: 'why' },
    400,
    DISABLED,
  ],
  [
    'no moderation channel, before the visibility check',
    'no-moderation',
    'member_3',
    'a DM between member and member_2',
    { report_type: 'spam' },
    400,
    DISABLED,
  ],
  ['no moderation channel, a missing message', 'no-moderation', 'member', 'a nonexistent message', { report_type: 'norms' }, 400, DISABLED],
  // 3. A visible message.
  [
    'someone else’s direct message',
    'plain',
    'member_3',
    'a DM between member and member_2',
    { report_type: 'harassment' },
    400,
    INVALID_MESSAGE,
  ],
  [
    'protected history from before joining',
    'plain',
    'member_2',
    'an old protected-history message',
    { report_type: 'spam' },
    400,
    INVALID_MESSAGE,
  ],
  ['a guest, a public channel they are not in', 'plain', 'guest', 'a public_2 message', { report_type: 'spam' }, 400, INVALID_MESSAGE],
  ['message ID 0', 'plain', 'member', 'message ID 0', { report_type: 'spam' }, 400, INVALID_MESSAGE],
  ['a nonexistent message', 'plain', 'member', 'a nonexistent message', { report_type: 'inappropriate' }, 400, INVALID_MESSAGE],
  [
    'an invisible message, before the send check',
    'archived-moderation',
    'member_3',
    'a DM between member and member_2',
    { report_type: 'spam' },
    400,
    INVALID_MESSAGE,
  ],
  // 4. Sending the report.
  ['an archived moderation channel', 'archived-moderation', 'member', 'a public message', { report_type: 'spam' }, 400, FAILED],
  [
    'an archived moderation channel, other',
    'archived-moderation',
    'member',
    'a DM between member and member_2',
    { report_type: 'other', description: 'rude' },
    400,
    FAILED,
  ],
  // The path (reference §1): not an integer → 404 whatever else is wrong.
  ['a non-integer message ID', 'plain', 'member', 'a non-integer ID', { report_type: 'spam' }, 404, error('Not Found')],
];

const WATCHERS = ['owner', 'administrator', 'moderator', 'member', 'member_2', 'member_3', 'guest'] as const;

describe('POST /messages/{id}/report refusals (spec §4.13, reference §4.13)', () => {
  it.each(CASES)('%s (%s realm, by %s, %s)', async (_label, kind, role, messageKind, form, status, body) => {
    const { realm, who } = realms[kind];
    const t = tables(server, realm);
    const target = MESSAGES[messageKind]!(t);
    const count = Object.keys(t.messages).length;
    const counters = { ...t.counters.counters };
    let res!: Awaited<ReturnType<typeof report>>;
    const events = await observe(server, who, WATCHERS, async () => {
      res = await report(server, who[role]!, target.id, form);
    });
    expect(res.status).toBe(status);
    expect(res.body).toEqual(body);
    // A failed request changes nothing (reference §1 "Order of checks").
    expect(Object.keys(t.messages).length).toBe(count);
    expect(t.counters.counters).toEqual(counters);
    expect(events).toEqual(Object.fromEntries(WATCHERS.map((r) => [r, []])));
  });

  it('the same report passing every check succeeds, so each case above fails for its stated reason', async () => {
    const { realm, who } = await freshRealm(server);
    const m = MESSAGES['a public message']!(tables(server, realm));
    expect((await report(server, who.member!, m.id, { report_type: 'spam' })).body).toEqual({ result: 'success', msg: '' });
  });
});
