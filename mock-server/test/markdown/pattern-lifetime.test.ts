import { describe, expect, it } from 'vitest';
import { renderMessage, type MarkdownContext } from '../../src/domain/markdown.js';
import { linkifierPrograms, PatternCache, trackLinkifierPatterns } from '../../src/domain/markdown/linkifier-patterns.js';
import { compileRe2, PATTERN_TOO_LARGE, Re2Program } from '../../src/domain/markdown/re2-engine.js';
import type { LinkifierRow, RealmState } from '../../src/store/state.js';
import { TABLES } from './support.js';

/**
 * Compiled RE2 programs live in re2-wasm's fixed 16 MiB heap and are never collected by the
 * JavaScript garbage collector, so each has an owner that frees it. One wrapped linkifier program is
 * ~27 KiB: ~620 programs kept alive exhaust the heap, so the loops below would fail without freeing.
 */

const linkifier = (id: number, pattern: string, url_template: string): LinkifierRow => ({ id, pattern, url_template, order: id });

function render(linkifiers: LinkifierRow[], content: string): string {
  const tables = { ...TABLES, linkifiers: Object.fromEntries(linkifiers.map((l) => [String(l.id), l])) };
  const ctx: MarkdownContext = { tables, author: Object.values(TABLES.users).find((u) => u.is_active && !u.is_bot && !u.is_system_bot)! };
  return renderMessage(content, ctx).html;
}

// Compiling hundreds of programs is slow on a loaded 2-core machine; these tests count, they do not time.
const SLOW = 90_000;

describe('RE2 programs', () => {
  it('compiles, matches with named groups (code point indices) and frees', () => {
    const program = compileRe2('(?P<n>é+)x');
    expect(program).toBeInstanceOf(Re2Program);
    const re = program as Re2Program;
    expect(re.exec('ab😀éé x ééx', 0)).toEqual({ index: 8, groups: { n: 'éé' } });
    expect(re.exec('nothing here', 0)).toBeNull();
    re.free();
    expect(re.live).toBe(false);
    re.free(); // idempotent
  });

  it("answers RE2's own texts for refused patterns and reads (?<name>…) as (?P<name>…)", () => {
    expect(compileRe2('(foo')).toEqual({ error: 'missing ): (foo' });
    expect(compileRe2('a(?=b)')).toEqual({ error: 'invalid perl operator: (?=' });
    expect(compileRe2('(?P<a>x)(?P<a>y)')).toEqual({ error: 'Duplicate capture group name' });
    const named = compileRe2('[(?<no>)](?<id>\\d+)') as Re2Program;
    expect(named.exec('(7', 0)).toEqual({ index: 0, groups: { id: '7' } });
    named.free();
  });

  it('runs in linear time: (a+)+$ against a long input that does not match', () => {
    // A backtracking engine takes exponential time here (the test would time out); RE2 does not.
    const program = compileRe2('(a+)+$') as Re2Program;
    const text = `${'a'.repeat(50_000)}!`;
    expect(program.exec(text, 0)).toBeNull();
    expect(program.exec(`${text}aaa`, 0)?.index).toBe(50_001);
    program.free();
  });

  it(
    '1,000 compile/free cycles of distinct programs fit in the heap, where keeping them exhausts it',
    () => {
      // ~650 of these programs fill the heap (next test); freed, any number fit.
      for (let i = 0; i < 1_000; i++) {
        const program = compileRe2(`[a-q]{500}${i}`);
        expect(program).toBeInstanceOf(Re2Program);
        (program as Re2Program).free();
      }
      const last = compileRe2('#(?P<id>[0-9]+)') as Re2Program;
      expect(last.exec('see #12', 0)?.groups).toEqual({ id: '12' });
      last.free();
    },
    SLOW,
  );

  it(
    'an exhausted heap reloads the engine: the refusal says so, later patterns compile, old programs report stale',
    () => {
      const kept: Re2Program[] = [];
      let refused: { error: string; aborted?: true } | null = null;
      for (let i = 0; i < 5_000 && refused === null; i++) {
        const compiled = compileRe2(`[a-q]{500}${i}`);
        if (compiled instanceof Re2Program) kept.push(compiled);
        else refused = compiled;
      }
      expect(refused).toEqual({ error: PATTERN_TOO_LARGE, aborted: true });
      expect(kept.length).toBeGreaterThan(10);
      expect(kept.every((p) => !p.live)).toBe(true);
      const fresh = compileRe2('#(?P<id>[0-9]+)') as Re2Program;
      expect(fresh.exec('#5', 0)?.groups).toEqual({ id: '5' });
      fresh.free();
      for (const p of kept) p.free(); // nothing to free: their engine is gone
    },
    SLOW,
  );
});

