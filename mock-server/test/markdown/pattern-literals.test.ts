import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requiredCharacters } from '../../src/domain/markdown/pattern-literals.js';
import { compileRe2, Re2Program } from '../../src/domain/markdown/re2-engine.js';

describe('requiredCharacters', () => {
  it.each<[string, string[]]>([
    ['#(?P<id>[0-9]+)', ['#']],
    ['(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)', ['/', '#']],
    ['(?P<id>#[0-9]+)', ['#']],
    ['a|b', []],
    ['(?:ab|ac)d', ['a', 'd']],
    ['x?y', ['y']],
    ['x*y+z{0,3}w{2}v{1,}u*?', ['y', 'w', 'v']],
    ['(?:#x)?y', ['y']],
    ['\\#\\d\\.', ['#', '.']],
    ['[#]x[^y]', ['x']],
    ['[]#]x', ['x']],
    ['\\x{23}a\\x23b\\043c\\pLd\\p{Greek}e', ['a', 'b', 'c', 'd', 'e']],
    ['😀?x😀', ['x', '😀']],
    ['^a.b$', ['a', 'b']],
    // Where the reading would have to guess, it gives up.
    ['(?i)abc', []],
    ['a(?i:b)', []],
    ['\\Qa#\\E', []],
    ['[[:alpha:]#]x', []],
    ['a{,2}', []],
    ['{a}', []],
    ['\uD800x', []], // a lone surrogate: RE2 reads it joined with the `x` as one character
  ])('%j needs %j', (pattern, required) => {
    expect(requiredCharacters(pattern)).toEqual(required);
  });

  it('reads groups nested 100 deep, and gives up past that instead of overflowing the stack', () => {
    expect(requiredCharacters(`${'(?:'.repeat(100)}#x${')'.repeat(100)}`)).toEqual(['#', 'x']);
    expect(requiredCharacters(`${'('.repeat(2000)}#x${')'.repeat(2000)}`)).toEqual([]);
  });
});

const atom: fc.Arbitrary<string> = fc.constantFrom(
  'a',
  'b',
  '#',
  '/',
  '-',
  'é',
  '😀',
  '\\#',
  '\\.',
  '[ab]',
  '[^a]',
  '[#-/]',
  '.',
  '\\d',
  '\\w',
  '\\x{23}',
  '\\x61',
  '\\043',
  '^',
  '$',
  '\\b',
);
const quantifier = fc.constantFrom('', '', '', '?', '*', '+', '{0,2}', '{1,2}', '{2}', '*?', '+?', '??');
/** Alternatives of 1–4 pieces each; pieces of the outer level may be groups of an inner pattern. */
const patternOf = (piece: fc.Arbitrary<string>) =>
  fc
    .array(
      fc.array(piece, { minLength: 1, maxLength: 4 }).map((p) => p.join('')),
      { minLength: 1, maxLength: 3 },
    )
    .map((alts) => alts.join('|'));
const quantified = (a: fc.Arbitrary<string>) =>
  fc.tuple(a, quantifier).map(([x, q]) => (x === '^' || x === '$' || x === '\\b' ? x : x + q));
const inner = patternOf(quantified(atom));
const pattern = patternOf(
  quantified(
    fc.oneof(
      atom,
      atom,
      inner.map((p) => `(?:${p})`),
      inner.map((p) => `(?P<g>${p})`),
    ),
  ),
);
const text = fc.array(fc.constantFrom('a', 'b', '#', '/', '-', 'é', '😀', ' ', '1', '.', 'x'), { maxLength: 12 }).map((cs) => cs.join(''));

describe('requiredCharacters against RE2', () => {
  it('a text without a required character never matches', () => {
    let skipped = 0;
    let matched = 0;
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 8 }), (p, texts) => {
        const program = compileRe2(p);
        if (!(program instanceof Re2Program)) return;
        try {
          const required = requiredCharacters(p);
          for (const t of texts) {
            const found = program.exec(t, 0) !== null;
            if (found) matched++;
            if (required.every((c) => t.includes(c))) continue;
            skipped++;
            expect(found, `${p} on ${JSON.stringify(t)} (needs ${required.join(' ')})`).toBe(false);
          }
        } finally {
          program.free();
        }
      }),
      { numRuns: 1200 },
    );
    // Not vacuous: both texts the shortcut skips and texts RE2 matches came up.
    expect(skipped).toBeGreaterThan(250);
    expect(matched).toBeGreaterThan(250);
  });
});
