import type { Reply } from '../../src/client.js';
import type { ScenarioContext } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import {
  asArray,
  asObject,
  eventsNow,
  eventsUntil,
  hasMessage,
  listedFor,
  ownChannel,
  queueOf,
  sendTo,
  snapshotOf,
  type Obj,
  type OwnChannel,
} from './support.js';

/**
 * Events and listings reach exactly the users who may see them, checked on a private channel the
 * scenario creates (so nothing depends on the world file's named hidden channels): its subscribers see
 * it and its messages; a non-subscribed member, a guest and a non-subscribed administrator get none of
 * its messages (§6: messages come through subscriptions; all_public_streams and narrows add only public
 * channels, §4.21, §6); it is absent from every listing of a user without access (§4.15: channels the
 * user can access; include_all: channels with metadata access), while an administrator's include_all
 * lists it (§4.15 "for administrators, all channels"), so a server hiding everything does not pass.
 */

/** Users outside the private channel: a member, a guest (both lack any access), and the administrator (no content access). */
const OUTSIDERS = ['member_3', 'guest'] as const satisfies readonly WorldRole[];

const privateChannel = (ctx: ScenarioContext, label: string): Promise<OwnChannel> =>
  ownChannel(ctx, 'member', label, { inviteOnly: true, members: ['member_2'] });

