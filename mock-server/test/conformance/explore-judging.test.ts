import type { OpenAPIV3_1 } from 'openapi-types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, replaySteps } from '../../../conformance/src/explore/run.js';
import { EXPLORE_RULES, type Step } from '../../../conformance/src/explore/types.js';
import { TIERS } from '../../../conformance/src/model.js';
import { loadContract, ResponseSchemas } from '../../../conformance/src/openapi.js';
import { Target } from '../../../conformance/src/target.js';
import type { WorldRole } from '../../../conformance/src/world.js';
import type { MockServer } from '../../src/app.js';
import { eventsOf, withEvents, type Fault } from '../helpers/faulty-proxy.js';
import { faultyProxy } from '../helpers/faulty-proxy.js';
import { startTestServer } from '../helpers/test-server.js';

/**
 * Explore judges an actor by a fresh register only when its state changed, when it acted, or in turn: an event
 * missed by an actor that received nothing else is still caught, at the latest when the sequence ends
 * (Sequence.finish, which replays and shrinking run too).
 */
let mock: MockServer;
let api: OpenAPIV3_1.Document;
let schemas: ResponseSchemas;
beforeAll(async () => {
  [mock, api, schemas] = await Promise.all([startTestServer(), loadContract(), ResponseSchemas.load()]);
});
afterAll(() => mock.close());

/** The administrator adds a linkifier: every actor gets a realm_linkifiers event; its check reads the realm's list. */
const ADD_LINKIFIER: Step = {
  kind: 'add-linkifier',
  actor: 'administrator',
  operation: 'add-linkifier',
  method: 'POST',
  path: '/api/v1/realm/filters',
  params: { pattern: 'tcxjudging-(?P<id>[0-9]+)', url_template: 'https://example.com/tcxjudging/{id}' },
  expect: 'success',
  binds: 'f1',
};

/** The administrator sets its status: every actor gets a user_status event; its check reads every actor's state. */
const SET_STATUS: Step = {
  kind: 'update-status',
  actor: 'administrator',
  operation: 'update-status',
  method: 'POST',
  path: '/api/v1/users/me/status',
  params: { status_text: 'explore judging' },
  expect: 'success',
};

/** Replays the steps through a proxy that drops the events of `type` polled by the actor `victim`. */
async function replayDropping(victim: WorldRole | null, type: string, steps: readonly Step[]) {
  let email = '';
  const fault: Fault = (_req, answer, sent) => {
    const events = eventsOf(sent, answer);
    if (sent.email !== email || !events.some((e) => e.type === type)) return answer;
    return withEvents(
      answer,
      events.filter((e) => e.type !== type),
    );
  };
  const proxy = await faultyProxy(mock.url, fault);
  try {
    const session = await openSession({ target: await Target.connect(proxy.url), api, schemas, tiers: [...TIERS], users: 4 });
    email = victim ? session.world.credentials[victim]!.email : '';
    try {
      return await replaySteps(session.env(1), steps);
    } finally {
      await session.close();
    }
  } finally {
    await proxy.close();
  }
}

describe('explore judges every actor by the end of a sequence', () => {
  it('catches an event missed by an actor the step did not judge, when the sequence ends', async () => {
    // Step 1 judges the administrator (it acted) and the actor in turn (member, the second); the guest's queue
    // received nothing, so only the end of the sequence judges it. (member_2 registers as a legacy client, which
    // gets no realm_linkifiers.)
    const { violation, ran } = await replayDropping('guest', 'realm_linkifiers', [ADD_LINKIFIER]);
    expect(ran).toHaveLength(1);
    expect(violation?.rule).toBe(EXPLORE_RULES.eventsSnapshot);
    expect(violation?.actor).toBe('guest');
    expect(violation?.message).toContain('realm_linkifiers');
  }, 60_000);

  it('reports a missed event before a check that read the state missing it (read-your-writes)', async () => {
    // The status check reads member_2's state, which lacks the status: the fresh register explains why.
    const { violation } = await replayDropping('member_2', 'user_status', [SET_STATUS]);
    expect(violation?.rule).toBe(EXPLORE_RULES.eventsSnapshot);
    expect(violation?.actor).toBe('member_2');
    expect(violation?.message).toContain('user_status');
  }, 60_000);

  it('finds nothing when no event is dropped', async () => {
    const { violation, ran } = await replayDropping(null, 'user_status', [ADD_LINKIFIER, SET_STATUS]);
    expect(violation).toBeNull();
    expect(ran).toHaveLength(2);
  }, 60_000);
});

