import { describe, expect, it } from 'vitest';
import { madeUpEvent } from '../helpers/made-up-event.js';
import { Clock } from '../../src/clock/clock.js';
import { dispatch } from '../../src/events/dispatcher.js';
import type { EventQueue } from '../../src/events/queue.js';
import { QueueRegistry, WAKE_BATCH } from '../../src/events/registry.js';
import { answerText } from '../../src/http/respond.js';
import { memoryPersistence } from '../../src/store/persistence.js';
import { emptyRealmTables, type RealmRow } from '../../src/store/state.js';
import { Store } from '../../src/store/store.js';
import { queueDescriptor } from '../helpers/queue-descriptor.js';

/**
 * Waking thousands of waiting polls in batches (registry.ts `wake`): every waiter is answered once with
 * its event, none is lost or answered twice, and a poll that started after the event was queued is not
 * woken with an empty queue by a batch that comes later.
 */
const USERS = 20;
const QUEUES_PER_USER = 100;
const descriptor = queueDescriptor();

async function setUp() {
  const store = await Store.open(memoryPersistence());
  await store.replaceRealm('r', emptyRealmTables({ id: 'r' } as RealmRow));
  const registry = new QueueRegistry(new Clock('frozen', 0), QUEUES_PER_USER);
  store.onCommit((realmId, events, seq) => dispatch(registry, store.realm(realmId), realmId, events, seq));
  const userIds = Array.from({ length: USERS }, (_, i) => i + 1);
  const queues: EventQueue[] = [];
  for (const userId of userIds)
    for (let i = 0; i < QUEUES_PER_USER; i++) queues.push(registry.create('r', userId, descriptor, store.appliedSeq));
  const emit = (n: number) => store.transact('r', (tx) => tx.emit(madeUpEvent({ type: 'wake_test', n }), userIds));
  return { registry, queues, emit };
}

describe('batched wake-ups', () => {
  it(`answer each of ${USERS * QUEUES_PER_USER} waiting polls once, with its event, message after message`, async () => {
    const { registry, queues, emit } = await setUp();
    expect(queues.length).toBeGreaterThan(WAKE_BATCH * 4);
    const controller = new AbortController();
    for (let n = 0; n < 3; n++) {
      const woken = new Array<number>(queues.length).fill(0);
      const waits = queues.map((queue, i) => registry.wait(queue, controller.signal).then(() => woken[i]!++));
      await emit(n);
      await Promise.all(waits);
      expect(woken.every((count) => count === 1)).toBe(true);
      for (const queue of queues) {
        expect(answerText({ events: queue.pending() })).toBe(JSON.stringify({ events: [{ type: 'wake_test', n, id: n }] }));
        queue.acknowledge(n);
      }
    }
    registry.closeAll();
  });

  it('leave a poll that started after the event (its queue acknowledged) waiting, to be answered by the next event', async () => {
    const { registry, queues, emit } = await setUp();
    const controller = new AbortController();
    const waits = queues.map((queue) => registry.wait(queue, controller.signal));
    // The last queue is woken in a later batch: before that, a newer poll takes the event and waits again.
    const late = queues[queues.length - 1]!;
    await emit(0);
    expect(late.waiter).not.toBeNull();
    expect(late.pending().map((e) => e.id)).toEqual([0]);
    late.acknowledge(0);
    let newerAnswered = false;
    const newer = registry.wait(late, controller.signal).then(() => (newerAnswered = true));
    await Promise.all(waits);
    await new Promise((resolve) => setImmediate(resolve));
    expect(newerAnswered).toBe(false);
    await emit(1);
    await newer;
    expect(late.pending().map((e) => e.id)).toEqual([1]);
    registry.closeAll();
  });
});

describe('a realm without queues', () => {
  it('is skipped by dispatch until a queue is registered again, which then gets the next event', async () => {
    const { registry, queues, emit } = await setUp();
    expect(registry.hasQueues('r')).toBe(true);
    for (const queue of queues) registry.delete(queue);
    // The realm's user index is gone with its last queue, so dispatch stops at the realm.
    expect(registry.hasQueues('r')).toBe(false);
    await emit(0);
    const again = registry.create('r', 1, descriptor, 0);
    expect(registry.hasQueues('r')).toBe(true);
    await emit(1);
    expect(again.pending()).toEqual([{ type: 'wake_test', n: 1, id: 0 }]);
    registry.closeAll();
  });
});
