import { byKey, numbers, removeOne, rows, unhandled, upsertAll, type PolledEvent, type Reducers, type Row, type Snapshot } from './rows.js';

/**
 * The user events (statuses, settings, presence, groups, the user list), as a client applies them to its
 * register snapshot: zulip.yaml `user_status`, `user_settings` (and the legacy `update_global_notifications`
 * / `update_display_settings` of clients without user_settings_object), `presence` in both forms,
 * `user_group`, `realm_user`, `realm_bot`.
 */
export const peopleReducers: Reducers = {
  user_status: (s, e) => {
    const statuses = (s.user_status ?? {}) as Record<string, Row>;
    const { type: _t, id: _i, user_id: userId, ...fields } = e;
    const next: Row = { ...(statuses[String(userId)] ?? {}), ...fields };
    // Only non-default fields are kept (reference §2): an empty text, a cleared emoji (its code and type
    // go with it) and away false leave the map.
    if (next.status_text === '') delete next.status_text;
    if (next.emoji_name === '') for (const k of ['emoji_name', 'emoji_code', 'reaction_type']) delete next[k];
    if (next.away === false) delete next.away;
    if (Object.keys(next).length === 0) delete statuses[String(userId)];
    else statuses[String(userId)] = next;
    s.user_status = statuses;
  },
  user_settings: (s, e) => {
    if (e.op !== 'update') unhandled(e);
    if (s.user_settings && typeof s.user_settings === 'object') (s.user_settings as Row)[e.property as string] = e.value;
  },
  // The legacy forms of a settings change: they update the top-level keys of old registers, where they
  // exist (a client without user_settings_object also gets `user_settings`, which the key above follows).
  update_global_notifications: (s, e) => legacySetting(s, e.notification_name, e.setting),
  update_display_settings: (s, e) => legacySetting(s, e.setting_name, e.setting),
  // presence (domain/users/status.ts presencePayloads): either event form into either form of the
  // snapshot's `presences`, slim (by user ID) or legacy (by email, `{aggregated}`) as presenceKeys builds
  // them; a client knows which it registered, this reads it from the keys. An empty presence (no client,
  // no timestamp) means nothing is known about the user: the entry goes.
  presence: (s, e) => {
    type Times = { active_timestamp: number; idle_timestamp: number } | null;
    const fromLegacy = (clients: { status: string; timestamp: number }[]): Times =>
      clients.length === 0
        ? null
        : {
            active_timestamp: Math.max(0, ...clients.filter((c) => c.status === 'active').map((c) => c.timestamp)),
            idle_timestamp: Math.max(...clients.map((c) => c.timestamp)),
          };
    type Slim = { active_timestamp?: number; idle_timestamp?: number };
    const changes: [number, Times][] =
      'presences' in e
        ? Object.entries(e.presences as Record<string, Slim>).map(([id, p]) => [
            Number(id),
            p.active_timestamp === undefined && p.idle_timestamp === undefined
              ? null
              : { active_timestamp: p.active_timestamp ?? 0, idle_timestamp: p.idle_timestamp ?? 0 },
          ])
        : [[e.user_id as number, fromLegacy(Object.values(e.presence as Record<string, { status: string; timestamp: number }>))]];
    const presences = (s.presences ?? {}) as Record<string, Row>;
    const keys = Object.keys(presences);
    // An empty map says nothing: the event's form does (simplified_presence_events gives both).
    const slim = keys.length > 0 ? keys.every((k) => /^[0-9]+$/.test(k)) : 'presences' in e;
    for (const [userId, t] of changes) {
      const key = slim ? String(userId) : (byKey(s.realm_users, 'user_id').get(userId)?.email as string);
      if (t === null) delete presences[key];
      else
        presences[key] = slim
          ? t
          : {
              aggregated: {
                status: t.active_timestamp >= t.idle_timestamp ? 'active' : 'idle',
                timestamp: Math.max(t.active_timestamp, t.idle_timestamp),
                client: 'website',
              },
            };
    }
    s.presences = presences;
  },
  user_group: onUserGroup,
  // Bots a user owns: the register's `realm_bots` where fetched (this mock's register has none).
  realm_bot: (s, e) => {
    const bot = (e.bot ?? {}) as Row;
    if (e.op === 'add') upsertAll(s, 'realm_bots', 'user_id', [bot]);
    else if (e.op === 'update') Object.assign(byKey(s.realm_bots, 'user_id').get(bot.user_id) ?? {}, bot);
    else if (e.op === 'remove' || e.op === 'delete') removeOne(s, 'realm_bots', 'user_id', bot.user_id);
    else unhandled(e);
  },
  realm_user: (s, e) => {
    const person = e.person as Row;
    if (e.op === 'add') upsertAll(s, 'realm_users', 'user_id', [person]);
    else if (e.op === 'update') updateRealmUser(s, person);
    else if (e.op === 'remove') removeOne(s, 'realm_users', 'user_id', person.user_id);
    else unhandled(e);
  },
};