describe('what the reference leaves stale is not judged as a missed event', () => {
  // The member stars the administrator's message in the private channel c2, leaves c2, and the administrator deletes
  // the message. The reference tells only those with access of a deletion, so the member's starred_messages keeps
  // the ID while a fresh register drops it: no event could have said so.
  const steps: Step[] = [
    {
      kind: 'send-channel-message',
      actor: 'administrator',
      operation: 'send-message',
      method: 'POST',
      path: '/api/v1/messages',
      params: { type: 'stream', to: { $ref: 'c2' }, topic: 'stale star', content: 'to be starred' },
      expect: 'success',
      binds: 'm1',
    },
    {
      kind: 'update-message-flags',
      actor: 'member',
      operation: 'update-message-flags',
      method: 'POST',
      path: '/api/v1/messages/flags',
      params: { messages: [{ $ref: 'm1' }], op: 'add', flag: 'starred' },
      expect: 'success',
    },
    {
      kind: 'unsubscribe',
      actor: 'member',
      operation: 'unsubscribe',
      method: 'DELETE',
      path: '/api/v1/users/me/subscriptions',
      params: { subscriptions: [{ $name: 'c2' }] },
      expect: 'success',
    },
    {
      kind: 'delete-message',
      actor: 'administrator',
      operation: 'delete-message',
      method: 'DELETE',
      path: '/api/v1/messages/{m1}',
      params: {},
      expect: 'success',
    },
  ];

  it('a star on a message deleted after the actor left its private channel', async () => {
    const { violation, ran } = await replayDropping(null, 'none', steps);
    expect(violation).toBeNull();
    expect(ran.map((r) => r.exchange.status)).toEqual([200, 200, 200, 200]);
    // The member heard nothing of the deletion.
    expect(ran[3]!.events.member ?? []).toEqual([]);
  }, 60_000);
});

