import type { Reply } from '../../src/client.js';
import { SetupError, type ScenarioContext } from '../../src/context.js';
import { scenario } from '../../src/dsl.js';
import { R } from './rules.js';
import { channelHas } from '../level-fields.js';
import {
  asArray,
  createDraft,
  eventsOf,
  eventsUntil,
  fetchNow,
  longPoll,
  openQueue,
  registerOnce,
  sleep,
  type Event,
  type Queue,
} from './support.js';

/**
 * Spec §6 and §8: long-polling with queue_id and last_event_id, drafts events to the user's other
 * clients (§6.5), heartbeats every minute (§6.3) and garbage collection after ten idle minutes (§6.2,
 * §3, §7 BAD_EVENT_QUEUE_ID). Time moves through the target's clock (the mock's control API), or in
 * real time under --slow.
 */

/**
 * A long-poll that should end with a heartbeat: the clock moves a minute at a time (at most three) until
 * the poll answers, so it does not matter whether the poll reached the server before the first move.
 */
async function pollThroughMinutes(ctx: ScenarioContext, q: Queue): Promise<Reply> {
  let answer: Reply | undefined;
  const poll = longPoll(q).then((r) => (answer = r));
  for (let minute = 0; minute < 3 && answer === undefined; minute++) {
    await sleep(minute === 0 ? 20 : 0);
    await ctx.advanceClock(60);
    await Promise.race([poll, sleep(100)]);
  }
  return poll;
}

