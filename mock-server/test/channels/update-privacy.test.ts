import { describe, expect, it } from 'vitest';
import { credentials } from '../helpers/test-server.js';
import {
  CH,
  err,
  G,
  listKinds,
  OK,
  patch,
  realmRow,
  setRealm,
  streamAsAdmin,
  useDemoServer,
  type FormInput,
  type Kind,
} from './support.js';

/**
 * PATCH /api/v1/streams/{stream_id}: privacy (spec §3 channel privacy, §4.16 is_private, is_web_public,
 * history_public_to_subscribers, is_default_stream; reference §4.16 checks 2–4 and 6; C18).
 * The owner is subscribed to 51, 52, 54, 55, 57, 58 and not to 53 or 59; the administrator to 53, 57, 59
 * and not to 54. 51 and 52 are default channels; 57 is the moderation request channel.
 */

const env = useDemoServer({ levels: [361, 362] });

const privacy = (invite_only: boolean, history_public_to_subscribers: boolean, is_web_public: boolean) => ({
  invite_only,
  history_public_to_subscribers,
  is_web_public,
});
const PRIVACY_FIELDS = ['invite_only', 'history_public_to_subscribers', 'is_web_public'] as const;
async function privacyOf(id: number, realmId = 'demo') {
  const s = await streamAsAdmin(env.server, id, realmId);
  return Object.fromEntries(PRIVACY_FIELDS.map((f) => [f, s[f]]));
}

type Actor = 'owner' | 'administrator';
const ACCEPTED: [string, Actor, Kind, FormInput, ReturnType<typeof privacy>][] = [
  [
    'public → private keeps history when asked',
    'owner',
    'empty_topic_only',
    { is_private: true, history_public_to_subscribers: true },
    privacy(true, true, false),
  ],
  ['public → private defaults to protected history', 'owner', 'empty_topic_only', { is_private: true }, privacy(true, false, false)],
  [
    'a default channel made private while leaving the defaults',
    'owner',
    'public_2',
    { is_private: true, is_default_stream: false },
    privacy(true, false, false),
  ],
  ['private → public opens the history', 'owner', 'private_shared', { is_private: false }, privacy(false, true, false)],
  [
    'shared history of a private channel made protected by a subscribed owner',
    'owner',
    'private_shared',
    { history_public_to_subscribers: false },
    privacy(true, false, false),
  ],
  [
    'protected history made public by a subscribed administrator',
    'administrator',
    'private_protected',
    { history_public_to_subscribers: true },
    privacy(true, true, false),
  ],
  [
    'private protected → public by a subscribed administrator',
    'administrator',
    'private_protected',
    { is_private: false },
    privacy(false, true, false),
  ],
  ['public → web-public', 'owner', 'public', { is_web_public: true }, privacy(false, true, true)],
  ['web-public → public', 'owner', 'web_public', { is_web_public: false }, privacy(false, true, false)],
  ['web-public → private drops web-public', 'owner', 'web_public', { is_private: true }, privacy(true, false, false)],
  [
    'restating the current privacy of a private channel (no change, so no subscription needed)',
    'owner',
    'private_protected',
    { is_private: true },
    privacy(true, false, false),
  ],
];

const REFUSED: [string, Actor, Kind, FormInput, string][] = [
  ['public with protected history', 'owner', 'empty_topic_only', { history_public_to_subscribers: false }, 'Invalid parameters'],
  [
    'is_private false with protected history',
    'owner',
    'empty_topic_only',
    { is_private: false, history_public_to_subscribers: false },
    'Invalid parameters',
  ],
  ['web-public with protected history', 'owner', 'web_public', { history_public_to_subscribers: false }, 'Invalid parameters'],
  ['web-public and private at once', 'owner', 'empty_topic_only', { is_private: true, is_web_public: true }, 'Invalid parameters'],
  ['a private channel made web-public without going public', 'owner', 'private_shared', { is_web_public: true }, 'Invalid parameters'],
  ['a default channel made private', 'owner', 'public', { is_private: true }, 'A default channel cannot be private.'],
  [
    'a private channel made default',
    'administrator',
    'private_protected',
    { is_default_stream: true },
    'A default channel cannot be private.',
  ],
  [
    'private and default together',
    'owner',
    'empty_topic_only',
    { is_private: true, is_default_stream: true },
    'A default channel cannot be private.',
  ],
  [
    'the moderation request channel made public',
    'owner',
    'moderation',
    { is_private: false },
    'Moderation request channel must be private.',
  ],
  // C18: a privacy change of a private channel needs a subscription, not just access.
  ['C18: unsubscribed owner makes 53 public', 'owner', 'private_protected', { is_private: false }, 'Channel content access is required.'],
  [
    'C18: unsubscribed owner opens the history of 53',
    'owner',
    'private_protected',
    { history_public_to_subscribers: true },
    'Channel content access is required.',
  ],
  [
    'C18: unsubscribed owner makes 53 web-public',
    'owner',
    'private_protected',
    { is_private: false, is_web_public: true },
    'Channel content access is required.',
  ],
  [
    'C18: administrator with content access through a group, unsubscribed (54)',
    'administrator',
    'private_shared',
    { is_private: false },
    'Channel content access is required.',
  ],
];

describe('privacy changes accepted (§3, §4.16)', () => {
  it.each(ACCEPTED)('%s', async (_label, actor, kind, values, after) => {
    const res = await patch(env.server, env.who[actor]!, CH[kind], values);
    expect(res.body).toEqual(OK);
    expect(await privacyOf(CH[kind])).toEqual(after);
  });
});

