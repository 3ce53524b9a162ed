import { SetupError, type ScenarioContext } from '../../src/context.js';
import type { Params } from '../../src/client.js';
import { scenario, scenarios } from '../../src/dsl.js';
import { expectAbsentBelow } from '../level-fields.js';
import { R } from './rules.js';
import { asArray } from './support.js';

/**
 * Spec §4.21 and §5 "Unauthenticated access": in organizations with public access, register may be
 * called without credentials; queue_id is then null, client_gravatar defaults to false, and
 * client_gravatar true or include_subscribers true are errors. The world file says whether the
 * organization allows public access (realm.spectator_access).
 */

function needsPublicAccess(ctx: ScenarioContext): void {
  if (!ctx.world.realm.spectator_access)
    throw new SetupError('the organization of the world file has no public access (realm.spectator_access)');
}

/** Parameters a register without credentials may not set (§4.21): each is BAD_REQUEST. */
const REFUSED: { key: string; what: string; rule: string; params: Params }[] = [
  {
    key: 'client-gravatar-true',
    what: 'client_gravatar true',
    rule: R.clientGravatar,
    params: { client_gravatar: true, event_types: ['stream'] },
  },
  {
    key: 'include-subscribers-true',
    what: 'include_subscribers true',
    rule: R.includeSubscribers,
    params: { include_subscribers: 'true', event_types: ['subscription'] },
  },
];

export default [
  scenario({
    id: 'events/register-anonymous-queue-id-null',
    title: 'an unauthenticated register gets queue_id null where the organization allows public access (and is refused otherwise)',
    rules: [R.queueIdNull, R.anonymousRegister],
    when: (ctx) => ctx.anonymous.post('/api/v1/register', { event_types: ['stream'], fetch_event_types: ['stream'] }),
    then(ctx, res) {
      if (!ctx.world.realm.spectator_access) {
        ctx.check(
          R.anonymousRegister,
          res.status >= 400 && res.body.result === 'error',
          `without public access: HTTP ${res.status} ${JSON.stringify(res.body.code)}`,
          res,
        );
        return;
      }
      ctx.expectSuccess(R.anonymousRegister, res);
      ctx.expectEqual(R.queueIdNull, res.body.queue_id, null, 'queue_id', res);
    },
  }),
  scenario({
    id: 'events/register-anonymous-client-gravatar-default-false',
    title: 'an unauthenticated register without client_gravatar succeeds and shows every avatar URL',
    rules: [R.clientGravatar, R.anonymousRegister],
    given: needsPublicAccess,
    when: (ctx) => ctx.anonymous.post('/api/v1/register', { event_types: ['realm_user'], fetch_event_types: ['realm_user'] }),
    then(ctx, res) {
      ctx.expectSuccess(R.anonymousRegister, res);
      const nulls = asArray(res.body.realm_users)
        .filter((u) => typeof u.avatar_url !== 'string')
        .map((u) => u.user_id);
      ctx.expectEqual(R.clientGravatar, nulls, [], 'users without an avatar URL', res);
    },
  }),
  ...scenarios(REFUSED, (row) =>
    scenario({
      id: `events/register-anonymous-${row.key}`,
      title: `${row.what} in an unauthenticated register is refused`,
      rules: [row.rule, R.anonymousRegister],
      given: needsPublicAccess,
      when: (ctx) => ctx.anonymous.post('/api/v1/register', row.params),
      then(ctx, res) {
        const refused = ctx.expectError(row.rule, res, { status: 400, code: 'BAD_REQUEST' });
        ctx.check(R.anonymousRegister, refused, `${row.what} is an error without credentials`, res);
      },
    }),
  ),
  scenario({
    id: 'events/register-anonymous-include-subscribers-false',
    title: 'include_subscribers false in an unauthenticated register is accepted',
    rules: [R.includeSubscribers, R.anonymousRegister],
    given: needsPublicAccess,
    when: (ctx) => ctx.anonymous.post('/api/v1/register', { include_subscribers: 'false', event_types: ['subscription'] }),
    then(ctx, res) {
      ctx.expectSuccess(R.includeSubscribers, res);
      ctx.expectEqual(R.anonymousRegister, res.body.queue_id, null, 'queue_id', res);
    },
  }),
  scenario({
    id: 'events/register-anonymous-channel-folders',
    title: 'an unauthenticated register sees only web-public channels, and only the folders holding one of them',
    rules: [R.channelFolders],
    given: needsPublicAccess,
    when: (ctx) =>
      ctx.anonymous.post('/api/v1/register', {
        event_types: ['stream', 'channel_folders'],
        fetch_event_types: ['stream', 'channel_folders'],
      }),
    then(ctx, res) {
      ctx.expectSuccess(R.channelFolders, res);
      const streams = asArray(res.body.streams);
      ctx.check(
        R.channelFolders,
        streams.every((s) => s.is_web_public === true),
        `channels shown: ${JSON.stringify(streams.map((s) => [s.name, s.is_web_public]))}`,
        res,
      );
      // Folders came at level 389: an older server has no channel_folders key (nor folder_id) to show.
      if (expectAbsentBelow(ctx, R.channelFolders, 'channel_folders', 'channel_folders', [res.body], 'register answers', res)) return;
      const holding = new Set<unknown>(streams.map((s) => s.folder_id).filter((f) => f !== null && f !== undefined));
      const others = asArray(res.body.channel_folders)
        .filter((f) => !holding.has(f.id))
        .map((f) => f.name);
      ctx.check(
        R.channelFolders,
        Array.isArray(res.body.channel_folders) && others.length === 0,
        `folders without a web-public channel: ${JSON.stringify(others)}`,
        res,
      );
    },
  }),
];