export default [
  scenario({
    id: 'blind-spots/private-channel-message-events-subscribers-only',
    title:
      "a message in a private channel made during the run reaches its subscribers' queues and no outsider's, all_public_streams and narrows notwithstanding",
    rules: ['R6-5', 'R6-8', 'R4.21-9', 'R4.21-12'],
    requires: { roles: ['member', 'member_2', 'member_3', 'guest', 'administrator'] },
    async given(ctx) {
      const ch = await privateChannel(ctx, 'private events');
      const queues = {
        subscriber: await queueOf(ctx, 'member_2', { event_types: ['message'] }),
        member: await queueOf(ctx, 'member_3', { event_types: ['message'] }),
        memberAllPublic: await queueOf(ctx, 'member_3', { event_types: ['message'], all_public_streams: true }),
        memberNarrow: await queueOf(ctx, 'member_3', { event_types: ['message'], narrow: [['channel', ch.name]] }),
        guest: await queueOf(ctx, 'guest', { event_types: ['message'] }),
        administrator: await queueOf(ctx, 'administrator', { event_types: ['message'], all_public_streams: true }),
      };
      return { ch, queues };
    },
    when: (ctx, g) => sendTo(ctx, 'member', g.ch.stream_id, 'secret', 'only for subscribers'),
    async then(ctx, id, g) {
      const sub = await eventsUntil(ctx, 'member_2', g.queues.subscriber, (events) => hasMessage(events, id));
      ctx.check('R6-5', hasMessage(sub.events, id), `the subscriber member_2 got the message event of ${id}`, sub.reply);
      const outside: [string, WorldRole, string, string][] = [
        ['member_3 (not subscribed)', 'member_3', g.queues.member, 'R6-8'],
        ['member_3 with all_public_streams', 'member_3', g.queues.memberAllPublic, 'R4.21-9'],
        ['member_3 with a narrow naming the channel', 'member_3', g.queues.memberNarrow, 'R4.21-12'],
        ['the guest (not subscribed)', 'guest', g.queues.guest, 'R6-8'],
        ['the administrator (not subscribed) with all_public_streams', 'administrator', g.queues.administrator, 'R4.21-9'],
      ];
      for (const [who, role, queue, rule] of outside) {
        const got = await eventsNow(ctx, role, queue);
        ctx.check(
          rule,
          !hasMessage(got.events, id),
          `${who}: ${hasMessage(got.events, id) ? 'got' : 'did not get'} the private channel's message ${id}`,
          got.reply,
        );
        if (rule === 'R4.21-12')
          ctx.check('R6-8', !hasMessage(got.events, id), 'a narrow filters only what the user receives through subscriptions', got.reply);
      }
    },
  }),

  scenario({
    id: 'blind-spots/private-channel-creation-events-subscribers-only',
    title: 'creating a private channel during the run announces it to its subscribers and to no outsider (stream and subscription events)',
    rules: ['R6-5'],
    requires: { roles: ['member', 'member_2', 'member_3', 'guest'] },
    async given(ctx) {
      const types = { event_types: ['stream', 'subscription'] };
      return {
        subscriber: await queueOf(ctx, 'member_2', types),
        member: await queueOf(ctx, 'member_3', types),
        guest: await queueOf(ctx, 'guest', types),
      };
    },
    when: (ctx) => privateChannel(ctx, 'private announce'),
    async then(ctx, ch, q) {
      const mentions = (events: Obj[]) =>
        events.filter(
          (e) => JSON.stringify(e).includes(`"stream_id":${ch.stream_id}`) || JSON.stringify(e).includes(JSON.stringify(ch.name)),
        );
      const sub = await eventsUntil(ctx, 'member_2', q.subscriber, (events) => mentions(events).length > 0);
      ctx.check('R6-5', mentions(sub.events).length > 0, `the subscriber member_2 was told of the new channel ${ch.stream_id}`, sub.reply);
      for (const [role, queue] of [
        ['member_3', q.member],
        ['guest', q.guest],
      ] as const) {
        const got = await eventsNow(ctx, role, queue);
        const leaked = mentions(got.events);
        ctx.check(
          'R6-5',
          leaked.length === 0,
          `${role} (outside the private channel) got ${leaked.length} events naming it: ${JSON.stringify(leaked.map((e) => [e.type, e.op]))}`,
          got.reply,
        );
      }
    },
  }),

  scenario({
    id: 'blind-spots/private-channel-absent-from-outsider-listings',
    title:
      "a private channel made during the run is in the administrator's include_all listing and absent from every listing of a member and a guest outside it",
    rules: ['R4.15-1', 'R4.15-7', 'R4.15-11', 'R4.21-27', 'R2.2-2'],
    requires: { roles: ['member', 'member_2', 'member_3', 'guest', 'administrator'] },
    given: (ctx) => privateChannel(ctx, 'private listing'),
    when: (ctx, ch) => listedFor(ctx, 'administrator', ch.stream_id),
    async then(ctx, admin, ch) {
      ctx.check(
        ctx.has('include_all') ? 'R4.15-7' : 'R4.15-11',
        admin.channel !== undefined,
        `the administrator's listing of all channels shows the private channel ${ch.stream_id}`,
        admin.reply,
      );
      ctx.expectEqual('R2.2-2', admin.channel?.invite_only, true, 'invite_only of the channel created private', admin.reply);
      const seen = (res: Reply, ...keys: string[]) =>
        keys.filter((k) => asArray(res.body[k]).some((s) => s.stream_id === ch.stream_id || s.name === ch.name));
      for (const role of OUTSIDERS) {
        for (const params of [
          {},
          { include_all: true },
          { include_all: true, include_public: true, include_web_public: true, exclude_archived: false },
        ]) {
          const res = ctx.must(await ctx.as(role).get('/api/v1/streams', params), `list channels as ${role}`);
          ctx.check(
            'include_all' in params && ctx.has('include_all') ? 'R4.15-7' : 'R4.15-1',
            seen(res, 'streams').length === 0,
            `${role}'s GET /streams ${JSON.stringify(params)} ${seen(res, 'streams').length ? 'lists' : 'does not list'} the private channel`,
            res,
          );
        }
        const snap = await snapshotOf(ctx, role, ['subscription', 'stream'], { include_subscribers: true });
        const where = seen(snap, 'subscriptions', 'unsubscribed', 'never_subscribed', 'streams');
        ctx.check(
          'R4.21-27',
          where.length === 0,
          `${role}'s register ${where.length ? `shows the private channel in ${where.join(', ')}` : 'does not show the private channel (subscriptions, unsubscribed, never_subscribed, streams)'}`,
          snap,
        );
        const sub = ctx.must(await ctx.as(role).get('/api/v1/users/me/subscriptions'), `${role}'s subscriptions`);
        ctx.check(
          'R4.15-1',
          seen(sub, 'subscriptions').length === 0,
          `${role}'s subscription list ${seen(sub, 'subscriptions').length ? 'shows' : 'does not show'} the private channel`,
          sub,
        );
      }
    },
  }),

  scenario({
    id: 'blind-spots/private-channel-topics-refused-to-outsiders',
    title: 'the topics of a private channel made during the run are refused to a member and a guest outside it, as for a missing channel',
    rules: ['R4.11-4'],
    requires: { roles: ['member', 'member_2', 'member_3', 'guest'] },
    async given(ctx) {
      const ch = await privateChannel(ctx, 'private topics');
      await sendTo(ctx, 'member', ch.stream_id, 'hidden topic', 'x');
      return ch;
    },
    when: (ctx, ch) => ctx.as('member_2').get(`/api/v1/users/me/${ch.stream_id}/topics`),
    async then(ctx, res, ch) {
      ctx.check(
        'R4.11-4',
        asArray(res.body.topics).some((t) => t.name === 'hidden topic'),
        'the subscriber member_2 lists the topic',
        res,
      );
      for (const role of OUTSIDERS) {
        const refused = await ctx.as(role).get(`/api/v1/users/me/${ch.stream_id}/topics`);
        ctx.expectError('R4.11-4', refused, { status: 400, code: 'BAD_REQUEST' });
        ctx.check('R4.11-4', !JSON.stringify(asObject(refused.body)).includes('hidden topic'), `${role}'s answer names no topic`, refused);
      }
    },
  }),

  scenario({
    id: 'blind-spots/direct-message-events-recipients-only',
    title: "a direct message reaches its recipients' queues and no other user's, all_public_streams notwithstanding",
    rules: ['R6-8', 'R6-5'],
    requires: { roles: ['member', 'member_2', 'member_3', 'administrator'] },
    async given(ctx) {
      const types = { event_types: ['message'] };
      return {
        recipient: await queueOf(ctx, 'member_2', types),
        other: await queueOf(ctx, 'member_3', { ...types, all_public_streams: true }),
        administrator: await queueOf(ctx, 'administrator', { ...types, all_public_streams: true }),
      };
    },
    async when(ctx) {
      const res = ctx.must(
        await ctx
          .as('member')
          .post('/api/v1/messages', { type: 'direct', to: [ctx.user('member_2').user_id], content: ctx.unique('just between us') }),
        'send a direct message',
      );
      return ctx.need(res, 'id', 'integer');
    },
    async then(ctx, id, q) {
      const got = await eventsUntil(ctx, 'member_2', q.recipient, (events) => hasMessage(events, id));
      ctx.check('R6-5', hasMessage(got.events, id), `the recipient member_2 got the direct message ${id}`, got.reply);
      for (const [role, queue] of [
        ['member_3', q.other],
        ['administrator', q.administrator],
      ] as const) {
        const other = await eventsNow(ctx, role, queue);
        ctx.check(
          'R6-8',
          !hasMessage(other.events, id),
          `${role} (not a recipient) ${hasMessage(other.events, id) ? 'got' : 'did not get'} the direct message ${id}`,
          other.reply,
        );
      }
    },
  }),

  scenario({
    id: 'blind-spots/drafts-events-own-clients-only',
    title: "creating a draft is synchronized to the user's other queue and to no other user's",
    rules: ['R4.6-3', 'R6-6'],
    requires: { roles: ['member_3', 'member_2'] },
    async given(ctx) {
      const types = { event_types: ['drafts'] };
      return {
        own: await queueOf(ctx, 'member_3', types),
        other: await queueOf(ctx, 'member_2', types),
        content: ctx.unique('private draft'),
      };
    },
    async when(ctx, g) {
      const res = ctx.must(
        await ctx.as('member_3').post('/api/v1/drafts', { drafts: [{ type: '', to: [], topic: '', content: g.content }] }),
        'create a draft',
      );
      for (const id of Array.isArray(res.body.ids) ? res.body.ids : [])
        ctx.defer(() => ctx.as('member_3').delete(`/api/v1/drafts/${String(id)}`));
      return res;
    },
    async then(ctx, _res, g) {
      const about = (events: Obj[]) => events.filter((e) => e.type === 'drafts' && JSON.stringify(e).includes(JSON.stringify(g.content)));
      const own = await eventsUntil(ctx, 'member_3', g.own, (events) => about(events).length > 0);
      ctx.check('R4.6-3', about(own.events).length > 0, "the user's other queue got the drafts event", own.reply);
      const other = await eventsNow(ctx, 'member_2', g.other);
      ctx.check(
        'R6-6',
        about(other.events).length === 0,
        `member_2's queue got ${about(other.events).length} drafts events about member_3's draft`,
        other.reply,
      );
    },
  }),
];