/** The user lists of a register snapshot (§4.21 realm_user): a person is in exactly one of them. */
const USER_LISTS = ['realm_users', 'realm_non_active_users', 'cross_realm_bots'];

/**
 * `realm_user` / `update` as a client applies it (reference "Event payloads"): `person` carries the user
 * ID and what changed. A client derives is_admin / is_owner / is_guest from `role`, renames `new_email`
 * to `email` (re-keying legacy presences, which are keyed by email), replaces one custom profile field
 * (null removes it), moves a deactivated user to the deactivated list (their status and presence are no
 * longer shown), and mirrors changes of its own user into the snapshot's top-level identity fields.
 */
function updateRealmUser(s: Snapshot, person: Row): void {
  const id = person.user_id;
  const list = USER_LISTS.find((key) => ((s[key] ?? []) as Row[]).some((row) => row.user_id === id));
  if (!list) return;
  const user = byKey(s[list], 'user_id').get(id)!;
  const self = s.user_id === id;
  const { user_id: _id, role, new_email: newEmail, custom_profile_field: field, is_active: isActive, ...rest } = person;
  Object.assign(user, rest);
  for (const key of ['full_name', 'delivery_email', 'avatar_url'] as const) if (self && key in rest) s[key] = rest[key];
  if (typeof role === 'number') {
    Object.assign(user, { role, is_admin: role <= 200, is_owner: role === 100, is_guest: role === 600 });
    if (self) Object.assign(s, { role, is_admin: role <= 200, is_owner: role === 100, is_moderator: role === 300, is_guest: role === 600 });
  }
  if (typeof newEmail === 'string') {
    const presences = s.presences as Record<string, unknown> | undefined;
    if (presences && user.email !== newEmail && (user.email as string) in presences) {
      presences[newEmail] = presences[user.email as string];
      delete presences[user.email as string];
    }
    user.email = newEmail;
    if (self) s.email = newEmail;
  }
  if (field) {
    const { id: fieldId, ...value } = field as Row;
    const data = (user.profile_data ?? {}) as Record<string, unknown>;
    if (value.value === null) delete data[String(fieldId)];
    else data[String(fieldId)] = value;
    user.profile_data = data;
  }
  if (typeof isActive === 'boolean' && user.is_active !== isActive) {
    user.is_active = isActive;
    removeOne(s, list, 'user_id', id);
    const into = isActive ? 'realm_users' : 'realm_non_active_users';
    s[into] = [...((s[into] ?? []) as Row[]), user].sort((a, b) => (a.user_id as number) - (b.user_id as number));
    if (!isActive) {
      delete (s.user_status as Record<string, unknown> | undefined)?.[String(id)];
      const presences = s.presences as Record<string, unknown> | undefined;
      if (presences) for (const key of [String(id), user.email as string]) delete presences[key];
    }
  }
}

function legacySetting(s: Snapshot, name: unknown, value: unknown): void {
  if (typeof name === 'string' && name in s) s[name] = value;
}

/**
 * user_group: membership (a new user joins role:members; register lists direct members ascending), a
 * group's creation, change and removal (a deactivated group is removed for clients without
 * include_deactivated_groups), subgroups.
 */
function onUserGroup(s: Snapshot, e: PolledEvent): void {
  if (e.op === 'add') {
    upsertAll(s, 'realm_user_groups', 'id', [structuredClone(e.group as Row)]);
    rows(s.realm_user_groups).sort((a, b) => (a.id as number) - (b.id as number));
    return;
  }
  if (e.op === 'remove') return removeOne(s, 'realm_user_groups', 'id', e.group_id);
  const group = byKey(s.realm_user_groups, 'id').get(e.group_id);
  const list = {
    add_members: 'members',
    remove_members: 'members',
    add_subgroups: 'direct_subgroup_ids',
    remove_subgroups: 'direct_subgroup_ids',
  };
  if (e.op === 'update') {
    if (group) Object.assign(group, e.data);
  } else if (typeof e.op === 'string' && e.op in list) {
    if (!group) return;
    const key = list[e.op as keyof typeof list];
    const ids = new Set(numbers(group[key]));
    const changed = numbers(key === 'members' ? e.user_ids : (e.direct_subgroup_ids ?? e.subgroup_ids));
    for (const id of changed) {
      if (e.op.startsWith('add')) ids.add(id);
      else ids.delete(id);
    }
    group[key] = [...ids].sort((a, b) => a - b);
  } else unhandled(e);
}
