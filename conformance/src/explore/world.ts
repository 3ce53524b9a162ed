import type { Params } from '../client.js';
import type { Answer, ExploreActor } from './actors.js';
import type { Knowledge } from './knowledge.js';

/**
 * Each sequence's own corner of the target, made through the API as the scripted scenarios make theirs:
 * three channels named with the run's prefix (a public one everyone is in, a private one with shared
 * history for the first two actors, a second public one for the others to move messages into), and a
 * queue per actor. `teardown` takes back what steps made, archives the channels and deletes the queues,
 * so a real server keeps only archived channels (and their messages) from a run.
 */
export class SetupFailed extends Error {}

function must(reply: Answer, what: string): Answer {
  if (reply.status !== 200 || reply.body.result !== 'success')
    throw new SetupFailed(`${what}: answered ${reply.status} ${reply.text.slice(0, 200)}`);
  return reply;
}

export async function buildWorld(k: Knowledge, actors: readonly ExploreActor[], prefix: string): Promise<void> {
  const admin = actors[0]!;
  k.token = `tcx${prefix.replace(/[^a-z0-9]/gi, '').replace(/^tcexplore/, '')}`;
  const specs = [
    { label: 'public', private: false, members: actors },
    { label: 'private', private: true, members: actors.slice(0, 2) },
    { label: 'other', private: false, members: actors.filter((_, i) => i !== 1) },
  ];
  // The three channels at once; their keys in this order (c1 public, c2 private, c3 other), as scripts name them.
  const ids = await Promise.all(
    specs.map(async (spec) => {
      const name = `${prefix} ${spec.label}`;
      must(
        await admin.call('POST', '/api/v1/users/me/subscriptions', {
          subscriptions: [{ name, description: 'Made by teamchat conform --explore' }],
          principals: spec.members.map((a) => a.userId),
          invite_only: spec.private,
          ...(spec.private ? { history_public_to_subscribers: true } : {}),
        }),
        `creating channel "${name}"`,
      );
      const found = must(await admin.call('GET', '/api/v1/get_stream_id', { stream: name }), `finding channel "${name}"`);
      const id = found.body.stream_id;
      if (typeof id !== 'number') throw new SetupFailed(`GET /api/v1/get_stream_id answered without stream_id for "${name}"`);
      return id;
    }),
  );
  specs.forEach((spec, i) => {
    const id = ids[i]!;
    k.channels.push({
      key: k.bind('c', id),
      id,
      name: `${prefix} ${spec.label}`,
      private: spec.private,
      webPublic: false,
      archived: false,
      everIn: new Set(spec.members.map((a) => a.name)),
    });
  });
  // Queues after the channels: their events are no part of any step.
  await Promise.all(actors.map((actor) => openQueue(actor)));
}

/** Registers the actor's queue; its state is what the register answered. */
export async function openQueue(actor: ExploreActor): Promise<void> {
  const res = must(await actor.call('POST', '/api/v1/register', actor.registerParams()), `registering a queue for ${actor.name}`);
  actor.queueId = String(res.body.queue_id);
  actor.lastEventId = Number(res.body.last_event_id);
  actor.state = withMe(actor, res.body);
}

/**
 * The state as a client keeps it: a client knows its own user ID from its credentials, and the reducers need
 * it (whose subscription a peer event is about); register sends it only with realm_user's state.
 */
export function withMe(actor: ExploreActor, state: Record<string, unknown>): Record<string, unknown> {
  return 'user_id' in state ? state : { ...state, user_id: actor.userId };
}

/**
 * Best effort: a teardown that fails leaves the run's result as it is. What steps made that outlives the
 * sequence (drafts, snippets, views, reminders, scheduled messages, linkifiers, a changed status, messages
 * marked read outside explore's channels) is taken back, newest first, by its owner; then the queues go
 * and the channels are archived.
 */
export async function teardownWorld(k: Knowledge, actors: readonly ExploreActor[]): Promise<void> {
  // All at once: each undo stands alone (a draft, a snippet, a queue, a channel), and a run's --duration waits
  // for the teardown of the sequence under way.
  const ignore = () => undefined;
  await Promise.all(
    [...k.owned].reverse().map((thing) => {
      const owner = actors.find((a) => a.name === thing.owner);
      return owner?.call(thing.undo.method, thing.undo.path, thing.undo.params as Params).catch(ignore);
    }),
  );
  const admin = actors[0]!;
  await Promise.all([
    ...actors.filter((a) => a.queueId).map((a) => a.call('DELETE', '/api/v1/events', { queue_id: a.queueId }).catch(ignore)),
    ...k.channels.filter((c) => !c.archived).map((c) => admin.call('DELETE', `/api/v1/streams/${c.id}`).catch(ignore)),
  ]);
}
