import { createRequire } from 'node:module';

/**
 * RE2 programs with an explicit lifetime, so a mock left running does not run out of RE2 memory. Linkifier patterns are user input, so they run on
 * RE2 as on the reference server: linear time whatever the pattern (`(a+)+$` cannot backtrack).
 *
 * re2-wasm compiles into one WebAssembly heap of a fixed 16 MiB per process, and its programs are C++
 * objects that the JavaScript garbage collector never frees: each must be `delete()`d, and its `RE2`
 * class gives no way to do that (nor frees the program when a pattern is refused). So this module uses
 * the compiled class (`WrappedRE2`) directly and every program has an owner that frees it (the pattern
 * cache of linkifier-patterns.ts). When the heap is exhausted anyway, WebAssembly aborts and the module
 * is dead for good; the engine then loads a fresh instance, and programs of the dead one report
 * themselves stale so their owner drops them, instead of every later render failing.
 */

interface CppVector<V> {
  get(index: number): V;
  size(): number;
  delete(): void;
}

interface CppMap<K, V> {
  keys(): CppVector<K>;
  get(key: K): V;
  delete(): void;
}

interface WrappedRE2 {
  ok(): boolean;
  error(): string;
  match(input: string, start: number, captures: boolean): { match: string; index: number; groups: (string | undefined)[] };
  capturingGroupNames(): CppMap<number, string>;
  delete(): void;
}

interface Engine {
  WrappedRE2: new (pattern: string, ignoreCase: boolean, multiline: boolean, dotAll: boolean) => WrappedRE2;
}

const require = createRequire(import.meta.url);
const MODULE = 're2-wasm/build/wasm/re2.js';
let engine: Engine | null = null;
/** Incremented whenever a fresh engine replaces an aborted one; programs remember theirs. */
let generation = 0;

function current(): Engine {
  engine ??= require(MODULE) as Engine;
  return engine;
}

/** After a WebAssembly abort the instance answers nothing again: the next use loads a new one. */
function discardEngine(): void {
  delete require.cache[require.resolve(MODULE)];
  engine = null;
  generation++;
}

const isAbort = (error: unknown) => error instanceof Error && /abort\(|RuntimeError|OOM/.test(`${error.name} ${error.message}`);

export interface Re2Match {
  /** Code point index of the match in the searched text. */
  index: number;
  /** Named groups that took part in the match. */
  groups: Record<string, string>;
}

export class Re2Program {
  #wrapped: WrappedRE2 | null;
  readonly #generation: number;
  /** Group names by group number − 1 (undefined for unnamed groups). */
  readonly #names: (string | undefined)[];

  constructor(wrapped: WrappedRE2, names: (string | undefined)[]) {
    this.#wrapped = wrapped;
    this.#names = names;
    this.#generation = generation;
  }

  /** False once freed, or once the engine that compiled it was replaced. */
  get live(): boolean {
    return this.#wrapped !== null && this.#generation === generation;
  }

  /** The first match at or after code point `start`, or null. Throws EngineAborted if the heap ran out. */
  exec(text: string, start: number): Re2Match | null {
    if (!this.live) throw new EngineAborted();
    let result;
    try {
      result = this.#wrapped!.match(text, start, true);
    } catch (error) {
      if (!isAbort(error)) throw error;
      discardEngine();
      throw new EngineAborted();
    }
    if (result.index < 0) return null;
    const groups: Record<string, string> = {};
    result.groups.forEach((value, i) => {
      const name = this.#names[i];
      if (name !== undefined && value !== undefined) groups[name] = value;
    });
    return { index: result.index, groups };
  }

  /** Frees the compiled program (idempotent; a program of a discarded engine has nothing left to free). */
  free(): void {
    if (this.#wrapped && this.#generation === generation) this.#wrapped.delete();
    this.#wrapped = null;
  }
}

/** The WebAssembly heap ran out during a search; the engine was replaced and the program is stale. */
export class EngineAborted extends Error {
  constructor() {
    super('RE2 engine aborted (heap exhausted); reloaded');
  }
}

/** RE2's own text for programs that do not fit (also what a heap exhausted during compilation gives). */
export const PATTERN_TOO_LARGE = 'pattern too large - compile failed';

/**
 * Compiles `source` (RE2 syntax; `(?<name>…)` is read as `(?P<name>…)`, as newer RE2 versions do).
 * Returns the program, which the caller owns and must free, or RE2's error text.
 */
export function compileRe2(source: string): Re2Program | { error: string; aborted?: true } {
  let wrapped: WrappedRE2;
  try {
    wrapped = new (current().WrappedRE2)(namedGroupsAsPython(source), false, false, false);
  } catch (error) {
    if (!isAbort(error)) throw error;
    discardEngine();
    // The heap was full (of other programs or searches): this pattern may well fit in the fresh engine.
    return { error: PATTERN_TOO_LARGE, aborted: true };
  }
  if (!wrapped.ok()) {
    const error = wrapped.error();
    wrapped.delete();
    return { error };
  }
  const map = wrapped.capturingGroupNames();
  const keys = map.keys();
  const names: (string | undefined)[] = [];
  let duplicate = false;
  for (let i = 0; i < keys.size(); i++) {
    const number = keys.get(i);
    const name = map.get(number);
    if (names.includes(name)) duplicate = true;
    names[number - 1] = name;
  }
  keys.delete();
  map.delete();
  // This RE2 build accepts a name used twice; re2-wasm refused it with this text, which the reference
  // server's RE2 answers too in substance, so it stays.
  if (duplicate) {
    wrapped.delete();
    return { error: 'Duplicate capture group name' };
  }
  return new Re2Program(wrapped, names);
}

/** `(?<name>` → `(?P<name>` outside character classes and escapes (lookbehinds `(?<=`, `(?<!` stay). */
function namedGroupsAsPython(source: string): string {
  if (!source.includes('(?<')) return source;
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      out += c + (source[i + 1] ?? '');
      i++;
      continue;
    }
    if (inClass) inClass = c !== ']';
    else if (c === '[') {
      // `[]…]` and `[^]…]`: a `]` right after the opening is a member, not the end of the class.
      inClass = true;
      const skip = source[i + 1] === '^' ? (source[i + 2] === ']' ? 2 : 1) : source[i + 1] === ']' ? 1 : 0;
      out += source.slice(i, i + 1 + skip);
      i += skip;
      continue;
    } else if (source.startsWith('(?<', i) && source[i + 3] !== '=' && source[i + 3] !== '!') {
      out += '(?P<';
      i += 2;
      continue;
    }
    out += c;
  }
  return out;
}
