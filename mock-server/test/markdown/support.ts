import type { MarkdownContext } from '../../src/domain/markdown.js';
import type { ChannelRow, GroupSettingValue, LinkifierRow, MessageRow, RealmRow, UserGroupRow, UserRow } from '../../src/store/state.js';
import { CHANNEL_GROUP_SETTINGS } from '../../src/store/state.js';
import { userRow } from '../../src/store/user-row.js';

/**
 * A small realm for the renderer's unit tests, with the names of the reference doc's examples
 * (`Denmark`, `core>testing`). Rows carry only what the renderer and the access rules read; the rest
 * of each row is filled with neutral values.
 */

const NOBODY: GroupSettingValue = { direct_members: [], direct_subgroups: [] };

function user(user_id: number, full_name: string, extra: Partial<UserRow> = {}): UserRow {
  return userRow({
    user_id,
    full_name,
    email: `u${user_id}@x.test`,
    api_key: `key${user_id}`,
    recipient_id: 100 + user_id,
    date_joined: 0,
    ...extra,
  });
}

function group(id: number, name: string, extra: Partial<UserGroupRow> = {}): UserGroupRow {
  return {
    id,
    name,
    description: '',
    is_system_group: false,
    members: [],
    direct_subgroup_ids: [],
    deactivated: false,
    ...extra,
  } as UserGroupRow;
}

function channel(stream_id: number, name: string, extra: Partial<ChannelRow> = {}): ChannelRow {
  const settings = Object.fromEntries(CHANNEL_GROUP_SETTINGS.map((s) => [s, NOBODY]));
  return {
    stream_id,
    name,
    invite_only: false,
    is_web_public: false,
    history_public_to_subscribers: true,
    is_archived: false,
    ...settings,
    ...extra,
  } as ChannelRow;
}

function message(id: number, stream_id: number, subject: string): MessageRow {
  return { id, stream_id, subject, type: 'stream', sender_id: 1 } as MessageRow;
}

export const USERS = {
  hamlet: user(1, 'King Hamlet'),
  othello: user(2, 'Othello', { role: 200 }),
  cordelia: user(3, 'Cordelia Lear'),
  dupA: user(4, 'Dup Name'),
  dupB: user(5, 'dup name'),
  ghost: user(6, 'Ghost', { is_active: false }),
  notificationBot: user(7, 'Notification Bot', { is_bot: true, is_system_bot: true }),
  helperBot: user(8, 'Helper Bot', { is_bot: true }),
  guest: user(9, 'Guest Person', { role: 600 }),
};

export const LINKIFIERS: LinkifierRow[] = [
  { id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://trac.example.com/ticket/{id}', order: 0 },
  {
    id: 2,
    pattern: '(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)',
    url_template: 'https://github.com/{org}/{repo}/issues/{id}',
    order: 1,
  },
];

const byKey = <T>(rows: T[], key: (row: T) => string | number) => Object.fromEntries(rows.map((r) => [String(key(r)), r]));

export const TABLES: MarkdownContext['tables'] = {
  realm: { realm: { id: 'md' } as RealmRow },
  users: byKey(Object.values(USERS), (u) => u.user_id),
  user_groups: byKey(
    [group(20, 'backend'), group(21, 'role:members', { is_system_group: true }), group(22, 'old team', { deactivated: true })],
    (g) => g.id,
  ),
  channels: byKey(
    [
      channel(1, 'Denmark'),
      channel(2, 'core'),
      channel(3, 'secret', { invite_only: true }),
      channel(4, 'web', { invite_only: true, is_web_public: true }),
      channel(5, 'a b.c'),
      channel(6, 'x>y'),
      // Protected history: King Hamlet joined after 131 and 133 were sent; he received 132 only.
      channel(7, 'vault', { invite_only: true, history_public_to_subscribers: false }),
    ],
    (c) => c.stream_id,
  ),
  subscriptions: byKey(
    [
      { user_id: 1, stream_id: 3, active: true },
      { user_id: 1, stream_id: 7, active: true },
    ] as MarkdownContext['tables']['subscriptions'][string][],
    (s) => `${s.user_id}:${s.stream_id}`,
  ),
  messages: byKey(
    [
      message(100, 2, 'testing'),
      message(107, 2, 'Testing'),
      message(103, 2, 'testing'),
      message(110, 1, 'testing'),
      message(120, 2, 'other'),
      message(130, 3, 'plans'),
      message(131, 7, 'plans'),
      message(132, 7, 'plans'),
      message(133, 7, 'before'),
      message(140, 4, 'news'),
    ],
    (m) => m.id,
  ),
  user_messages: { '132': { message_id: 132, flags: { '1': ['read'] } } },
  custom_emoji: byKey(
    [
      { id: 1, name: 'green_tick', source_url: '/user_avatars/md/emoji/images/1.png', deactivated: false, author_id: 1 },
      { id: 2, name: 'old_one', source_url: '/user_avatars/md/emoji/images/2.png', deactivated: true, author_id: 1 },
      { id: 3, name: 'octopus', source_url: '/user_avatars/md/emoji/images/3.png', deactivated: false, author_id: 1 },
    ],
    (e) => e.id,
  ),
  linkifiers: byKey(LINKIFIERS, (l) => l.id),
};

/** A rendering context of TABLES with the given author (default King Hamlet). */
export const as = (author: UserRow | null = USERS.hamlet): MarkdownContext => ({ tables: TABLES, author });
