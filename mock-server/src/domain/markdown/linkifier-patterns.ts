import type { Change, LinkifierRow, RealmState } from '../../store/state.js';
import { templateVariables } from './url-templates.js';
import { requiredCharacters } from './pattern-literals.js';
import { compileRe2, PATTERN_TOO_LARGE, Re2Program } from './re2-engine.js';

/**
 * Linkifier patterns (spec §2.11, reference §4.18): validation with the reference server's texts, and
 * the compiled programs the renderer runs (linkifiers.ts), each with an owner that frees it.
 *
 * The renderer wraps a pattern in boundary groups (the reference server's rule): a match counts only
 * where it starts at the beginning of the text or after whitespace, a no-break space or one of `'"(,:<`,
 * and ends at the end of the text or before a character that is neither a letter nor a digit.
 */

/**
 * Longest pattern compiled. The reference server sets no limit, but RE2's WebAssembly build has a fixed
 * heap, so longer patterns get RE2's own "too large" error without being compiled. No real linkifier
 * comes near this length.
 */
export const MAX_PATTERN_LENGTH = 10_000;

export const BEFORE = '__tc_before';
export const MATCH = '__tc_match';
export const AFTER = '__tc_after';

export function wrappedSource(pattern: string): string {
  return `(?P<${BEFORE}>^|\\s|\\x{a0}|['"(,:<])(?P<${MATCH}>${pattern})(?P<${AFTER}>$|[^\\pL\\pN])`;
}

/**
 * RE2's error text for a pattern (`missing ): (foo`), or null when it compiles: the pattern alone, then
 * as the renderer runs it (wrapped in the boundary groups), so that a linkifier that is accepted always
 * applies (a pattern reusing the wrapper's group names is refused here rather than skipped silently at
 * every render). The wrapped program stays in the cache for the renders that follow.
 */
function compileError(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return PATTERN_TOO_LARGE;
  let alone = compileRe2(pattern);
  if (!(alone instanceof Re2Program) && alone.aborted) alone = compileRe2(pattern);
  if (!(alone instanceof Re2Program)) return alone.error;
  alone.free();
  if (linkifierPrograms.program(pattern) !== null) return null;
  const wrapped = compileRe2(wrappedSource(pattern));
  if (wrapped instanceof Re2Program) {
    wrapped.free(); // compiled now but not before: the heap was full then
    return null;
  }
  return wrapped.error;
}

/** Named groups of a pattern, `(?P<name>…)` or `(?<name>…)`, skipping escapes and character classes. */
export function patternGroups(pattern: string): string[] {
  const names: string[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
    } else if (c === '(') {
      const m = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(pattern.slice(i, i + 200));
      if (m) names.push(m[1]!);
    }
  }
  return names;
}

export interface LinkifierError {
  /** The field at fault; `__all__` (Django's key for errors of the whole object) for group mismatches. */
  field: 'pattern' | 'url_template' | '__all__';
  message: string;
}

/**
 * Validation of a new or edited linkifier (reference §4.18), in the reference server's order: the
 * pattern (blank, then RE2's verdict), the template (blank, then RFC 6570), then the groups: a template
 * variable missing from the pattern first, then a pattern group missing from the template, each naming
 * the alphabetically first such group. (The reference reports the group errors for the whole object,
 * not a field; they are attributed here to the field that names the missing group's absence.)
 */
export function checkLinkifier(pattern: string, urlTemplate: string): LinkifierError | null {
  if (pattern === '') return { field: 'pattern', message: 'This field cannot be blank.' };
  const error = compileError(pattern);
  if (error !== null) return { field: 'pattern', message: `Bad regular expression: ${error}` };
  if (urlTemplate === '') return { field: 'url_template', message: 'This field cannot be blank.' };
  const variables = templateVariables(urlTemplate);
  if (variables === null) return { field: 'url_template', message: 'Invalid URL template.' };
  const groups = patternGroups(pattern);
  const [notInPattern] = variables.filter((v) => !groups.includes(v)).sort();
  if (notInPattern !== undefined)
    return { field: '__all__', message: `Group '${notInPattern}' in URL template is not present in linkifier pattern.` };
  const [notInTemplate] = groups.filter((g) => !variables.includes(g)).sort();
  if (notInTemplate !== undefined)
    return { field: '__all__', message: `Group '${notInTemplate}' in linkifier pattern is not present in URL template.` };
  return null;
}

