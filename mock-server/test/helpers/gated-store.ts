import { memoryPersistence } from '../../src/store/persistence.js';
import { emptyRealmTables, type RealmRow } from '../../src/store/state.js';
import { Store } from '../../src/store/store.js';

/**
 * A memory store holding realm 'r' whose next write stays "not yet durable" until `release()`: for
 * tests of what happens while a change is applied but still being written.
 */
export async function gatedStore(): Promise<{ store: Store; release: () => void }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let appends = 0;
  const store = await Store.open({ ...memoryPersistence(), append: () => (++appends === 2 ? gate : Promise.resolve()) });
  await store.replaceRealm('r', emptyRealmTables({ id: 'r' } as RealmRow));
  return { store, release };
}
