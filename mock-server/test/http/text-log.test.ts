import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TextLog } from '../../src/http/text-log.js';

/**
 * The text log (http/text-log.ts) that keeps the rings' texts outside the heap: every text reads back as UTF-8
 * made it (so as it went on the wire), whichever page boundaries it crosses, until a trim passes it; a trim frees
 * the pages before the oldest text kept, and no more.
 */
describe('the text log', () => {
  // Pages of 16 bytes: most texts cross one or more page ends, and lengths meet the ends at every offset.
  const PAGE = 16;
  const texts = fc.array(fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\ud800', '"', '\n'), maxLength: 40 }), {
    maxLength: 30,
  });

  it('reads back every text kept, as UTF-8 encodes it, across page ends', () => {
    fc.assert(
      fc.property(texts, fc.nat(), (all, keepFrom) => {
        const log = new TextLog(PAGE);
        const positions = all.map((t) => log.append(t));
        const oldest = all.length === 0 ? 0 : keepFrom % all.length;
        if (all.length > 0) log.trim(positions[oldest]!);
        all.forEach((text, i) => {
          if (i >= oldest) expect(log.read(positions[i]!)).toBe(Buffer.from(text, 'utf8').toString('utf8'));
        });
      }),
      { numRuns: 500 },
    );
  });

  it('keeps every text of a ring whose oldest is trimmed after each append, through pages freed and taken again', () => {
    fc.assert(
      fc.property(texts, fc.integer({ min: 1, max: 6 }), (all, kept) => {
        const log = new TextLog(PAGE);
        const ring: [number, string][] = [];
        for (const text of all) {
          ring.push([log.append(text), text]);
          if (ring.length > kept) ring.shift();
          log.trim(ring[0]![0]);
          for (const [position, was] of ring) expect(log.read(position)).toBe(Buffer.from(was, 'utf8').toString('utf8'));
          // The pages hold the ring's span, the page being written, and at most four spares.
          const span = log.end - ring[0]![0];
          expect(log.bytes).toBeLessThanOrEqual(span + (2 + 4) * PAGE);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('frees the pages wholly before the oldest text kept, keeping at most a few for reuse', () => {
    const log = new TextLog(PAGE);
    const positions = Array.from({ length: 100 }, (_, i) => log.append(`text ${i} `.repeat(3)));
    // 100 texts of 4 + 21–24 bytes: about 170 pages.
    expect(log.bytes).toBeGreaterThan(150 * PAGE);
    log.trim(positions[90]!);
    expect(log.read(positions[0]!)).toBeNull();
    expect(log.read(positions[89]!)).toBeNull();
    expect(log.read(positions[90]!)).toBe('text 90 text 90 text 90 ');
    expect(log.read(positions[99]!)).toBe('text 99 text 99 text 99 ');
    // The last ten texts span 17 or 18 pages; four freed ones are kept as spares.
    expect(log.bytes).toBeLessThanOrEqual((18 + 4) * PAGE);
    // A spare page is written again: what it held before is not read through an old position.
    const again = log.append('x'.repeat(200));
    expect(log.read(again)).toBe('x'.repeat(200));
    expect(log.read(positions[0]!)).toBeNull();
  });

  it('reads nothing at a position it never gave', () => {
    const log = new TextLog(PAGE);
    expect(log.read(0)).toBeNull();
    const at = log.append('one');
    expect(log.read(at + 100)).toBeNull();
  });
});
