import { beforeAll, describe, expect, it } from 'vitest';
import { call, credentials } from '../helpers/test-server.js';
import { CH, err, G, listKinds, listStreams, patch, ROLES, sortedKinds, useDemoServer, type Kind, type Role } from './support.js';

/**
 * GET /api/v1/streams (spec §4.15, reference §4.15, C16): the nine flags, their defaults, per role, in
 * the demo realm at the current feature level. Channels are compared as kinds of the world file.
 *
 * Access in the demo world (fixtures/world.demo.json): 53 private_protected grants content access to
 * every member through can_add_subscribers_group = role:members; 54 private_shared to its subscribers,
 * member_3 and administrators; 57 moderation to its subscribers (owner, administrator, moderator) and
 * administrators. Guests see only their subscriptions (51, 54) and web-public 55.
 */

const env = useDemoServer({ isolate: false });

type Expected = Record<Role, Kind[]>;
const ALL_ACTIVE: Kind[] = [
  'public',
  'public_2',
  'private_protected',
  'private_shared',
  'web_public',
  'moderation',
  'empty_topic_only',
  'disable_empty_topic',
];
const PUBLIC_ACTIVE: Kind[] = ['public', 'public_2', 'web_public', 'empty_topic_only', 'disable_empty_topic'];
const plus = (base: Kind[], ...more: Kind[]) => [...base, ...more];

/** Subscriptions (active, channel not archived) per role. */
const SUBSCRIBED: Expected = {
  owner: ['public', 'public_2', 'private_shared', 'web_public', 'moderation', 'empty_topic_only'],
  administrator: ['public', 'public_2', 'private_protected', 'web_public', 'moderation', 'disable_empty_topic'],
  moderator: ['public', 'public_2', 'private_protected', 'web_public', 'moderation', 'empty_topic_only', 'disable_empty_topic'],
  member: ['public', 'public_2', 'private_protected', 'private_shared', 'web_public', 'empty_topic_only', 'disable_empty_topic'],
  member_2: ['public', 'public_2', 'private_protected', 'web_public', 'empty_topic_only', 'disable_empty_topic'],
  guest: ['public', 'private_shared'],
  bot: ['public'],
};
const union = (...lists: Kind[][]) => sortedKinds([...new Set(lists.flat())]);
const perRole = (f: (role: Role) => Kind[]): Expected => Object.fromEntries(ROLES.map((r) => [r, sortedKinds(f(r))])) as Expected;

/** Default listing: subscribed ∪ public (guests: no unsubscribed public channel), archived left out. */
const DEFAULT = perRole((r) => (r === 'guest' ? SUBSCRIBED.guest : union(SUBSCRIBED[r], PUBLIC_ACTIVE)));
/** Metadata access (= include_all alone): administrators all; others what they may read or administer. */
const METADATA = perRole((r) => {
  if (r === 'owner' || r === 'administrator') return ALL_ACTIVE;
  if (r === 'guest') return ['public', 'private_shared', 'web_public'];
  return union(SUBSCRIBED[r], PUBLIC_ACTIVE, ['private_protected']);
});
const OFF = { include_public: false, include_subscribed: false };

const CASES: [string, Record<string, boolean>, Expected][] = [
  ['no parameters (include_public and include_subscribed default true, exclude_archived true)', {}, DEFAULT],
  [
    'the defaults spelt out',
    {
      include_public: true,
      include_web_public: false,
      include_subscribed: true,
      exclude_archived: true,
      include_all: false,
      include_default: false,
      include_owner_subscribed: false,
      include_can_access_content: false,
      include_all_active: false,
    },
    DEFAULT,
  ],
  ['nothing selected', OFF, perRole(() => [])],
  [
    'include_public alone (guests never see unsubscribed public channels)',
    { include_subscribed: false },
    perRole((r) => (r === 'guest' ? [] : PUBLIC_ACTIVE)),
  ],
  ['include_subscribed alone', { include_public: false }, perRole((r) => SUBSCRIBED[r])],
  ['include_web_public alone', { ...OFF, include_web_public: true }, perRole(() => ['web_public'])],
  [
    'include_default alone (default channels 51 and 52, as far as readable)',
    { ...OFF, include_default: true },
    perRole((r) => (r === 'guest' ? ['public'] : ['public', 'public_2'])),
  ],
  [
    'include_owner_subscribed alone (only bots have an owner: member_3, subscribed to 51, 54, 58)',
    { ...OFF, include_owner_subscribed: true },
    perRole((r) => (r === 'bot' ? ['public', 'private_shared', 'empty_topic_only'] : [])),
  ],
  ['include_can_access_content alone', { ...OFF, include_can_access_content: true }, METADATA],
  ['include_all alone (administrators: every channel; others: metadata access)', { ...OFF, include_all: true }, METADATA],
  ['include_all with the defaults', { include_all: true }, perRole((r) => union(DEFAULT[r], METADATA[r]))],
  [
    'include_web_public with the defaults (guests gain 55)',
    { include_web_public: true },
    perRole((r) => union(DEFAULT[r], ['web_public'])),
  ],
  [
    'exclude_archived false with the defaults (56 is public: every non-guest)',
    { exclude_archived: false },
    perRole((r) => (r === 'guest' ? DEFAULT.guest : plus(DEFAULT[r], 'archived'))),
  ],
  [
    'exclude_archived false with include_subscribed alone (56 subscribers: owner, administrator, member, member_2)',
    { include_public: false, exclude_archived: false },
    perRole((r) => (['owner', 'administrator', 'member', 'member_2'].includes(r) ? plus(SUBSCRIBED[r], 'archived') : SUBSCRIBED[r])),
  ],
  [
    'exclude_archived false with include_all',
    { ...OFF, include_all: true, exclude_archived: false },
    perRole((r) => (r === 'guest' ? METADATA.guest : plus(METADATA[r], 'archived'))),
  ],
];