export default [
  scenario({
    id: 'events/long-poll-wakes-on-change',
    title: 'a waiting long-poll with queue_id and last_event_id answers with the event of a later change',
    rules: [R.eventsOperation, R.lastEventId],
    requires: { roles: ['member'] },
    isolated: true,
    given: (ctx) => openQueue(ctx, 'member', { event_types: ['drafts'] }),
    async when(ctx, q) {
      const poll = longPoll(q);
      await sleep(20);
      await createDraft(ctx, 'member', ctx.unique('draft'));
      return poll;
    },
    then(ctx, res, q) {
      ctx.expectSuccess(R.eventsOperation, res);
      const events = eventsOf(res);
      ctx.check(
        R.eventsOperation,
        events.some((e) => e.type === 'drafts'),
        `the poll answered ${JSON.stringify(events.map((e) => e.type))}`,
        res,
      );
      ctx.check(
        R.lastEventId,
        events.length > 0 && events.every((e) => Number.isInteger(e.id) && e.id > q.lastEventId),
        `event IDs ${JSON.stringify(events.map((e) => e.id))} after last_event_id ${q.lastEventId}`,
        res,
      );
    },
  }),
  scenario({
    id: 'events/drafts-reach-other-clients',
    title: "creating a draft sends a drafts event to the user's other queue, and none to another user's",
    rules: [R.draftsEvents, R.draftsSynchronized, R.eventTypes],
    requires: { roles: ['member', 'member_2'] },
    isolated: true,
    async given(ctx) {
      // The user's other client registered for every event type (event_types absent: all events).
      return { own: await openQueue(ctx, 'member'), other: await openQueue(ctx, 'member_2', { event_types: ['drafts'] }) };
    },
    when: (ctx) => createDraft(ctx, 'member', ctx.unique('synchronized draft')),
    async then(ctx, id, q) {
      const own = await eventsUntil(q.own, (e) => e.type === 'drafts');
      const drafts = (own.found?.drafts ?? []) as { id?: number }[];
      ctx.check(
        R.draftsEvents,
        own.found !== undefined,
        `the other queue of the user got ${JSON.stringify(own.events.map((e) => e.type))}`,
        own.reply,
      );
      ctx.check(
        R.eventTypes,
        own.found !== undefined,
        'a queue registered without event_types receives drafts events (all events)',
        own.reply,
      );
      ctx.check(
        R.draftsSynchronized,
        drafts.some((d) => d.id === id),
        `the event carries draft ${id}: ${JSON.stringify(drafts.map((d) => d.id))}`,
        own.reply,
      );
      const other = await fetchNow(q.other);
      ctx.expectEqual(
        R.draftsEvents,
        eventsOf(other).filter((e) => e.type === 'drafts').length,
        0,
        "drafts events in another user's queue",
        other,
      );
    },
  }),
  scenario({
    id: 'events/unsubscribe-subscription-events',
    title: 'leaving a channel sends the user a subscription removal and the other subscribers a peer_remove',
    rules: [R.eventTypesNamed, R.subscriberCount],
    requires: { roles: ['member', 'member_2'], channels: ['public_2'] },
    isolated: true,
    async given(ctx) {
      const subs = ctx.channel('public_2').subscribers;
      if (!subs.includes('member') || !subs.includes('member_2'))
        throw new SetupError('member and member_2 must both be subscribed to public_2');
      return {
        own: await openQueue(ctx, 'member', { event_types: ['subscription'] }),
        peer: await openQueue(ctx, 'member_2', { event_types: ['subscription', 'peer_remove'], fetch_event_types: ['subscription'] }),
      };
    },
    async when(ctx) {
      const name = ctx.channel('public_2').name;
      const res = ctx.must(await ctx.as('member').delete('/api/v1/users/me/subscriptions', { subscriptions: [name] }), 'leave public_2');
      ctx.defer(() => ctx.as('member').post('/api/v1/users/me/subscriptions', { subscriptions: [{ name }] }));
      return res;
    },
    async then(ctx, _res, q) {
      const channel = ctx.channel('public_2').stream_id;
      const member = ctx.user('member').user_id;
      const own = await eventsUntil(q.own, (e) => e.type === 'subscription' && e.op === 'remove');
      const removed = (own.found?.subscriptions ?? []) as { stream_id?: number }[];
      ctx.check(
        R.eventTypesNamed,
        removed.some((s) => s.stream_id === channel),
        `the user's queue: ${JSON.stringify(own.events.map((e) => [e.type, e.op]))}`,
        own.reply,
      );
      const isPeerRemove = (e: Event) => e.op === 'peer_remove' || e.type === 'peer_remove';
      const peer = await eventsUntil(q.peer, isPeerRemove);
      const ids = (peer.found?.user_ids ?? []) as number[];
      const channels = (peer.found?.stream_ids ?? []) as number[];
      ctx.check(
        R.eventTypesNamed,
        ids.includes(member) && channels.includes(channel),
        `another subscriber's queue: ${JSON.stringify(peer.found ?? peer.events.map((e) => [e.type, e.op]))}`,
        peer.reply,
      );
      // What a client keeps up to date from peer_remove is what a new snapshot counts.
      const count = (res: Reply) => asArray(res.body.subscriptions).find((s) => s.stream_id === channel)?.subscriber_count;
      const before = count(q.peer.reply);
      const after = await registerOnce(ctx, ctx.as('member_2'), { event_types: ['subscription'], fetch_event_types: ['subscription'] });
      // subscriber_count came at a feature level (reference get-streams): below it there is nothing to count.
      if (!channelHas(ctx, 'subscriber_count')) return;
      ctx.expectEqual(
        R.subscriberCount,
        count(after),
        typeof before === 'number' ? before - 1 : 'a number',
        'subscriber_count after one subscriber left',
        after,
      );
    },
  }),
  scenario({
    id: 'events/heartbeat-after-a-minute',
    title: 'a long-poll with nothing to deliver answers with a heartbeat after a minute, whatever event_types says',
    rules: [R.heartbeat, R.heartbeatInterval],
    requires: { roles: ['member'], control: true },
    given: (ctx) => openQueue(ctx, 'member', { event_types: ['drafts'] }),
    when: (ctx, q) => pollThroughMinutes(ctx, q),
    then(ctx, res) {
      ctx.expectSuccess(R.heartbeat, res);
      const beats = eventsOf(res).filter((e) => e.type === 'heartbeat');
      ctx.check(R.heartbeat, beats.length > 0, `events ${JSON.stringify(eventsOf(res).map((e) => e.type))}`, res);
      ctx.check(
        R.heartbeatInterval,
        beats.every((e) => Number.isInteger(e.id)),
        'heartbeats carry an event ID',
        res,
      );
    },
  }),
  scenario({
    id: 'events/queue-alive-before-ten-minutes',
    title: 'a queue idle for nine minutes still answers',
    rules: [R.queueExpiry, R.queueInactivityLimit],
    requires: { roles: ['member'], control: true },
    given: (ctx) => openQueue(ctx, 'member', { event_types: ['drafts'] }),
    async when(ctx, q) {
      await ctx.advanceClock(9 * 60);
      return fetchNow(q);
    },
    then(ctx, res) {
      ctx.expectSuccess(R.queueInactivityLimit, res);
      ctx.check(R.queueExpiry, res.status === 200, 'nine idle minutes are within the ten the queue is kept', res);
    },
  }),
  scenario({
    id: 'events/queue-expires-after-ten-idle-minutes',
    title: 'a queue idle for more than ten minutes is gone: BAD_EVENT_QUEUE_ID, and registering again works',
    rules: [R.queueExpiry, R.queueInactivityLimit, R.queueGarbageCollected, R.queueStates, R.badEventQueueId, R.reRegister],
    requires: { roles: ['member'], control: true },
    given: (ctx) => openQueue(ctx, 'member', { event_types: ['drafts'] }),
    async when(ctx, q) {
      // Ten minutes and one more: a server may collect idle queues on a periodic sweep.
      await ctx.advanceClock(11 * 60);
      return fetchNow(q);
    },
    async then(ctx, res) {
      // §7 states no status for BAD_EVENT_QUEUE_ID: 400 is the reference's.
      const gone = ctx.expectError(R.badEventQueueId, res, { status: 400, code: 'BAD_EVENT_QUEUE_ID', reference: { for: ['status'] } });
      for (const rule of [R.queueExpiry, R.queueInactivityLimit, R.queueGarbageCollected, R.queueStates])
        ctx.check(rule, gone, 'the queue idle for eleven minutes was collected', res);
      const again = await openQueue(ctx, 'member', { event_types: ['drafts'] });
      ctx.expectSuccess(R.reRegister, await fetchNow(again));
    },
  }),
  scenario({
    id: 'events/queue-activity-restarts-idle-time',
    title: 'fetching events counts as activity: a queue fetched every six minutes outlives ten minutes',
    rules: [R.queueExpiry, R.queueInactivityLimit],
    requires: { roles: ['member'], control: true },
    given: (ctx) => openQueue(ctx, 'member', { event_types: ['drafts'] }),
    async when(ctx, q) {
      await ctx.advanceClock(6 * 60);
      ctx.must(await fetchNow(q), 'fetch after six minutes');
      await ctx.advanceClock(6 * 60);
      return fetchNow(q);
    },
    then(ctx, res) {
      ctx.expectSuccess(R.queueExpiry, res);
      ctx.check(R.queueInactivityLimit, res.status === 200, 'the ten minutes count from the last fetch, not from register', res);
    },
  }),
];
