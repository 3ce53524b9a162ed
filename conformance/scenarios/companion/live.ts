import { scenario, type Scenario } from '../../src/dsl.js';
import type { WorldRole } from '../../src/world.js';
import { eventsOf, eventsUntil, fetchNow, type Event } from '../events/support.js';
import { asObject, openQueue } from '../shared.js';
import { isPositiveInt, outsiderOf } from './live-support.js';
import { LIVE_UPLOADS } from './live-uploads.js';

/**
 * Companion tier, area live: typing notifications and presence (rules C.live-*,
 * conformance/rules/companion/live.json). Typing changes nothing; presence reports change the reporter's
 * presence, so those scenarios run in a realm of their own on the mock.
 */
const typingEvent = (op: string) => (e: Event) => e.type === 'typing' && e.op === op;
const userIdsOf = (v: unknown) => (Array.isArray(v) ? v.map((p) => asObject(p).user_id) : []);
const presenceOf = (e: Event, userId: number) =>
  e.type === 'presence' && (e.user_id === userId || Object.hasOwn(asObject(e.presences), String(userId)));

const TYPING = [
  scenario({
    id: 'companion/live/typing-direct',
    title: 'direct typing: each participant gets a typing event naming the sender and the participants',
    rules: ['C.live-1'],
    requires: { roles: ['member', 'member_2'] },
    given: (ctx) => openQueue(ctx, 'member_2', { event_types: ['typing'] }),
    when: (ctx) => ctx.as('member').post('/api/v1/typing', { type: 'direct', op: 'start', to: [ctx.user('member_2').user_id] }),
    async then(ctx, reply, queue) {
      ctx.expectSuccess('C.live-1', reply);
      // Only a direct notification: on a shared server the queue may also get other scenarios' channel typing.
      const { found, reply: events } = await eventsUntil(queue, (e) => typingEvent('start')(e) && Array.isArray(e.recipients));
      const sender = asObject(found?.sender).user_id;
      ctx.expectEqual('C.live-1', sender, ctx.user('member').user_id, 'the event’s sender', events);
      const ids = userIdsOf(found?.recipients);
      ctx.check(
        'C.live-1',
        ids.includes(ctx.user('member').user_id) && ids.includes(ctx.user('member_2').user_id),
        `recipients ${JSON.stringify(ids)} name both participants`,
        events,
      );
    },
  }),
  scenario({
    id: 'companion/live/typing-channel',
    title: 'channel typing: subscribers get the event with channel and topic; others do not',
    rules: ['C.live-2'],
    requires: { roles: ['member'], channels: ['public_2'] },
    async given(ctx) {
      const outsider: WorldRole = outsiderOf(ctx, 'public_2');
      const insider = ctx.channel('public_2').subscribers.find((r) => r !== 'member' && ctx.world.credentials[r])!;
      return {
        topic: ctx.unique('typing'),
        inside: await openQueue(ctx, insider, { event_types: ['typing'] }),
        outside: await openQueue(ctx, outsider, { event_types: ['typing'] }),
      };
    },
    when: (ctx, g) =>
      ctx
        .as('member')
        .post('/api/v1/typing', { type: 'stream', op: 'start', stream_id: ctx.channel('public_2').stream_id, topic: g.topic }),
    async then(ctx, reply, g) {
      ctx.expectSuccess('C.live-2', reply);
      // This scenario's topic only: other scenarios' typing may reach the same users meanwhile.
      const ours = (e: Event) => typingEvent('start')(e) && e.topic === g.topic;
      const inside = await eventsUntil(g.inside, ours);
      ctx.expectEqual(
        'C.live-2',
        { stream_id: inside.found?.stream_id, topic: inside.found?.topic },
        { stream_id: ctx.channel('public_2').stream_id, topic: g.topic },
        'the subscriber’s typing event',
        inside.reply,
      );
      // The subscriber got its event, so the outsider's would be there by now too.
      const outside = await fetchNow(g.outside);
      ctx.check('C.live-2', !eventsOf(outside).some(ours), 'the user outside the channel got no typing event', outside);
    },
  }),
  ...(
    [
      ['without-op', 'C.live-3', { to: '[1]' }, 'REQUEST_VARIABLE_MISSING'],
      ['unknown-user', 'C.live-4', { op: 'start', to: '[999999937]' }, 'BAD_REQUEST'],
      ['channel-without-topic', 'C.live-5', { type: 'stream', op: 'start', stream_id: '-1' }, 'BAD_REQUEST'],
    ] as const
  ).map(([name, rule, params, code]) =>
    scenario({
      id: `companion/live/typing-refused-${name}`,
      title: `typing ${name.replace(/-/g, ' ')} is refused with ${code}`,
      rules: [rule],
      requires: { roles: ['member'], channels: ['public'] },
      when: (ctx) =>
        ctx.as('member').post('/api/v1/typing', 'stream_id' in params ? { ...params, stream_id: ctx.channel('public').stream_id } : params),
      then: (ctx, reply) => void ctx.expectError(rule, reply, { status: 400, code }),
    }),
  ),
  scenario({
    id: 'companion/live/typing-refused-channel-without-stream-id',
    title: "typing channel without stream id is refused with BAD_REQUEST and the level's text",
    rules: ['C.live-5', 'C.live-23'],
    requires: { roles: ['member'] },
    when: (ctx) => ctx.as('member').post('/api/v1/typing', { type: 'stream', op: 'start', topic: 'x' }),
    then(ctx, reply) {
      ctx.expectError('C.live-5', reply, { status: 400, code: 'BAD_REQUEST' });
      // The text by level: reference set-typing-status, renamed with the other stream → channel texts (feature level 255).
      const renamed = ctx.has('channel_texts');
      const msg = renamed ? 'Missing channel ID' : 'Missing stream_id';
      ctx.check(
        'C.live-23',
        reply.body.msg === msg,
        `msg ${JSON.stringify(reply.body.msg)}, the reference answers "${msg}" at level ${ctx.level}`,
        reply,
      );
    },
  }),
];

