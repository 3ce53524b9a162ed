import { describe, expect, it } from 'vitest';
import { madeUpEvent } from '../helpers/made-up-event.js';
import { StateWriteFailed } from '../../src/store/errors.js';
import { memoryPersistence } from '../../src/store/persistence.js';
import { emptyRealmTables, type RealmRow, type SavedSnippetRow } from '../../src/store/state.js';
import { Store, type PendingEvent } from '../../src/store/store.js';
import { gatedStore } from '../helpers/gated-store.js';

const realmRow = { id: 'r', name: 'R' } as RealmRow;
const snippet = (id: number, title: string): SavedSnippetRow => ({ id, user_id: 1, title, content: 'c', date_created: 0 });

async function storeWithRealm() {
  const store = await Store.open(memoryPersistence());
  await store.replaceRealm('r', emptyRealmTables(realmRow));
  return store;
}

describe('Store transactions', () => {
  it('applies changes and hands out increasing IDs per sequence', async () => {
    const store = await storeWithRealm();
    const ids = await store.transact('r', (tx) => {
      const a = tx.nextId('saved_snippets');
      const b = tx.nextId('saved_snippets');
      tx.put('saved_snippets', a, snippet(a, 'one'));
      tx.put('saved_snippets', b, snippet(b, 'two'));
      return [a, b];
    });
    expect(ids).toEqual([1, 2]);
    expect(Object.keys(store.realm('r')!.saved_snippets)).toEqual(['1', '2']);
  });

  it('rolls back every change of a transaction that throws, counters included', async () => {
    const store = await storeWithRealm();
    await store.transact('r', (tx) => tx.put('saved_snippets', 1, snippet(1, 'kept')));
    const before = JSON.stringify(store.state);
    await expect(
      store.transact('r', (tx) => {
        tx.put('saved_snippets', 1, snippet(1, 'changed'));
        tx.delete('saved_snippets', 1);
        tx.put('saved_snippets', tx.nextId('saved_snippets'), snippet(9, 'new'));
        throw new Error('rule failed');
      }),
    ).rejects.toThrow('rule failed');
    expect(JSON.stringify(store.state)).toBe(before);
  });

  it('delivers events only after the change is durable, and none for a failed transaction', async () => {
    const { store, release } = await gatedStore();
    const delivered: PendingEvent[] = [];
    store.onCommit((_realm, events) => delivered.push(...events));
    const done = store.transact('r', (tx) => {
      tx.put('saved_snippets', 1, snippet(1, 'x'));
      tx.emit(madeUpEvent({ type: 'saved_snippets', op: 'add' }), [1]);
    });
    await Promise.resolve();
    expect(delivered).toEqual([]);
    release();
    await done;
    expect(delivered.map((e) => e.event.type)).toEqual(['saved_snippets']);
    await expect(
      store.transact('r', (tx) => {
        tx.emit(madeUpEvent({ type: 'x' }), [1]);
        throw new Error('no');
      }),
    ).rejects.toThrow();
    expect(delivered).toHaveLength(1);
  });

  it('stops accepting writes once a write failed (fail-stop), and reads wait on durability', async () => {
    const persistence = { ...memoryPersistence(), append: () => Promise.reject(new Error('disk full')) };
    const store = await Store.open(persistence);
    await expect(store.replaceRealm('r', emptyRealmTables(realmRow))).rejects.toBeInstanceOf(StateWriteFailed);
    await expect(store.durableThrough(store.writeMark)).rejects.toBeInstanceOf(StateWriteFailed);
    await expect(store.transact('r', () => 1)).rejects.toBeInstanceOf(StateWriteFailed);
    // The persistence failure stays attached for the log.
    await expect(store.durableThrough(store.writeMark)).rejects.toMatchObject({ cause: { message: 'disk full' } });
  });

  it('refuses asynchronous transaction functions, which could interleave', async () => {
    const store = await storeWithRealm();
    await expect(store.transact('r', async () => 1)).rejects.toThrow('synchronous');
  });

  it('durableThrough waits for the writes up to its mark, and only for those', async () => {
    // Each append stays pending until released, in call order, as a journal's group commits resolve.
    const pending: (() => void)[] = [];
    const persistence = { ...memoryPersistence(), append: () => new Promise<void>((resolve) => pending.push(resolve)) };
    const store = await Store.open(persistence);
    const created = store.replaceRealm('r', emptyRealmTables(realmRow));
    pending.shift()!();
    await created;
    const put = (id: number) => (tx: Parameters<Parameters<Store['transact']>[1]>[0]) =>
      tx.put('saved_snippets', id, snippet(id, `s${id}`));
    const first = store.transact('r', put(1));
    const firstMark = store.writeMark;
    const second = store.transact('r', put(2));
    const secondMark = store.writeMark;
    const settled: string[] = [];
    void store.durableThrough(firstMark).then(() => settled.push('first'));
    void store.durableThrough(secondMark).then(() => settled.push('second'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toEqual([]);
    pending.shift()!();
    await first;
    // The first write is durable: an answer built from it no longer waits for the second.
    await store.durableThrough(firstMark);
    expect(settled).toContain('first');
    expect(settled).not.toContain('second');
    pending.shift()!();
    await second;
    await store.durableThrough(secondMark);
    expect(settled).toEqual(['first', 'second']);
  });
});
