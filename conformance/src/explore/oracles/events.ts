import { setTimeout as sleep } from 'node:timers/promises';
import type { ExploreActor } from '../actors.js';
import type { Knowledge } from '../knowledge.js';
import { applyEvents, comparable, snapshotDiff, type PolledEvent, type Snapshot } from '../reducers/index.js';
import type { SequenceEnv } from '../env.js';
import { EXPLORE_RULES, Violation } from '../types.js';
import { withMe } from '../world.js';
import { checkLeaks } from './leaks.js';

/** Polls every actor's queue without blocking; each actor's events, its cursor moved past them. */
export async function pollAll(actors: readonly ExploreActor[]): Promise<Map<string, PolledEvent[]>> {
  const polled = await Promise.all(actors.map((a) => poll(a)));
  return new Map(actors.map((a, i) => [a.name, polled[i]!]));
}

async function poll(actor: ExploreActor): Promise<PolledEvent[]> {
  const res = await actor.call('GET', '/api/v1/events', { queue_id: actor.queueId, last_event_id: actor.lastEventId, dont_block: true });
  const events = res.body.events;
  if (res.status !== 200 || !Array.isArray(events))
    throw new Violation(
      EXPLORE_RULES.eventsSnapshot,
      `polling ${actor.name}'s queue answered ${res.status} ${res.text.slice(0, 200)}`,
      actor.name,
    );
  const list = events as PolledEvent[];
  for (const e of list) if (typeof e.id === 'number' && e.id > actor.lastEventId) actor.lastEventId = e.id;
  return list.filter((e) => e.type !== 'heartbeat');
}

/** Waits between late polls: a server may deliver an event a moment after the write's answer. */
const SETTLE_MS = [10, 40, 150];

/**
 * events ⊕ snapshot = fresh snapshot: for each actor of `judged`, the state it registered with, every event its
 * queue received applied (reducers/), equals a fresh register with the same options. Every other actor's events
 * are applied without a register (Sequence chooses whom to judge: a missed event stays in the state until then).
 * No event may show what the actor may see neither before nor after the step (leaks.ts), for every actor.
 * Events that arrive late are waited for a little.
 */
export async function checkEvents(
  env: Pick<SequenceEnv, 'tally'>,
  k: Knowledge,
  actors: readonly ExploreActor[],
  events: ReadonlyMap<string, readonly PolledEvent[]>,
  before: ReadonlyMap<string, Snapshot>,
  judged: ReadonlySet<string>,
): Promise<void> {
  // Every actor at once (their requests overlap); the first violation in actor order is the one reported.
  const outcomes = await Promise.allSettled(
    actors.map((actor) => (judged.has(actor.name) ? checkActor(k, actor, events, before) : follow(k, actor, events, before))),
  );
  for (const o of outcomes) if (o.status === 'rejected') throw o.reason;
  env.tally(EXPLORE_RULES.eventsSnapshot, actors.filter((a) => judged.has(a.name)).length);
  env.tally(EXPLORE_RULES.noLeaks, actors.length);
}

/** An actor not judged this step: its events applied to its state, and judged for leaks. */
async function follow(
  k: Knowledge,
  actor: ExploreActor,
  events: ReadonlyMap<string, readonly PolledEvent[]>,
  before: ReadonlyMap<string, Snapshot>,
): Promise<void> {
  const received = events.get(actor.name) ?? [];
  if (received.length === 0) return;
  const applied = apply(actor, received);
  checkLeaks(k, actor, received, before.get(actor.name) ?? actor.state, applied);
  actor.state = applied;
}

async function checkActor(
  k: Knowledge,
  actor: ExploreActor,
  events: ReadonlyMap<string, readonly PolledEvent[]>,
  before: ReadonlyMap<string, Snapshot>,
): Promise<void> {
  let received = [...(events.get(actor.name) ?? [])];
  const registered = await freshState(actor);
  let applied = received.length > 0 ? apply(actor, received) : actor.state;
  const unseen = deletedUnseen(k, actor);
  let diff = differences(registered, applied, 1, unseen);
  for (const wait of SETTLE_MS) {
    if (diff.length === 0) break;
    await sleep(wait);
    const late = await poll(actor);
    if (late.length === 0) continue;
    received = [...received, ...late];
    applied = apply(actor, late, applied);
    diff = differences(registered, applied, 1, unseen);
  }
  checkLeaks(k, actor, received, before.get(actor.name) ?? actor.state, applied);
  if (diff.length > 0) {
    diff = differences(registered, applied, 8, unseen);
    const first = diff[0]!;
    throw new Violation(
      EXPLORE_RULES.eventsSnapshot,
      `${actor.name}'s state from register + events differs from a fresh register at ${first.path}: ${JSON.stringify(first.actual)} from events, ${JSON.stringify(first.expected)} registered`,
      actor.name,
      { differences: diff, events: received },
    );
  }
  // max_message_id as registered: events cannot follow it (judged), the counters oracle reads it from here.
  actor.state = { ...applied, max_message_id: registered.max_message_id };
}

/** The first `limit` differences between a fresh register and the state from events, as judged. */
function differences(registered: Snapshot, applied: Snapshot, limit: number, unseen: ReadonlySet<number>) {
  return snapshotDiff(judged(registered, unseen, applied), judged(applied, unseen), limit);
}

/** IDs of deleted messages the actor had no access to when they were deleted (knowledge.ts `deletedUnseenBy`). */
function deletedUnseen(k: Knowledge, actor: ExploreActor): Set<number> {
  const ids = new Set<number>();
  for (const m of k.messages) if (m.deleted && m.deletedUnseenBy?.has(actor.name)) ids.add(m.id);
  return ids;
}

function apply(actor: ExploreActor, events: readonly PolledEvent[], from: Snapshot = actor.state): Snapshot {
  try {
    return applyEvents(from, events);
  } catch (e) {
    throw new Violation(
      EXPLORE_RULES.eventsSnapshot,
      `${actor.name} received an event a client cannot apply: ${(e as Error).message}`,
      actor.name,
      {
        events,
      },
    );
  }
}

/**
 * What the events oracle compares: `comparable`, without max_message_id. No event moves it when the reader gains
 * a receipt without a message event (a reaction or a flag on a public channel's message creates one in the
 * reference) or loses its newest message; the counters oracle judges it against GET /messages instead. Nor do
 * `unseen` messages leave starred_messages: the reference sends a deletion only to those with access, so a stale
 * star there is its documented behaviour, not a missed event.
 */
function judged(s: Snapshot, unseen: ReadonlySet<number>, reduced?: Snapshot): Snapshot {
  // With `reduced`, keys the reducers marked unknown (unread_msgs after joining a channel with history) are left out.
  const { max_message_id: _max, ...rest } = comparable(s, reduced);
  if (unseen.size > 0 && Array.isArray(rest.starred_messages))
    rest.starred_messages = rest.starred_messages.filter((id) => !unseen.has(id as number));
  return rest;
}

/** A fresh register with the actor's options; its queue is deleted at once (the actor waits for that at close). */
async function freshState(actor: ExploreActor): Promise<Snapshot> {
  const res = await actor.call('POST', '/api/v1/register', actor.registerParams());
  if (res.status !== 200 || typeof res.body.queue_id !== 'string')
    throw new Violation(
      EXPLORE_RULES.eventsSnapshot,
      `a fresh register for ${actor.name} answered ${res.status} ${res.text.slice(0, 200)}`,
      actor.name,
    );
  actor.dropQueue(res.body.queue_id);
  return withMe(actor, res.body);
}