/**
 * The wrapped programs the renderer runs, by pattern, and who holds them. One wrapped program costs
 * ~27 KiB of RE2's fixed heap and ~50 ms to compile (the Unicode classes of the boundary groups), so
 * realms share the program of an equal pattern (every demo realm has the same linkifiers) and keep it
 * while any linkifier row has that pattern: `hold`/`release` count those rows, and the last release frees
 * the program at once (a linkifier edited to another pattern or deleted, a realm replaced or removed;
 * `trackLinkifierPatterns` is the store watcher that counts). Besides, at most `capacity` programs stay
 * compiled (least recently used evicted first; a held one is compiled again on its next use), which
 * bounds the heap however many realms and patterns there are. One cache per process, because the heap
 * it guards is one per process.
 */
export class PatternCache {
  /** null: a pattern RE2 refuses (such a linkifier is skipped). Map order = least recently used first. */
  readonly #programs = new Map<string, Re2Program | null>();
  /** Linkifier rows with each pattern, in every realm of every store of the process. */
  readonly #holders = new Map<string, number>();
  /** Characters every match of a pattern contains (pattern-literals.ts), by pattern. */
  readonly #required = new Map<string, readonly string[]>();

  constructor(readonly capacity: number) {}

  /** Compiled programs (and refusals) in the cache. */
  get size(): number {
    return this.#programs.size;
  }

  /** Patterns whose required characters are kept. */
  get requiredSize(): number {
    return this.#required.size;
  }

  holders(pattern: string): number {
    return this.#holders.get(pattern) ?? 0;
  }

  program(pattern: string): Re2Program | null {
    const cached = this.#programs.get(pattern);
    this.#programs.delete(pattern);
    if (cached !== undefined && (cached === null || cached.live)) {
      this.#programs.set(pattern, cached);
      return cached;
    }
    cached?.free(); // a stale program of a replaced engine
    let compiled = pattern.length > MAX_PATTERN_LENGTH ? null : compileRe2(wrappedSource(pattern));
    if (compiled && 'aborted' in compiled) compiled = compileRe2(wrappedSource(pattern)); // on the fresh engine
    const program = compiled instanceof Re2Program ? compiled : null;
    this.#programs.set(pattern, program);
    for (const [oldest, evicted] of this.#programs) {
      if (this.#programs.size <= this.capacity) break;
      evicted?.free();
      this.#programs.delete(oldest);
    }
    return program;
  }

  /**
   * Characters every match of `pattern` contains: a text without one of them needs no search (so the program
   * may never be compiled). Kept for as many patterns as programs, the first kept dropped first.
   */
  required(pattern: string): readonly string[] {
    let required = this.#required.get(pattern);
    if (required !== undefined) return required;
    required = requiredCharacters(pattern);
    this.#required.set(pattern, required);
    for (const oldest of this.#required.keys()) {
      if (this.#required.size <= this.capacity) break;
      this.#required.delete(oldest);
    }
    return required;
  }

  hold(pattern: string): void {
    this.#holders.set(pattern, this.holders(pattern) + 1);
  }

  /** One holder fewer; the last one frees the program. */
  release(pattern: string): void {
    const left = this.holders(pattern) - 1;
    if (left > 0) {
      this.#holders.set(pattern, left);
      return;
    }
    this.#holders.delete(pattern);
    this.#programs.get(pattern)?.free();
    this.#programs.delete(pattern);
    this.#required.delete(pattern);
  }

  clear(): void {
    for (const program of this.#programs.values()) program?.free();
    this.#programs.clear();
    this.#required.clear();
  }
}

export const LINKIFIER_PROGRAM_CAPACITY = 128;
export const linkifierPrograms = new PatternCache(LINKIFIER_PROGRAM_CAPACITY);

/** A realm's linkifier rows start (loaded from a state file) or stop (the server closes) holding their patterns. */
export function holdRealmPatterns(tables: Pick<RealmState, 'linkifiers'>): void {
  for (const row of Object.values(tables.linkifiers)) linkifierPrograms.hold(row.pattern);
}

export function releaseRealmPatterns(tables: Pick<RealmState, 'linkifiers'>): void {
  for (const row of Object.values(tables.linkifiers)) linkifierPrograms.release(row.pattern);
}

/**
 * Store watcher (wired in app.ts; it sees undone changes too, so counts stay exact): a linkifier row
 * put or deleted, a realm created, replaced or removed. New holders are counted before old ones are
 * released, so an edit that keeps the pattern never frees its program.
 */
export function trackLinkifierPatterns(change: Change, previous: unknown): void {
  if (change.table === 'linkifiers') {
    if (change.row) linkifierPrograms.hold((change.row as LinkifierRow).pattern);
    if (previous) linkifierPrograms.release((previous as LinkifierRow).pattern);
  } else if (change.table === null) {
    if (change.row) holdRealmPatterns(change.row as RealmState);
    if (previous) releaseRealmPatterns(previous as RealmState);
  }
}
