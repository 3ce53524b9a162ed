import type { ParamsOf } from '../../contract/operation-types.js';
import type { PendingEvent, Tx } from '../../store/store.js';
import type { ChannelRow, RoleCode, UserRow } from '../../store/state.js';
import type { ActorContext } from '../actor.js';
import { channelMetadataAccess, emailVisibleTo } from '../access.js';
import { emitChannelIntroduction, emitStreamDelete, type EmitContext } from '../channels/events.js';
import { emitDefaultStreams } from '../channels/update.js';
import { avatarUrlOf } from '../present/messages.js';
import { emailShaping } from '../present/users.js';
import { activeUserIds } from './lookup.js';
import { placeInRoleGroup } from './role-groups.js';
import { planUserUpdate } from './update-plan.js';

/**
 * PATCH /users/{user_id} (spec §4.7), applying half: the plan has checked everything, so from here on
 * nothing can fail. Changes are applied in the reference server's order (role, name, profile fields,
 * email), each followed by its `realm_user` / `update` (reference "Event payloads": `person` is the
 * user ID plus one changed field) to every active user, since every active user lists every user.
 */
export function doUpdateUser(tx: Tx, actor: ActorContext, params: ParamsOf<'update-user'>): void {
  const plan = planUserUpdate(tx.tables, actor.user, params);
  const ctx: EmitContext = { tx, features: actor.features, now: actor.now };
  let user = plan.target;
  const everyone = () => activeUserIds(tx.tables);
  const put = (next: UserRow) => {
    tx.put('users', next.user_id, next);
    user = next;
  };

  if (plan.role !== null) changeRole(ctx, user, plan.role, put);

  if (plan.fullName !== null) {
    put({ ...user, full_name: plan.fullName });
    tx.emit({ type: 'realm_user', op: 'update', person: { user_id: user.user_id, full_name: user.full_name } }, everyone());
  }

  if (plan.profile.length > 0) {
    const profile = { ...user.profile_data };
    for (const change of plan.profile) {
      if (change.value === null) delete profile[String(change.id)];
      else profile[String(change.id)] = change.value;
    }
    put({ ...user, profile_data: profile });
    // A bot's user object carries no profile_data (reference "Event payloads", realm_user / add), so a
    // bot's values are kept but there is nothing a client could update.
    if (!user.is_bot) {
      for (const { id, value } of plan.profile) {
        const field =
          value === null
            ? { id, value: null }
            : { id, value: value.value, ...(value.rendered_value !== undefined ? { rendered_value: value.rendered_value } : {}) };
        tx.emit({ type: 'realm_user', op: 'update', person: { user_id: user.user_id, custom_profile_field: field } }, everyone());
      }
    }
  }

  if (plan.email !== null) {
    const { delivery, api } = plan.email;
    put({ ...user, delivery_email: delivery, ...(api !== null ? { email: api } : {}) });
    if (api !== null) tx.emit({ type: 'realm_user', op: 'update', person: { user_id: user.user_id, new_email: api } }, everyone());
    // Only to those who may see the address (as the reference server sends it): the others would learn
    // that, and when, a hidden address changed, though what they see of the user does not change.
    const seers = everyone().filter((id) =>
      emailVisibleTo(tx.tables.users[String(id)] ?? null, user.user_id, user.settings.email_address_visibility),
    );
    tx.emit(
      { type: 'realm_user', op: 'update', person: { user_id: user.user_id, delivery_email: delivery, ...emailShaping(tx.tables, user) } },
      seers,
    );
    // A Gravatar is the picture of an address, so it changes with the address (the spec is silent; the
    // reference server sends its avatar fields after such a change too, likely): for everyone when the
    // API email changed with it, else for those who see the real address.
    if (user.avatar_source === 'G') tx.emit(avatarEvent(tx, user), api !== null ? everyone() : seers);
  }
}

/**
 * `avatar_url` and `avatar_version` of a user, shaped per reader like the user object: the Gravatar of
 * the real address for readers who may see it (null with client_gravatar), of the API email otherwise.
 * The reference server's event carries avatar_source and avatar_url_medium too; the user object of this
 * mock has neither, so a client keeping that object gets exactly what a new register shows.
 */
function avatarEvent(tx: Tx, user: UserRow): PendingEvent['event'] {
  const person = {
    user_id: user.user_id,
    avatar_url: avatarUrlOf(tx.tables, user, user.email),
    avatar_version: user.avatar_version,
    ...emailShaping(tx.tables, user),
  };
  return { type: 'realm_user', op: 'update', person };
}

/**
 * A role change (spec §2.8, §4.7) and what follows from it, as the reference server sends it: the
 * `role` update to everyone; the user leaves their old role group and joins the new one (`user_group`
 * remove_members / add_members to everyone); the user gains or loses sight of channels (a guest who
 * becomes a member sees public channels, an administrator every private channel's metadata):
 * `stream` / create with the subscribers (`peer_add`) for what appears, `stream` / delete for what
 * vanishes, and the default-channel list when it changes for them.
 */
function changeRole(ctx: EmitContext, before: UserRow, role: RoleCode, put: (user: UserRow) => void): void {
  const { tx } = ctx;
  const channels = Object.values(tx.tables.channels);
  const sawBefore = new Set(channels.filter((c) => channelMetadataAccess(tx.tables, before, c)).map((c) => c.stream_id));
  const after: UserRow = { ...before, role };
  put(after);
  tx.emit({ type: 'realm_user', op: 'update', person: { user_id: after.user_id, role } }, activeUserIds(tx.tables));
  placeInRoleGroup(ctx.tx, after, ctx.now);
  // A deactivated user has no event queue and cannot register one: nothing of their view to follow.
  if (!after.is_active) return;

  const userIds = [after.user_id];
  const changed: ChannelRow[] = [];
  for (const channel of channels) {
    const sees = channelMetadataAccess(tx.tables, after, channel);
    if (sees === sawBefore.has(channel.stream_id)) continue;
    changed.push(channel);
    if (sees) emitChannelIntroduction(ctx, channel, userIds);
    else emitStreamDelete(ctx, channel, userIds);
  }
  const defaults = tx.tables.realm.realm.default_stream_ids;
  if (changed.some((c) => defaults.includes(c.stream_id))) emitDefaultStreams(ctx, [after]);
  emitEmailVisibilityChanges(ctx, before, after);
}

/**
 * Whose real address the user may see depends on their role (email_address_visibility: members,
 * moderators, administrators; domain/access.ts). When a role change moves that line, the user gets each
 * affected person's delivery_email (and Gravatar URL, which is the picture of that address) again,
 * shaped for their new role. The reference server sends nothing here, which leaves its clients showing
 * what a new register would not; this mock keeps snapshot + events = next snapshot (invariant.test.ts).
 */
function emitEmailVisibilityChanges(ctx: EmitContext, before: UserRow, after: UserRow): void {
  const { tx } = ctx;
  for (const other of Object.values(tx.tables.users)) {
    if (other.user_id === after.user_id) continue;
    const visibility = other.settings.email_address_visibility;
    if (emailVisibleTo(before, other.user_id, visibility) === emailVisibleTo(after, other.user_id, visibility)) continue;
    tx.emit(
      {
        type: 'realm_user',
        op: 'update',
        person: { user_id: other.user_id, delivery_email: other.delivery_email, ...emailShaping(tx.tables, other) },
      },
      [after.user_id],
    );
    if (other.avatar_source === 'G') tx.emit(avatarEvent(tx, other), [after.user_id]);
  }
}