describe('privacy changes refused, in the order of reference §4.16', () => {
  it.each(REFUSED)('%s', async (_label, actor, kind, values, msg) => {
    const before = await streamAsAdmin(env.server, CH[kind]);
    const defaults = [...realmRow(env.server).default_stream_ids];
    const res = await patch(env.server, env.who[actor]!, CH[kind], { ...values, description: 'should not stick' });
    expect([res.status, res.body]).toEqual([400, err(msg)]);
    expect(await streamAsAdmin(env.server, CH[kind])).toEqual(before);
    expect(realmRow(env.server).default_stream_ids).toEqual(defaults);
  });

  it('C18 leaves other changes to the unsubscribed owner alone', async () => {
    expect((await patch(env.server, env.who.owner!, CH.private_protected, { description: 'Owner was here' })).body).toEqual(OK);
    expect(await streamAsAdmin(env.server, CH.private_protected)).toMatchObject({ description: 'Owner was here', invite_only: true });
  });

  it('making a channel private needs can_create_private_channel_group', async () => {
    await setRealm(env.server, { can_create_private_channel_group: G.administrators });
    // member administers 58 (its creator) but may no longer create private channels.
    expect((await patch(env.server, env.who.member!, CH.empty_topic_only, { is_private: true })).body).toEqual(
      err('Insufficient permission'),
    );
    expect((await patch(env.server, env.who.owner!, CH.empty_topic_only, { is_private: true })).body).toEqual(OK);
  });

  it('making a channel public needs can_create_public_channel_group', async () => {
    // member is subscribed to 53; give them the administer right, then take the public-channel right.
    expect(
      (
        await patch(env.server, env.who.owner!, CH.private_protected, {
          can_administer_channel_group: { new: { direct_members: [env.who.member!.user_id], direct_subgroups: [] } },
        })
      ).body,
    ).toEqual(OK);
    await setRealm(env.server, { can_create_public_channel_group: G.administrators });
    expect((await patch(env.server, env.who.member!, CH.private_protected, { is_private: false })).body).toEqual(
      err('Insufficient permission'),
    );
    await setRealm(env.server, { can_create_public_channel_group: G.members });
    expect((await patch(env.server, env.who.member!, CH.private_protected, { is_private: false })).body).toEqual(OK);
  });
});

describe('web-public prerequisites (§4.16 is_web_public)', () => {
  it.each([
    ['the realm disables spectator access', { enable_spectator_access: false }],
    ['the server disables web-public channels', { web_public_streams_enabled: false }],
  ])('%s: Web-public channels are not enabled.', async (_label, settings) => {
    await setRealm(env.server, settings);
    const res = await patch(env.server, env.who.owner!, CH.public, { is_web_public: true });
    expect([res.status, res.body]).toEqual([400, err('Web-public channels are not enabled.')]);
    // The setting outranks the caller's permission (reference check 4).
    expect((await patch(env.server, env.who.member!, CH.empty_topic_only, { is_web_public: true })).body).toEqual(
      err('Web-public channels are not enabled.'),
    );
    expect(await privacyOf(CH.public)).toEqual(privacy(false, true, false));
  });

  it('needs can_create_web_public_channel_group (administrators in the demo realm)', async () => {
    expect((await patch(env.server, env.who.moderator!, CH.disable_empty_topic, { is_web_public: true })).body).toEqual(
      err('Insufficient permission'),
    );
    await setRealm(env.server, { can_create_web_public_channel_group: G.moderators });
    expect((await patch(env.server, env.who.moderator!, CH.disable_empty_topic, { is_web_public: true })).body).toEqual(OK);
    expect(await privacyOf(CH.disable_empty_topic)).toEqual(privacy(false, true, true));
  });

  it('turning web-public off needs no web-public setting', async () => {
    await setRealm(env.server, { enable_spectator_access: false });
    expect((await patch(env.server, env.who.owner!, CH.web_public, { is_web_public: false })).body).toEqual(OK);
  });
});

describe('is_default_stream (§4.16)', () => {
  it('adds a channel to the default channels', async () => {
    expect((await patch(env.server, env.who.administrator!, CH.empty_topic_only, { is_default_stream: true })).body).toEqual(OK);
    expect(realmRow(env.server).default_stream_ids).toEqual([CH.public, CH.public_2, CH.empty_topic_only]);
    expect(
      await listKinds(env.server, env.who.member_2!, { include_public: false, include_subscribed: false, include_default: true }),
    ).toEqual(['public', 'public_2', 'empty_topic_only']);
  });

  it('removes a channel from the default channels', async () => {
    expect((await patch(env.server, env.who.owner!, CH.public, { is_default_stream: false })).body).toEqual(OK);
    expect(realmRow(env.server).default_stream_ids).toEqual([CH.public_2]);
  });

  it('restating the current value needs no permission to manage default channels', async () => {
    expect((await patch(env.server, env.who.member!, CH.empty_topic_only, { is_default_stream: false })).body).toEqual(OK);
  });
});

describe('privacy of archived channels (§4.16, §9 level 362)', () => {
  it('is refused below level 362', async () => {
    const owner = credentials(env.server, 'lvl-361').owner!;
    const res = await patch(env.server, owner, CH.archived, { is_private: true });
    expect([res.status, res.body]).toEqual([400, err('Channel is archived.')]);
    expect(await privacyOf(CH.archived, 'lvl-361')).toEqual(privacy(false, true, false));
    // Other properties of an archived channel can still change.
    expect((await patch(env.server, owner, CH.archived, { description: 'Still editable' })).body).toEqual(OK);
  });

  it('is accepted from level 362, and the channel stays archived', async () => {
    const owner = credentials(env.server, 'lvl-362').owner!;
    expect((await patch(env.server, owner, CH.archived, { is_private: true })).body).toEqual(OK);
    expect(await streamAsAdmin(env.server, CH.archived, 'lvl-362')).toMatchObject({ ...privacy(true, false, false), is_archived: true });
  });
});
