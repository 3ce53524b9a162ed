import { describe, expect, it } from 'vitest';
import { memoryPersistence } from '../../src/store/persistence.js';
import { shareEmptyLists, shareFlags } from '../../src/store/shared-values.js';
import { emptyRealmTables, type MessageRow, type RealmRow, type UserMessagesRow } from '../../src/store/state.js';
import { Store } from '../../src/store/store.js';
import { testMessage } from './fixtures/realm.js';

/** Memory per message: equal immutable parts of rows are stored once, frozen. */

const receipt = (id: number, flags: Record<string, string[]>): UserMessagesRow => ({ message_id: id, flags });
const message = (id: number): MessageRow => testMessage(id, 1);

describe('shared row values', () => {
  it('gives receipts with equal flags one frozen flag map, and equal lists one frozen list', () => {
    const a = receipt(1, { '1': ['read'], '2': [] });
    const b = receipt(2, { '1': ['read'], '2': [] });
    const c = receipt(3, { '1': ['read'], '2': ['read'] });
    for (const row of [a, b, c]) shareFlags(row);
    expect(a.flags).toBe(b.flags);
    expect(a.flags).not.toBe(c.flags);
    expect(c.flags['1']).toBe(a.flags['1']);
    expect(c.flags).toEqual({ '1': ['read'], '2': ['read'] });
    expect(Object.isFrozen(a.flags) && Object.isFrozen(a.flags['2'])).toBe(true);
    expect(() => a.flags['1']!.push('starred')).toThrow(TypeError);
  });

  it('gives messages one shared empty list for history, reactions and submessages, and keeps non-empty ones', () => {
    const a = message(1);
    const b = {
      ...message(2),
      reactions: [{ emoji_name: 'smile', emoji_code: '1f642', reaction_type: 'unicode_emoji' as const, user_id: 1 }],
    };
    shareEmptyLists(a);
    shareEmptyLists(b);
    expect(a.reactions).toBe(a.edit_history);
    expect(b.edit_history).toBe(a.submessages);
    expect(b.reactions).toHaveLength(1);
    expect(Object.isFrozen(b.reactions)).toBe(false);
  });

  it('shares the values of rows written through a transaction and of a realm entering the store', async () => {
    const store = await Store.open(memoryPersistence());
    const realm = emptyRealmTables({ id: 'r' } as RealmRow);
    realm.user_messages['1'] = receipt(1, { '5': [] });
    await store.replaceRealm('r', realm);
    await store.transact('r', (tx) => {
      tx.put('messages', 2, message(2));
      tx.put('user_messages', 2, receipt(2, { '5': [] }));
    });
    const tables = store.realm('r')!;
    expect(tables.user_messages['2']!.flags).toBe(tables.user_messages['1']!.flags);
    expect(Object.isFrozen(tables.messages['2']!.reactions)).toBe(true);
    // What is stored and journaled reads the same as what was written.
    expect(JSON.parse(JSON.stringify(tables.user_messages['2']))).toEqual({ message_id: 2, flags: { '5': [] } });
    await store.close();
  });
});
