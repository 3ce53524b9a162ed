import { describe, expect, it } from 'vitest';
import { madeUpEvent } from '../helpers/made-up-event.js';
import { Clock } from '../../src/clock/clock.js';
import { dispatch } from '../../src/events/dispatcher.js';
import { QueueRegistry } from '../../src/events/registry.js';
import { gatedStore } from '../helpers/gated-store.js';
import { queueDescriptor } from '../helpers/queue-descriptor.js';

const descriptor = queueDescriptor();

describe('a register during a write that is not yet durable', () => {
  it('does not queue the event of a change its snapshot already shows', async () => {
    const { store, release } = await gatedStore();
    const registry = new QueueRegistry(new Clock('frozen', 0));
    store.onCommit((realmId, events, seq) => dispatch(registry, store.realm(realmId), realmId, events, seq));

    const before = registry.create('r', 1, descriptor, store.appliedSeq);
    const writing = store.transact('r', (tx) => {
      tx.put('saved_snippets', 1, { id: 1, user_id: 1, title: 't', content: 'c', date_created: 0 });
      tx.emit(madeUpEvent({ type: 'saved_snippets', op: 'add' }), [1]);
    });
    // Register now: the live state (so the snapshot) already holds the snippet, the write is pending.
    expect(store.realm('r')!.saved_snippets['1']).toBeDefined();
    const during = registry.create('r', 1, descriptor, store.appliedSeq);
    release();
    await writing;
    expect(before.events.map((e) => e.type)).toEqual(['saved_snippets']);
    expect(during.events).toEqual([]);
  });

  it('keeps commit order for an event-only transaction behind a pending write', async () => {
    const { store, release } = await gatedStore();
    const order: string[] = [];
    store.onCommit((_realm, events) => order.push(...events.map((e) => e.event.type)));
    const first = store.transact('r', (tx) => {
      tx.put('saved_snippets', 1, { id: 1, user_id: 1, title: 't', content: 'c', date_created: 0 });
      tx.emit(madeUpEvent({ type: 'first' }), [1]);
    });
    const second = store.transact('r', (tx) => tx.emit(madeUpEvent({ type: 'second' }), [1]));
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual([]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
  });
});
