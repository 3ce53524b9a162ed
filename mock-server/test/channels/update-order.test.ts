import { describe, expect, it } from 'vitest';
import type { RealmRow } from '../../src/store/state.js';
import { CH, channelRow, err, G, patch, realmRow, setRealm, useDemoServer, type FormInput, type Kind, type Role } from './support.js';

/**
 * PATCH /api/v1/streams/{stream_id}: the order of the checks of reference §4.16 (1 access and administer
 * right, 2 privacy combination, 3 content access for a privacy change (C18), 4 web-public prerequisites,
 * 5 topics policy, 6 default channels, 7 retention, 8 archive state, 9 delete groups, 10 new name,
 * 11 group settings). Each request breaks two neighbouring checks; the earlier one answers, and nothing
 * is applied (reference §1: "A failed request changes nothing").
 */

const env = useDemoServer();

const MISMATCH = err("'old' value does not match the expected value.", 'EXPECTATION_MISMATCH');

const ORDER: [string, Role, Kind, FormInput, Partial<RealmRow>, Record<string, unknown>][] = [
  [
    'parse beats lookup: an invalid topics_policy on an invisible channel',
    'guest',
    'moderation',
    { topics_policy: 'never' },
    {},
    err('Invalid topics_policy'),
  ],
  ['1 lookup beats the administer right', 'guest', 'public_2', { description: 'x' }, {}, err('Invalid channel ID')],
  [
    '1 administer right beats 2 privacy',
    'member_2',
    'public',
    { is_private: true },
    {},
    err('You do not have permission to administer this channel.'),
  ],
  [
    '2 invalid combination beats the moderation channel rule',
    'owner',
    'moderation',
    { is_private: false, history_public_to_subscribers: false },
    {},
    err('Invalid parameters'),
  ],
  [
    '2 privacy beats 3 content access (C18)',
    'owner',
    'private_protected',
    { is_private: false, history_public_to_subscribers: false },
    {},
    err('Invalid parameters'),
  ],
  [
    '3 content access (C18) beats 4 web-public prerequisites',
    'owner',
    'private_protected',
    { is_private: false, is_web_public: true },
    { enable_spectator_access: false },
    err('Channel content access is required.'),
  ],
  [
    '4 web-public prerequisites beat 5 topics policy',
    'owner',
    'public',
    { is_web_public: true, topics_policy: 'empty_topic_only' },
    { web_public_streams_enabled: false },
    err('Web-public channels are not enabled.'),
  ],
  [
    '5 topics policy beats 6 default channels',
    'owner',
    'public',
    { topics_policy: 'empty_topic_only', is_default_stream: false },
    { can_manage_default_streams_group: G.nobody },
    err('To allow only the general chat topic, move every message of this channel to it first.'),
  ],
  // 6 and 7 refuse with the same text; a malformed retention value is a parse error and beats both.
  [
    'a malformed retention value beats 6 default channels',
    'member',
    'empty_topic_only',
    { is_default_stream: true, message_retention_days: '"forever"' },
    {},
    err("Bad value for 'message_retention_days': forever"),
  ],
  [
    '7 retention beats 8 archive state',
    'member',
    'empty_topic_only',
    { message_retention_days: 30, is_archived: true },
    {},
    err('Insufficient permission'),
  ],
  [
    '8 archive state beats 9 delete groups',
    'member',
    'empty_topic_only',
    { is_archived: true, can_delete_any_message_group: { new: G.moderators } },
    {},
    err('Channels cannot be archived with this operation.'),
  ],
  [
    '9 delete groups beat 10 new name',
    'member',
    'empty_topic_only',
    { can_delete_own_message_group: { new: G.moderators }, new_name: 'alarm' },
    {},
    err('Insufficient permission'),
  ],
  [
    '10 new name beats 11 group settings',
    'owner',
    'public',
    { new_name: 'alarm', can_remove_subscribers_group: { new: G.moderators, old: G.nobody } },
    {},
    err('Channel name is already in use.'),
  ],
  [
    '11 group settings: a mismatching old refuses the valid rest',
    'owner',
    'public',
    { description: 'fine', new_name: 'fine', can_remove_subscribers_group: { new: G.moderators, old: G.nobody } },
    {},
    MISMATCH,
  ],
];

describe('reference §4.16 check order', () => {
  it.each(ORDER)('%s', async (_label, role, kind, values, realm, body) => {
    if (Object.keys(realm).length > 0) await setRealm(env.server, realm);
    const before = structuredClone(channelRow(env.server, CH[kind]));
    const defaults = [...realmRow(env.server).default_stream_ids];
    const res = await patch(env.server, env.who[role]!, CH[kind], values);
    expect([res.status, res.body]).toEqual([400, body]);
    expect(channelRow(env.server, CH[kind])).toEqual(before);
    expect(realmRow(env.server).default_stream_ids).toEqual(defaults);
  });
});
