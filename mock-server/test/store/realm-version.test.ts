import { describe, expect, it } from 'vitest';
import { memoryPersistence } from '../../src/store/persistence.js';
import { emptyRealmTables, type RealmRow } from '../../src/store/state.js';
import { Store } from '../../src/store/store.js';

/**
 * The realm version the answer cache keys on (store.ts `versionOf`): it moves with every change to its realm,
 * rolled-back ones included, never with another realm's, and is never reused, also across a realm's removal and
 * re-creation.
 */
async function storeWith(...realmIds: string[]): Promise<Store> {
  const store = await Store.open(memoryPersistence());
  for (const id of realmIds) await store.replaceRealm(id, emptyRealmTables({ id } as RealmRow));
  return store;
}

const putCounter = (store: Store, realmId: string, key: string) =>
  store.transact(realmId, (tx) => tx.put('counters', 'counters', { ...tx.tables.counters.counters, [key]: 1 } as never));

describe('realm version', () => {
  it('moves with each change to its realm and not with changes to another', async () => {
    const store = await storeWith('a', 'b');
    const a = store.versionOf('a');
    const b = store.versionOf('b');
    await putCounter(store, 'a', 'x');
    expect(store.versionOf('a')).toBeGreaterThan(a);
    expect(store.versionOf('b')).toBe(b);
  });

  it('moves with a transaction that throws (its undo is a change too) and not with one that changes nothing', async () => {
    const store = await storeWith('a');
    const before = store.versionOf('a');
    await store.transact('a', () => undefined);
    expect(store.versionOf('a')).toBe(before);
    await expect(
      store.transact('a', (tx) => {
        tx.put('counters', 'counters', { y: 1 } as never);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(store.versionOf('a')).toBeGreaterThan(before);
  });

  it('is never reused: a realm replaced, or removed and created again, takes a number it never had', async () => {
    const store = await storeWith('a');
    const seen = new Set([store.versionOf('a')]);
    await putCounter(store, 'a', 'x');
    seen.add(store.versionOf('a'));
    await store.replaceRealm('a', emptyRealmTables({ id: 'a' } as RealmRow));
    expect(seen.has(store.versionOf('a'))).toBe(false);
    seen.add(store.versionOf('a'));
    await store.replaceRealm('a', null);
    await store.replaceRealm('a', emptyRealmTables({ id: 'a' } as RealmRow));
    expect(seen.has(store.versionOf('a'))).toBe(false);
  });
});
