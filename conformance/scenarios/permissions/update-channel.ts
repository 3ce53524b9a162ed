import type { Params } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { scenario, scenarios } from '../../src/dsl.js';
import type { WorldChannelKind, WorldRole } from '../../src/world.js';
import { assume, readChannel, subscribedTo } from './support.js';

/**
 * Spec §4.16 "Update a channel": "An organization administrator may edit any property. A private
 * channel's permissions can only be changed by an administrator who is subscribed to it" (read, as
 * C18 does, as its privacy: is_private, history_public_to_subscribers, is_web_public); §2.2
 * can_administer_channel_group "Who may administer the channel"; §3 unarchiving needs a caller who
 * "may edit the channel". §4.16 shows no error bodies: refusals are checked as §7's "disallowed
 * action: … insufficient permission", BAD_REQUEST. Successes run in a realm of their own; refusals
 * put things back if a wrong server accepted them.
 */

const id = (ctx: ScenarioContext, kind: WorldChannelKind) => ctx.channel(kind).stream_id;

const allowed = [
  scenario({
    id: 'permissions/update-channel-private-description-by-unsubscribed-owner',
    title: 'an owner not subscribed to a private channel still edits its description (not a permission)',
    rules: ['R4.16-1', 'R4.16-6'],
    requires: { roles: ['owner', 'administrator'] },
    isolated: true,
    given: (ctx) => {
      assume(!subscribedTo(ctx, 'private_protected', 'owner'), 'the owner is not subscribed to private_protected');
      return ctx.unique('described by the owner');
    },
    when: (ctx, description) => ctx.as('owner').patch(`/api/v1/streams/${id(ctx, 'private_protected')}`, { description }),
    async then(ctx, res, description) {
      ctx.expectSuccess('R4.16-1', res);
      ctx.expectEqual('R4.16-6', (await readChannel(ctx, id(ctx, 'private_protected'))).description, description, 'the description');
    },
  }),
  scenario({
    id: 'permissions/update-channel-retention-by-administrator',
    title: "an administrator (not necessarily an owner) sets a channel's retention period",
    rules: ['R4.16-1', 'R4.16-12'],
    requires: { roles: ['administrator'] },
    isolated: true,
    // A number of days: sent as a bare number, which reads the same whether or not the server JSON-decodes it.
    when: (ctx) => ctx.as('administrator').patch(`/api/v1/streams/${id(ctx, 'public')}`, { message_retention_days: 90 }),
    async then(ctx, res) {
      ctx.expectSuccess('R4.16-1', res);
      ctx.expectEqual('R4.16-12', (await readChannel(ctx, id(ctx, 'public'))).message_retention_days, 90, 'message_retention_days');
    },
  }),
  scenario({
    id: 'permissions/update-channel-privacy-by-subscribed-administrator',
    title: 'an administrator subscribed to a private channel makes its history public to subscribers',
    rules: ['R4.16-2', 'R4.16-10'],
    requires: { roles: ['administrator'] },
    isolated: true,
    given: (ctx) => assume(subscribedTo(ctx, 'private_protected', 'administrator'), 'the administrator is subscribed to private_protected'),
    when: (ctx) =>
      ctx.as('administrator').patch(`/api/v1/streams/${id(ctx, 'private_protected')}`, { history_public_to_subscribers: true }),
    async then(ctx, res) {
      ctx.expectSuccess('R4.16-2', res);
      const after = await readChannel(ctx, id(ctx, 'private_protected'));
      ctx.expectEqual(
        'R4.16-10',
        [after.invite_only, after.history_public_to_subscribers],
        [true, true],
        '[invite_only, history_public_to_subscribers]',
      );
    },
  }),
  scenario({
    id: 'permissions/unarchive-channel-by-administrator',
    title: 'an administrator unarchives an archived channel (is_archived true)',
    rules: ['R3-7', 'R4.16-13'],
    // Archived channels and is_archived came at level 315 (spec §9).
    requires: { roles: ['administrator'], channels: ['archived'], level: { from: 'archived_channels' } },
    destructive: true,
    when: (ctx) => ctx.as('administrator').patch(`/api/v1/streams/${id(ctx, 'archived')}`, { is_archived: true }),
    async then(ctx, res) {
      ctx.expectSuccess('R3-7', res);
      ctx.expectEqual('R4.16-13', (await readChannel(ctx, id(ctx, 'archived'))).is_archived, false, 'is_archived after unarchiving');
    },
  }),
];

interface PrivacyRow {
  actor: WorldRole;
  kind: 'private_protected' | 'private_shared';
  change: Params;
  /** Who may put it back (an administrator subscribed to the channel). */
  restorer: WorldRole;
  key: string;
}

