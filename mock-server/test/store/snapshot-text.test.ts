import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SnapshotText } from '../../src/store/snapshot-text.js';
import { applyChange, emptyState, type Change, type State } from '../../src/store/state.js';
import { testMessage, testRealm } from './fixtures/realm.js';

/** The snapshot text as the persistence writes it, for a state as it is now. */
async function textOf(text: SnapshotText, state: State, seq: number): Promise<string> {
  const pieces: Buffer[] = [];
  for await (const group of text.capture(state)) pieces.push(...group);
  return `${Buffer.concat(pieces).toString('utf8')},\n  "journal_seq": ${seq}\n}`;
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

  it('reuses kept chunks only while unchanged: after any random writes the text equals a fresh build', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ changes: fc.array(change, { maxLength: 12 }), readPieces: fc.option(fc.nat(3)) }), {
          minLength: 1,
          maxLength: 8,
        }),
        async (rounds) => {
          const state = emptyState();
          for (const id of ['a', 'b']) {
            state.realms[id] = testRealm(id);
            for (let m = 1; m <= 200; m++) state.realms[id]!.messages[String(m)] = testMessage(m, 300);
          }
          // Small chunks, so that these tables span many of them.
          const text = new SnapshotText({ chunkBytes: 2048 });
          let seq = 0;
          for (const { changes, readPieces } of rounds) {
            for (const c of changes) {
              const applied = c.table === null && c.row !== null ? { ...c, row: testRealm(c.realm) } : c;
              if (applied.table !== null && !state.realms[applied.realm]) continue; // the store never writes there
              applyChange(state, applied);
              text.changed([applied]);
              seq++;
            }
            if (readPieces !== null) {
              // A snapshot given up part way (a failed write): what it did not make is not kept.
              const pieces = text.capture(state);
              for (let i = 0; i < readPieces; i++) await pieces.next();
              continue;
            }
            expect(await textOf(text, state, seq)).toBe(lowdb(state, seq));
          }
          expect(await textOf(text, state, seq)).toBe(lowdb(state, seq));
        },
      ),
      { numRuns: 60, seed: 29 },
    );
  });

  it('finds the chunks of integer-keyed tables by range: after any random writes the text equals a fresh build', async () => {
    // Only integer keys, dense around the rows there are, in any order: edits, removals and additions before,
    // between and after the chunks, and keys equal to a chunk's first or last.
    const intChange = fc.record({
      table: fc.constantFrom('messages', 'drafts'),
      key: fc.integer({ min: 0, max: 260 }).map(String),
      row: fc.oneof(
        fc.constant(null),
        fc.integer({ min: 1, max: 300 }).map((id) => testMessage(id, 10)),
      ),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(intChange, { maxLength: 30 }), { minLength: 1, maxLength: 6 }), async (rounds) => {
        const state = emptyState();
        state.realms.a = testRealm('a');
        for (let m = 1; m <= 200; m += 1 + (m % 3)) state.realms.a.messages[String(m)] = testMessage(m, 30);
        const text = new SnapshotText({ chunkBytes: 1024 });
        let seq = 0;
        expect(await textOf(text, state, seq)).toBe(lowdb(state, seq));
        for (const changes of rounds) {
          for (const c of changes) {
            const applied = { realm: 'a', ...c } as Change;
            applyChange(state, applied);
            text.changed([applied]);
            seq++;
          }
          expect(await textOf(text, state, seq)).toBe(lowdb(state, seq));
        }
      }),
      { numRuns: 150, seed: 7 },
    );
  });

  it('makes again only the chunks whose rows changed, moved or are new', async () => {
    const state = emptyState();
    state.realms.a = testRealm('a');
    const messages = state.realms.a.messages;
    for (let id = 1; id <= 2000; id++) messages[String(id)] = testMessage(id, 100);
    const text = new SnapshotText({ chunkBytes: 4096 });
    const madeBy = async (changes: Change[]) => {
      for (const c of changes) applyChange(state, c);
      text.changed(changes);
      const before = text.stats.madeBytes;
      expect(await textOf(text, state, 1)).toBe(lowdb(state, 1));
      return text.stats.madeBytes - before;
    };
    const whole = await madeBy([]);
    expect(await madeBy([])).toBe(0);
    // A new row at the end, an edited row, a removed row: each re-makes about one chunk, not the table.
    for (const changes of [
      [{ realm: 'a', table: 'messages', key: '2001', row: testMessage(2001, 100) }],
      [{ realm: 'a', table: 'messages', key: '700', row: { ...testMessage(700, 100), content: 'edited' } }],
      [{ realm: 'a', table: 'messages', key: '1300', row: null }],
    ] as Change[][]) {
      const made = await madeBy(changes);
      expect(made).toBeGreaterThan(0);
      expect(made).toBeLessThan(whole / 20);
    }
    // A table replaced whole (a realm reset) is made again from scratch.
    const realm = testRealm('a');
    for (let id = 1; id <= 2000; id++) realm.messages[String(id)] = testMessage(id, 100);
    expect(await madeBy([{ realm: 'a', table: null, key: null, row: realm }])).toBeGreaterThanOrEqual(whole);
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
    const body: Buffer[] = [];
    for await (const group of pieces) body.push(...group);
    expect(`${Buffer.concat(body).toString('utf8')},\n  "journal_seq": 1\n}`).toBe(expected);
    // And the table changed meanwhile was not kept with its old text.
    expect(await textOf(text, state, 2)).toBe(lowdb(state, 2));
  });
});
