import { wellFormed } from './escape.js';

/**
 * Characters every match of a linkifier pattern contains, read off the pattern's text: a search of a text
 * that lacks one of them cannot match, so the renderer skips the RE2 call (each costs microseconds through
 * WebAssembly, and most texts match no linkifier: `#(?P<id>[0-9]+)` needs a `#`).
 *
 * The reading is conservative: it may miss a required character, never invent one. A literal counts where
 * it is outside any class, not under a repetition that allows zero (`?`, `*`, `{0,…}`), and in every
 * alternative of its level (alternatives intersect). Anything the reading does not follow exactly gives up
 * with no characters for the whole pattern: flags (`(?i)` makes letters match either case), `\Q…\E`,
 * POSIX classes inside brackets, a `{` that is not a repetition, a lone surrogate, groups nested more than
 * 100 deep. Escaped letters and digits (`\d`, `\pL`, `\x{41}`, `\101`, `\n`) are never counted, only escaped
 * punctuation (`\#`).
 */

class GiveUp extends Error {}

/** Code points of `pattern` every match contains (none when the reading gives up). */
export function requiredCharacters(pattern: string): string[] {
  // A lone surrogate reaches RE2 joined with what follows it into another character: no literal can be trusted.
  if (wellFormed(pattern) !== pattern) return [];
  try {
    const reader = new Reader(pattern);
    const required = reader.alternation();
    if (reader.at < pattern.length) throw new GiveUp(); // an unbalanced `)`: RE2 refuses it anyway
    return [...required];
  } catch (error) {
    if (error instanceof GiveUp) return [];
    throw error;
  }
}

const REPEAT = /^\{(\d+)(?:,\d*)?\}/;
/** Groups nested deeper give up: the reading recurses once per level, and RE2 accepts thousands of levels. */
const MAX_DEPTH = 100;

class Reader {
  at = 0;
  #depth = 0;
  constructor(private readonly s: string) {}

  /** alternatives separated by `|` up to `)` or the end: what all of them require. */
  alternation(): Set<string> {
    let common = this.sequence();
    while (this.s[this.at] === '|') {
      this.at++;
      const next = this.sequence();
      common = new Set([...common].filter((c) => next.has(c)));
    }
    return common;
  }

  /** Atoms, each with its repetitions, up to `|`, `)` or the end. */
  sequence(): Set<string> {
    const required = new Set<string>();
    while (this.at < this.s.length && this.s[this.at] !== '|' && this.s[this.at] !== ')') {
      const atom = this.atom();
      if (this.repeatedAtLeastOnce()) for (const c of atom) required.add(c);
    }
    return required;
  }

  /** One atom: what it requires if it occurs once. */
  atom(): Set<string> {
    const s = this.s;
    const c = String.fromCodePoint(s.codePointAt(this.at)!);
    if (c === '(') return this.group();
    if (c === '[') {
      this.skipClass();
      return new Set();
    }
    if (c === '\\') return this.escape();
    if (c === '{') throw new GiveUp(); // see repeatedAtLeastOnce
    this.at += c.length;
    if (c === '.' || c === '^' || c === '$') return new Set();
    return new Set([c]);
  }

  group(): Set<string> {
    const s = this.s;
    if (++this.#depth > MAX_DEPTH) throw new GiveUp();
    this.at++;
    if (s[this.at] === '?') {
      const named = /^\?P?<[A-Za-z_][A-Za-z0-9_]*>/.exec(s.slice(this.at, this.at + 200));
      if (named) this.at += named[0].length;
      else if (s[this.at + 1] === ':') this.at += 2;
      else throw new GiveUp(); // flags, lookarounds (RE2 refuses those), anything else
    }
    const inner = this.alternation();
    if (s[this.at] !== ')') throw new GiveUp();
    this.at++;
    this.#depth--;
    return inner;
  }

  /** A bracketed class, `[]…]` and `[^]…]` included; POSIX classes inside give up. */
  skipClass(): void {
    const s = this.s;
    this.at++;
    if (s[this.at] === '^') this.at++;
    if (s[this.at] === ']') this.at++;
    while (this.at < s.length && s[this.at] !== ']') {
      if (s[this.at] === '\\') this.at++;
      else if (s[this.at] === '[' && s[this.at + 1] === ':') throw new GiveUp();
      this.at++;
    }
    if (this.at >= s.length) throw new GiveUp();
    this.at++;
  }

  escape(): Set<string> {
    const s = this.s;
    const next = s[this.at + 1];
    if (next === undefined) throw new GiveUp();
    if (next === 'Q') throw new GiveUp();
    if (/[A-Za-z0-9]/.test(next)) {
      this.at += 2;
      // Arguments: `\p{Greek}`, `\pL`, `\x{41}`, `\x41`, octal `\101`. Skipping more than the escape
      // takes only ever drops literals, which is safe.
      if (next === 'p' || next === 'P' || next === 'x') {
        if (s[this.at] === '{') {
          const end = s.indexOf('}', this.at);
          if (end < 0) throw new GiveUp();
          this.at = end + 1;
        } else this.at += next === 'x' ? 2 : 1;
      } else if (/[0-7]/.test(next)) while (/[0-7]/.test(s[this.at] ?? '')) this.at++;
      return new Set();
    }
    const c = String.fromCodePoint(s.codePointAt(this.at + 1)!);
    this.at += 1 + c.length;
    return new Set([c]);
  }

  /** Consumes the repetitions after an atom; false when they allow it to occur zero times. */
  repeatedAtLeastOnce(): boolean {
    const s = this.s;
    let once = true;
    for (;;) {
      const c = s[this.at];
      if (c === '*' || c === '?') once = false;
      else if (c === '+') {
        // at least once
      } else if (c === '{') {
        const m = REPEAT.exec(s.slice(this.at, this.at + 40));
        if (!m) throw new GiveUp(); // a literal `{` (or `{,n}`, which RE2 versions read differently)
        if (Number(m[1]) === 0) once = false;
        this.at += m[0].length;
        if (s[this.at] === '?') this.at++; // non-greedy
        continue;
      } else return once;
      this.at++;
      if (s[this.at] === '?') this.at++; // non-greedy
    }
  }
}