const PRIVACY: PrivacyRow[] = [
  { actor: 'owner', kind: 'private_protected', change: { is_private: false }, restorer: 'administrator', key: 'public' },
  { actor: 'owner', kind: 'private_protected', change: { history_public_to_subscribers: true }, restorer: 'administrator', key: 'history' },
  { actor: 'administrator', kind: 'private_shared', change: { is_private: false }, restorer: 'owner', key: 'public-shared' },
];

const privacy = scenarios(PRIVACY, (row) =>
  scenario({
    id: `permissions/update-channel-privacy-refused-unsubscribed-${row.actor}-${row.key}`,
    title: `an ${row.actor} not subscribed to ${row.kind} may not change its privacy (${Object.keys(row.change).join(', ')}), which stays`,
    rules: ['R4.16-2', 'R7-3'],
    requires: { roles: [row.actor, row.restorer, 'administrator'] },
    async given(ctx) {
      assume(
        !subscribedTo(ctx, row.kind, row.actor) && subscribedTo(ctx, row.kind, row.restorer),
        `${row.actor} outside ${row.kind}, ${row.restorer} in it`,
      );
      const before = await readChannel(ctx, id(ctx, row.kind));
      return { invite_only: before.invite_only === true, history_public_to_subscribers: before.history_public_to_subscribers === true };
    },
    when: (ctx) => ctx.as(row.actor).patch(`/api/v1/streams/${id(ctx, row.kind)}`, row.change),
    async then(ctx, res, before) {
      if (res.body.result === 'success')
        ctx.defer(() =>
          ctx.as(row.restorer).patch(`/api/v1/streams/${id(ctx, row.kind)}`, {
            is_private: true,
            history_public_to_subscribers: before.history_public_to_subscribers,
          }),
        );
      ctx.expectError('R7-3', res, { status: 400, code: 'BAD_REQUEST' });
      const after = await readChannel(ctx, id(ctx, row.kind));
      ctx.expectEqual(
        'R4.16-2',
        { invite_only: after.invite_only === true, history_public_to_subscribers: after.history_public_to_subscribers === true },
        before,
        'the privacy after the refusal',
      );
    },
  }),
);

/** Roles that do not administer the public channel: not organization administrators, not its creator. */
const editors = scenarios(['guest', 'member_3', 'bot'] as const satisfies readonly WorldRole[], (role) =>
  scenario({
    id: `permissions/update-channel-refused-${role}`,
    title: `a ${role} who does not administer a public channel may not edit its description, which stays`,
    rules: ['R2.2-10', 'R7-3'],
    requires: { roles: [role, 'administrator'] },
    async given(ctx) {
      const before = await readChannel(ctx, id(ctx, 'public'));
      return { description: String(before.description), wanted: ctx.unique(`described by ${role}`) };
    },
    when: (ctx, g) => ctx.as(role).patch(`/api/v1/streams/${id(ctx, 'public')}`, { description: g.wanted }),
    async then(ctx, res, g) {
      if (res.body.result === 'success')
        ctx.defer(() => ctx.as('administrator').patch(`/api/v1/streams/${id(ctx, 'public')}`, { description: g.description }));
      ctx.expectError('R7-3', res, { status: 400, code: 'BAD_REQUEST' });
      ctx.expectEqual(
        'R2.2-10',
        (await readChannel(ctx, id(ctx, 'public'))).description,
        g.description,
        'the description after the refusal',
      );
    },
  }),
);

const unarchiveRefused = scenario({
  id: 'permissions/unarchive-channel-refused-member',
  title: 'a member who may not edit an archived channel cannot unarchive it, and it stays archived',
  rules: ['R3-7', 'R7-3'],
  requires: { roles: ['member_3', 'administrator'], channels: ['archived'] },
  when: (ctx) => ctx.as('member_3').patch(`/api/v1/streams/${id(ctx, 'archived')}`, { is_archived: true }),
  async then(ctx, res) {
    // A wrong server unarchived it: archive it again (DELETE /streams/{id}, a companion operation).
    if (res.body.result === 'success') ctx.defer(() => ctx.as('administrator').delete(`/api/v1/streams/${id(ctx, 'archived')}`));
    ctx.expectError('R7-3', res, { status: 400, code: 'BAD_REQUEST' });
    ctx.check('R3-7', res.body.result === 'error', 'a caller who may not edit the channel does not unarchive it', res);
    // Archived channels can be read back from feature level 315 (§9); below it they are out of reach.
    if (ctx.has('archived_channels'))
      ctx.expectEqual('R3-7', (await readChannel(ctx, id(ctx, 'archived'))).is_archived, true, 'is_archived after the refusal');
  },
});

export default [...allowed, ...privacy, ...editors, unarchiveRefused];