describe("what explore expects of an actor's copies", () => {
  // Found by a 10-minute run: the guest leaves c1; a message sent there is moved into c3, where the guest is; the
  // guest marks it unread (it now holds a copy) and leaves c3, which marks its messages there read. That flag event
  // concerns the guest's own copy, as the reference's does, though the guest may no longer fetch the message.
  const steps: Step[] = [
    {
      kind: 'unsubscribe',
      actor: 'guest',
      operation: 'unsubscribe',
      method: 'DELETE',
      path: '/api/v1/users/me/subscriptions',
      params: {
        subscriptions: [
          {
            $name: 'c1',
          },
        ],
      },
      expect: 'success',
    },
    {
      kind: 'send-channel-message',
      actor: 'member',
      operation: 'send-message',
      method: 'POST',
      path: '/api/v1/messages',
      params: {
        type: 'stream',
        to: {
          $ref: 'c1',
        },
        topic: 'alpha',
        content: 'explore 2: hello alpha',
      },
      expect: 'success',
      binds: 'm2',
    },
    {
      kind: 'move-to-channel',
      actor: 'member_2',
      operation: 'update-message',
      method: 'PATCH',
      path: '/api/v1/messages/{m2}',
      params: {
        stream_id: {
          $ref: 'c3',
        },
        topic: 'gamma',
        propagate_mode: 'change_later',
      },
      expect: 'either',
    },
    {
      kind: 'update-message-flags',
      actor: 'guest',
      operation: 'update-message-flags',
      method: 'POST',
      path: '/api/v1/messages/flags',
      params: {
        messages: [
          {
            $ref: 'm2',
          },
        ],
        op: 'remove',
        flag: 'read',
      },
      expect: 'success',
    },
    {
      kind: 'unsubscribe',
      actor: 'guest',
      operation: 'unsubscribe',
      method: 'DELETE',
      path: '/api/v1/users/me/subscriptions',
      params: {
        subscriptions: [
          {
            $name: 'c3',
          },
        ],
      },
      expect: 'success',
    },
  ];

  it('flag events about its own copy are not leaks: marking the copy read on leaving the channel it was moved into', async () => {
    const { violation, ran } = await replayDropping(null, 'none', steps);
    expect(violation).toBeNull();
    expect(ran).toHaveLength(5);
    expect(ran[4]!.events.guest?.map((e) => e.type)).toContain('update_message_flags');
  }, 60_000);

  // Found by a 10-minute run: a message moved into c2 gives the member, subscribed there, no copy (c2 shares its
  // history: the reference adds rows only where history is protected). The "moved here" note it did receive is moved
  // away, so the topic holds none of its copies and mark_topic_as_read answers "No such topic", as the reference's
  // does: explore no longer takes that step for a valid one, so the replay ends before it.
  it('a message moved into a channel with shared history is no copy: marking its topic read is not a valid step', async () => {
    const { violation, ran } = await replayDropping(null, 'none', TOPIC_STEPS);
    expect(violation).toBeNull();
    expect(ran.map((r) => r.step.kind)).toEqual(['send-channel-message', 'move-to-channel', 'move-to-channel']);
  }, 60_000);
  // Found by another 10-minute run: taking a star off a message one has no copy of changes nothing and gives no copy
  // (the reference filters out flag changes that leave a message as it counts without one).
  it('removing a star from a message one has no copy of gives no copy either', async () => {
    const { violation, ran } = await replayDropping(null, 'none', UNSTAR_STEPS);
    expect(violation).toBeNull();
    expect(ran.map((r) => r.step.kind)).toEqual(['send-channel-message', 'update-message-flags', 'move-to-channel', 'move-to-channel']);
  }, 60_000);
});

const TOPIC_STEPS: Step[] = [
  {
    kind: 'send-channel-message',
    actor: 'member_2',
    operation: 'send-message',
    method: 'POST',
    path: '/api/v1/messages',
    params: {
      type: 'stream',
      to: {
        $ref: 'c3',
      },
      topic: 'gamma',
      content: 'explore 1: hello gamma',
    },
    expect: 'success',
    binds: 'm1',
  },
  {
    kind: 'move-to-channel',
    actor: 'member',
    operation: 'update-message',
    method: 'PATCH',
    path: '/api/v1/messages/{m1}',
    params: {
      stream_id: {
        $ref: 'c2',
      },
      propagate_mode: 'change_one',
    },
    expect: 'either',
  },
  {
    kind: 'move-to-channel',
    actor: 'administrator',
    operation: 'update-message',
    method: 'PATCH',
    path: '/api/v1/messages/{n1}',
    params: {
      stream_id: {
        $ref: 'c1',
      },
      propagate_mode: 'change_one',
    },
    expect: 'either',
  },
  {
    kind: 'mark-topic-as-read',
    actor: 'member',
    operation: 'mark-topic-as-read',
    method: 'POST',
    path: '/api/v1/mark_topic_as_read',
    params: {
      stream_id: {
        $ref: 'c2',
      },
      topic_name: 'gamma',
    },
    expect: 'success',
  },
];

/** The same sequence with the member taking a star off m1 first (a no-op without a copy). */
const UNSTAR_STEPS: Step[] = [
  TOPIC_STEPS[0]!,
  {
    kind: 'update-message-flags',
    actor: 'member',
    operation: 'update-message-flags',
    method: 'POST',
    path: '/api/v1/messages/flags',
    params: { messages: [{ $ref: 'm1' }], op: 'remove', flag: 'starred' },
    expect: 'success',
  },
  ...TOPIC_STEPS.slice(1),
];