describe('the linkifier program cache', () => {
  it('keeps at most `capacity` programs, freeing the least recently used', () => {
    const cache = new PatternCache(3);
    const a = cache.program('A(?P<id>\\d)')!;
    cache.program('B(?P<id>\\d)');
    cache.program('C(?P<id>\\d)');
    expect(cache.program('A(?P<id>\\d)')).toBe(a); // used again: now the most recent
    cache.program('D(?P<id>\\d)'); // evicts B, the least recently used
    expect(cache.size).toBe(3);
    expect(a.live).toBe(true);
    const b = cache.program('B(?P<id>\\d)')!;
    expect(b.live).toBe(true);
    expect(cache.size).toBe(3);
    cache.clear();
    expect(a.live).toBe(false);
    expect(b.live).toBe(false);
  });

  it('frees a program when its last holder releases it; the next use compiles it again', () => {
    const cache = new PatternCache(8);
    cache.hold('#(?P<id>\\d+)');
    cache.hold('#(?P<id>\\d+)');
    const first = cache.program('#(?P<id>\\d+)')!;
    cache.release('#(?P<id>\\d+)');
    expect(first.live).toBe(true); // one holder left
    cache.release('#(?P<id>\\d+)');
    expect(first.live).toBe(false);
    expect(cache.holders('#(?P<id>\\d+)')).toBe(0);
    const second = cache.program('#(?P<id>\\d+)')!;
    expect(second).not.toBe(first);
    expect(second.live).toBe(true);
    cache.clear();
  });

  it("keeps the required characters of at most `capacity` patterns, and drops a pattern's with its last holder", () => {
    const cache = new PatternCache(2);
    expect(cache.required('A#(?P<id>\\d)')).toEqual(['A', '#']);
    cache.required('B#(?P<id>\\d)');
    cache.required('C#(?P<id>\\d)');
    expect(cache.requiredSize).toBe(2);
    expect(cache.size).toBe(0); // reading a pattern compiles nothing
    cache.hold('C#(?P<id>\\d)');
    cache.release('C#(?P<id>\\d)');
    expect(cache.requiredSize).toBe(1);
    cache.clear();
    expect(cache.requiredSize).toBe(0);
  });

  it('remembers refused patterns without compiling them again', () => {
    const cache = new PatternCache(8);
    expect(cache.program('(unclosed')).toBeNull();
    expect(cache.size).toBe(1);
    cache.clear();
  });

  it('counts linkifier rows: an edit keeping the pattern keeps the program; a new pattern, a deletion or a removed realm frees it', () => {
    const put = (row: LinkifierRow | null, previous?: LinkifierRow) =>
      trackLinkifierPatterns({ realm: 'r', table: 'linkifiers', key: '1', row }, previous);
    const old = linkifier(1, 'OLD-(?P<id>\\d+)', 'https://x.example/{id}');
    put(old);
    const oldProgram = linkifierPrograms.program(old.pattern)!;
    put({ ...old, url_template: 'https://z.example/{id}' }, old);
    expect(oldProgram.live).toBe(true);
    const edited = { ...old, pattern: 'NEW-(?P<id>\\d+)' };
    put(edited, old);
    expect(oldProgram.live).toBe(false);
    const editedProgram = linkifierPrograms.program(edited.pattern)!;
    // Two realms hold the same pattern: removing one keeps it for the other.
    const realm = (row: LinkifierRow) => ({ linkifiers: { [String(row.id)]: row } }) as unknown as RealmState;
    trackLinkifierPatterns({ realm: 'other', table: null, key: null, row: realm(edited) }, undefined);
    trackLinkifierPatterns({ realm: 'other', table: null, key: null, row: null }, realm(edited));
    expect(editedProgram.live).toBe(true);
    put(null, edited);
    expect(editedProgram.live).toBe(false);
    expect(linkifierPrograms.holders(edited.pattern)).toBe(0);
  });

  it('rendering with linkifiers that come and go leaves no program behind', () => {
    const before = linkifierPrograms.size;
    for (let i = 0; i < 40; i++) {
      const row = linkifier(1, `T${i}-(?P<id>[0-9]+)`, 'https://t.example/{id}');
      trackLinkifierPatterns({ realm: 'r', table: 'linkifiers', key: '1', row }, undefined);
      expect(render([row], `see T${i}-7`)).toContain('href="https://t.example/7"');
      trackLinkifierPatterns({ realm: 'r', table: 'linkifiers', key: '1', row: null }, row);
    }
    expect(linkifierPrograms.size).toBe(before);
    expect(render([linkifier(1, 'NEW-(?P<id>[0-9]+)', 'https://n.example/{id}')], 'NEW-42')).toBe(
      '<p><a href="https://n.example/42" title="https://n.example/42">NEW-42</a></p>',
    );
  });
});