const PRESENCE = [
  scenario({
    id: 'companion/live/presence-report',
    title: 'reporting active answers the caller as active; ping_only answers no presences; a bad status is refused',
    rules: ['C.live-7', 'C.live-8', 'C.live-9', 'C.live-13'],
    requires: { roles: ['member', 'member_2'] },
    isolated: true,
    when: (ctx) => ctx.as('member').post('/api/v1/users/me/presence', { status: 'active' }),
    async then(ctx, reply) {
      ctx.expectSuccess('C.live-7', reply);
      const mine = asObject(asObject(reply.body.presences)[ctx.user('member').email]);
      ctx.check('C.live-7', typeof reply.body.server_timestamp === 'number', 'server_timestamp is a number', reply);
      ctx.expectEqual('C.live-7', asObject(mine.aggregated).status, 'active', 'the caller’s aggregated status', reply);
      const ping = await ctx.as('member').post('/api/v1/users/me/presence', { status: 'idle', ping_only: true });
      ctx.check(
        'C.live-9',
        ping.body.result === 'success' && !Object.hasOwn(ping.body, 'presences'),
        'ping_only answers no presences',
        ping,
      );
      ctx.expectError('C.live-8', await ctx.as('member').post('/api/v1/users/me/presence', { status: 'away' }), {
        status: 400,
        code: 'BAD_REQUEST',
      });
      const realm = await ctx.as('member_2').get('/api/v1/realm/presence');
      ctx.check('C.live-13', typeof realm.body.server_timestamp === 'number', 'realm presence has server_timestamp', realm);
      ctx.check(
        'C.live-13',
        Object.hasOwn(asObject(realm.body.presences), ctx.user('member').email),
        'the reporter is listed by email',
        realm,
      );
    },
  }),
  scenario({
    id: 'companion/live/presence-online-offline',
    title: 'after the offline threshold a user reads as offline, and coming back online is announced',
    rules: ['C.live-10', 'C.live-11'],
    requires: { roles: ['member', 'member_2'], control: true },
    isolated: true,
    async given(ctx) {
      ctx.must(await ctx.as('member').post('/api/v1/users/me/presence', { status: 'active', ping_only: true }), 'report active');
      const active = await ctx.as('member_2').get(`/api/v1/users/${ctx.user('member').user_id}/presence`);
      await ctx.advanceClock(600);
      const offline = await ctx.as('member_2').get(`/api/v1/users/${ctx.user('member').user_id}/presence`);
      return { active, offline, queue: await openQueue(ctx, 'member_2', { event_types: ['presence'] }) };
    },
    when: (ctx) => ctx.as('member').post('/api/v1/users/me/presence', { status: 'active', ping_only: true }),
    async then(ctx, _reply, g) {
      const status = (r: typeof g.active) => asObject(asObject(r.body.presence).aggregated).status;
      ctx.expectEqual('C.live-11', status(g.active), 'active', 'aggregated status just after the report', g.active);
      ctx.expectEqual('C.live-11', status(g.offline), 'offline', 'aggregated status ten minutes later', g.offline);
      const seen = await eventsUntil(g.queue, (e) => presenceOf(e, ctx.user('member').user_id));
      ctx.check('C.live-10', seen.found !== undefined, 'a presence event announced the user coming back online', seen.reply);
    },
  }),
  scenario({
    id: 'companion/live/presence-last-update-id',
    title: 'a presence report answers presence_last_update_id from feature level 263, and not below it',
    rules: ['C.live-22'],
    requires: { roles: ['member'] },
    isolated: true,
    async when(ctx) {
      const plain = await ctx.as('member').post('/api/v1/users/me/presence', { status: 'active' });
      // Nothing is newer than this ID, so the ID sent comes back (reference update-presence).
      const later = await ctx.as('member').post('/api/v1/users/me/presence', { status: 'active', last_update_id: 2_000_000_000 });
      return { plain, later };
    },
    then(ctx, { plain, later }) {
      ctx.expectSuccess('C.live-22', plain);
      const level = `the announced level ${ctx.level} (presence_last_update_id at 263, reference update-presence)`;
      if (!ctx.has('presence_last_update_id')) {
        ctx.check('C.live-22', !Object.hasOwn(plain.body, 'presence_last_update_id'), `no presence_last_update_id at ${level}`, plain);
        return;
      }
      const id = plain.body.presence_last_update_id;
      ctx.check(
        'C.live-22',
        Number.isInteger(id) && (id as number) >= -1,
        `presence_last_update_id ${JSON.stringify(id)} at ${level}`,
        plain,
      );
      ctx.expectEqual(
        'C.live-22',
        later.body.presence_last_update_id,
        2_000_000_000,
        'presence_last_update_id after a newer last_update_id',
        later,
      );
    },
  }),
  scenario({
    id: 'companion/live/presence-of-a-bot',
    title: 'the presence of a bot is refused',
    rules: ['C.live-12'],
    requires: { roles: ['member', 'bot'] },
    when: (ctx) => ctx.as('member').get(`/api/v1/users/${ctx.user('bot').user_id}/presence`),
    then: (ctx, reply) => void ctx.expectError('C.live-12', reply, { status: 400, code: 'BAD_REQUEST' }),
  }),
  scenario({
    id: 'companion/live/register-keys',
    title: 'register announces the typing periods, the presence intervals, presences and the upload limit',
    rules: ['C.live-6', 'C.live-14', 'C.live-21'],
    requires: { roles: ['member'] },
    when: (ctx) => ctx.snapshot('member', { fetch_event_types: ['realm', 'presence'] }),
    then(ctx, reply) {
      const b = reply.body;
      for (const key of [
        'server_typing_started_expiry_period_milliseconds',
        'server_typing_stopped_wait_period_milliseconds',
        'server_typing_started_wait_period_milliseconds',
      ])
        ctx.check('C.live-6', isPositiveInt(b[key]), `${key} = ${JSON.stringify(b[key])}`, reply);
      for (const key of ['server_presence_ping_interval_seconds', 'server_presence_offline_threshold_seconds'])
        ctx.check('C.live-14', isPositiveInt(b[key]), `${key} = ${JSON.stringify(b[key])}`, reply);
      ctx.check(
        'C.live-14',
        typeof b.presences === 'object' && typeof b.server_timestamp === 'number',
        'presences and server_timestamp',
        reply,
      );
      ctx.check(
        'C.live-21',
        isPositiveInt(b.max_file_upload_size_mib),
        `max_file_upload_size_mib = ${JSON.stringify(b.max_file_upload_size_mib)}`,
        reply,
      );
    },
  }),
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const LIVE: Scenario<any, any>[] = [...TYPING, ...PRESENCE, ...LIVE_UPLOADS];
