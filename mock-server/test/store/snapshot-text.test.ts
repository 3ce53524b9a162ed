import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SnapshotText } from '../../src/store/snapshot-text.js';
import { applyChange, emptyState, type Change, type State } from '../../src/store/state.js';
import { testMessage, testRealm } from './fixtures/realm.js';

/** The snapshot text as the persistence writes it, for a state as it is now. */
async function textOf(text: SnapshotText, state: State, seq: number): Promise<string> {
  let body = '';
  for await (const piece of text.capture(state)) {
    // Each piece is written on its own as UTF-8: a piece ending in half a surrogate pair would be damaged.
    expect(Buffer.from(piece, 'utf8').toString('utf8')).toBe(piece);
    body += piece;
  }
  return `${body},\n  "journal_seq": ${seq}\n}`;
}

/** lowdb's layout: what the snapshot must equal byte for byte. */
const lowdb = (state: State, seq: number) => JSON.stringify({ ...state, journal_seq: seq }, null, 2);

// Keys of every kind a table holds: integer IDs (ordered numerically by JS), composite and named keys
// (insertion order), and contents with multi-byte characters and surrogate pairs (pieces are cut by
// UTF-16 length, so a cut must never split a pair).
const key = fc.oneof(
  fc.integer({ min: 0, max: 3000 }).map(String),
  fc.tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 9 })).map(([a, b]) => `${a}:${b}`),
  fc.constantFrom('counters', 'realm', 'x'),
);
const content = fc.oneof(fc.string(), fc.constantFrom('😀 émoji \u2028 "quoted"\n', '𝌆'.repeat(600), 'a'.repeat(5000)));
const change: fc.Arbitrary<Change> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      realm: fc.constantFrom('a', 'b'),
      table: fc.constantFrom('messages', 'drafts', 'user_topics'),
      key,
      row: fc.oneof(
        fc.constant(null),
        fc.tuple(fc.integer({ min: 1, max: 3000 }), content).map(([id, c]) => ({ ...testMessage(id, 10), content: c })),
      ),
    }) as fc.Arbitrary<Change>,
  },
  {
    weight: 1,
    arbitrary: fc.record({
      realm: fc.constantFrom('a', 'b', 'c'),
      table: fc.constant(null),
      key: fc.constant(null),
      row: fc.oneof(fc.constant(null), fc.constant('new')),
    }) as fc.Arbitrary<Change>,
  },
);

describe('snapshot text', () => {
  it('is lowdb’s pretty JSON, byte for byte, for empty and large states', async () => {
    const state = emptyState();
    expect(await textOf(new SnapshotText(), state, 0)).toBe(lowdb(state, 0));
    state.realms.a = testRealm('a');
    for (let id = 1; id <= 5000; id++) state.realms.a.messages[String(id)] = { ...testMessage(id, 10), content: '𝌆'.repeat(id % 300) };
    state.realms.empty = {} as never;
    const text = new SnapshotText();
    expect(await textOf(text, state, 7)).toBe(lowdb(state, 7));
    // Again, from the kept text (cut into pieces by length, wherever the surrogate pairs fall).
    expect(await textOf(text, state, 8)).toBe(lowdb(state, 8));
    // A kept table that is one long run of surrogate pairs, behind realm IDs of both parities: one of the two
    // puts a cut between the halves of a pair.
    for (const id of ['p', 'pq']) {
      const pairs = emptyState();
      pairs.realms[id] = testRealm(id);
      pairs.realms[id].messages['1'] = { ...testMessage(1, 10), content: '𝌆'.repeat(600_000) };
      const kept = new SnapshotText();
      await textOf(kept, pairs, 1);
      expect(await textOf(kept, pairs, 2)).toBe(lowdb(pairs, 2));
    }
  });

  it('reuses kept tables only while unchanged: after any random writes the text equals a fresh build', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(change, { maxLength: 12 }), { minLength: 1, maxLength: 8 }), async (rounds) => {
        const state = emptyState();
        for (const id of ['a', 'b']) {
          state.realms[id] = testRealm(id);
          for (let m = 1; m <= 200; m++) state.realms[id]!.messages[String(m)] = testMessage(m, 300);
        }
        const text = new SnapshotText();
        let seq = 0;
        for (const changes of rounds) {
          for (const c of changes) {
            const applied = c.table === null && c.row !== null ? { ...c, row: testRealm(c.realm) } : c;
            if (applied.table !== null && !state.realms[applied.realm]) continue; // the store never writes there
            applyChange(state, applied);
            text.changed([applied]);
            seq++;
          }
          expect(await textOf(text, state, seq)).toBe(lowdb(state, seq));
        }
      }),
      { numRuns: 40, seed: 29 },
    );
  });

  it('keeps the state as captured while the live tables change before the text is made', async () => {
    const state = emptyState();
    state.realms.a = testRealm('a');
    for (let id = 1; id <= 3000; id++) state.realms.a.messages[String(id)] = testMessage(id, 400);
    const text = new SnapshotText();
    const expected = lowdb(state, 1);
    const pieces = text.capture(state);
    // Rows are replaced whole, never edited in place, so changing the live table after the capture
    // must not show in the captured text.
    const changes: Change[] = [
      { realm: 'a', table: 'messages', key: '1', row: null },
      { realm: 'a', table: 'messages', key: '5000', row: testMessage(5000) },
      { realm: 'a', table: 'drafts', key: '1', row: { id: 1 } },
    ];
    for (const c of changes) applyChange(state, c);
    text.changed(changes);
    let body = '';
    for await (const piece of pieces) body += piece;
    expect(`${body},\n  "journal_seq": 1\n}`).toBe(expected);
    // And the table changed meanwhile was not kept with its old text.
    expect(await textOf(text, state, 2)).toBe(lowdb(state, 2));
  });
});