describe('GET /api/v1/streams flags per role (§4.15)', () => {
  it('the demo world has the channels these tests assume', () => {
    const channels = env.server.control.world('demo').channels as Record<string, { stream_id: number }>;
    expect(Object.fromEntries(Object.entries(channels).map(([k, v]) => [k, v.stream_id]))).toEqual(CH);
  });

  it.each(CASES)('%s', async (_label, query, expected) => {
    const got: Record<string, unknown> = {};
    for (const role of ROLES) got[role] = await listKinds(env.server, env.who[role]!, query);
    expect(got).toEqual(expected);
  });
});

describe('include_all_active (§4.15 deprecated, C16)', () => {
  it.each(['moderator', 'member', 'member_2', 'guest', 'bot'] as const)(
    'is refused for %s with 400 User not authorized for this query',
    async (role) => {
      const res = await listStreams(env.server, env.who[role]!, { include_all_active: true });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(err('User not authorized for this query'));
    },
  );

  it.each(['owner', 'administrator'] as const)('means include_all for the %s', async (role) => {
    expect(await listKinds(env.server, env.who[role]!, { ...OFF, include_all_active: true })).toEqual(sortedKinds(ALL_ACTIVE));
    expect(await listKinds(env.server, env.who[role]!, { ...OFF, include_all_active: true, exclude_archived: false })).toEqual(
      sortedKinds([...ALL_ACTIVE, 'archived']),
    );
  });

  it('false is accepted from anyone', async () => {
    expect(await listKinds(env.server, env.who.member!, { include_all_active: false })).toEqual(DEFAULT.member);
  });
});

describe('GET /api/v1/streams parameters', () => {
  it.each([
    ['include_public', 'True', 'include_public is not valid JSON'],
    ['include_all', '1', 'include_all is not a boolean'],
    ['exclude_archived', '"false"', 'exclude_archived is not a boolean'],
  ])('%s=%s is refused: %s', async (name, value, msg) => {
    const res = await call(env.server, 'GET', '/api/v1/streams', { as: env.who.member!, query: { [name]: value } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(err(msg));
  });

  it('lists unknown parameters in ignored_parameters_unsupported', async () => {
    const res = await listStreams(env.server, env.who.member!, { include_everything: true });
    expect(res.body).toMatchObject({ result: 'success', ignored_parameters_unsupported: ['include_everything'] });
  });

  it('answers 401 without credentials', async () => {
    expect((await call(env.server, 'GET', '/api/v1/streams')).status).toBe(401);
  });
});

describe('content access versus metadata access', () => {
  // In the pristine world the two coincide; cut the granting group of 53 (by its subscribed
  // administrator) so the unsubscribed owner keeps metadata access only (reference §4.15).
  beforeAll(async () => {
    await env.server.control.createRealm({ realm_id: 'listing-access' });
    const c = credentials(env.server, 'listing-access');
    const res = await patch(env.server, c.administrator!, CH.private_protected, { can_add_subscribers_group: { new: G.nobody } });
    expect(res.body).toEqual({ result: 'success', msg: '' });
  });

  it('include_all still shows the channel to the owner, include_can_access_content no longer does', async () => {
    const owner = credentials(env.server, 'listing-access').owner!;
    expect(await listKinds(env.server, owner, { ...OFF, include_all: true })).toContain('private_protected');
    expect(await listKinds(env.server, owner, { ...OFF, include_can_access_content: true })).not.toContain('private_protected');
  });

  it('members outside the channel lose it from include_all as well', async () => {
    const c = credentials(env.server, 'listing-access');
    expect(await listKinds(env.server, c.member_3!, { ...OFF, include_all: true })).not.toContain('private_protected');
    expect(await listKinds(env.server, c.bot!, { ...OFF, include_all: true })).not.toContain('private_protected');
    // Its subscribers keep it.
    expect(await listKinds(env.server, c.member_2!, { ...OFF, include_all: true })).toContain('private_protected');
  });

  it('a channel administrator without content access sees the channel through include_all only', async () => {
    const c = credentials(env.server, 'listing-access');
    const admins = { direct_members: [c.member!.user_id], direct_subgroups: [] };
    expect((await patch(env.server, c.owner!, CH.moderation, { can_administer_channel_group: { new: admins } })).body).toEqual({
      result: 'success',
      msg: '',
    });
    expect(await listKinds(env.server, c.member!, { ...OFF, include_all: true })).toContain('moderation');
    expect(await listKinds(env.server, c.member!, { ...OFF, include_can_access_content: true })).not.toContain('moderation');
    expect(await listKinds(env.server, c.member!)).not.toContain('moderation');
  });
});
