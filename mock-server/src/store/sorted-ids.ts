/**
 * An ascending list of numbers for the store's indexes (store/indexes.ts).
 *
 * Message IDs only grow, so an insert is an append in practice and costs O(1) amortised; an insert in
 * the middle or a removal (a moved or deleted message, an unsubscription) shifts the tail, which is
 * still far cheaper than the scans it replaces. Duplicates are allowed (timestamps); `remove` takes
 * away one occurrence.
 *
 * Storage follows size: a short list (most topics, conversations, addresses) is a plain array, which
 * V8 allocates cheaply; past `SMALL` elements it moves to a growable typed array, 4 bytes per ID or 8
 * per timestamp with no per-element overhead, which matters at one entry per message and recipient.
 */
const SMALL = 32;

/**
 * Binary search: the first index in [0, size) whose element is not `before` (`size` when every one is),
 * for any list ordered so that the elements `before` holds for come first.
 */
export function partitionPoint(size: number, before: (i: number) => boolean): number {
  let lo = 0;
  let hi = size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

type Numbers = number[] | Int32Array | Float64Array;

export class SortedList {
  #items: Numbers = [];
  /** Elements in use (a typed array's length is its capacity). */
  #size = 0;
  #float: boolean;

  /**
   * `int32`: IDs; a value that does not fit 32 bits (an imported realm's odd ID) makes the list
   * `float64` rather than wrap around. `float64`: anything else (timestamps).
   */
  constructor(kind: 'int32' | 'float64' = 'int32') {
    this.#float = kind === 'float64';
  }

  get size(): number {
    return this.#size;
  }

  get first(): number | undefined {
    return this.#size > 0 ? this.#items[0] : undefined;
  }

  get last(): number | undefined {
    return this.#size > 0 ? this.#items[this.#size - 1] : undefined;
  }

  at(i: number): number {
    return this.#items[i]!;
  }

  /** Index of the first element ≥ `value` (`size` when there is none). */
  lowerBound(value: number): number {
    const items = this.#items;
    return partitionPoint(this.#size, (i) => items[i]! < value);
  }

  /** Index of the first element > `value`. */
  upperBound(value: number): number {
    const items = this.#items;
    return partitionPoint(this.#size, (i) => items[i]! <= value);
  }

  has(value: number): boolean {
    const i = this.lowerBound(value);
    return i < this.#size && this.#items[i] === value;
  }

  insert(value: number): void {
    if (!this.#float && (value | 0) !== value) {
      this.#float = true;
      if (this.#items instanceof Int32Array) this.#resize(this.#items.length);
    }
    const at = this.#size === 0 || this.#items[this.#size - 1]! <= value ? this.#size : this.upperBound(value);
    const items = this.#items;
    if (Array.isArray(items)) {
      if (at === this.#size) items.push(value);
      else items.splice(at, 0, value);
      this.#size++;
      if (this.#size >= SMALL) this.#resize(this.#size * 2);
      return;
    }
    if (this.#size === items.length) this.#resize(items.length * 2);
    if (at < this.#size) this.#items.copyWithin(at + 1, at, this.#size);
    this.#items[at] = value;
    this.#size++;
  }

  /** Removes one occurrence; false when `value` is absent. */
  remove(value: number): boolean {
    const at = this.lowerBound(value);
    if (at >= this.#size || this.#items[at] !== value) return false;
    const items = this.#items;
    if (Array.isArray(items)) items.splice(at, 1);
    else items.copyWithin(at, at + 1, this.#size);
    this.#size--;
    // Give memory back once a typed list has shrunk well below its capacity.
    if (!Array.isArray(items) && items.length > 4 * SMALL && this.#size < items.length / 4) this.#resize(items.length / 2);
    return true;
  }

  /** How many elements lie in (`after`, `upTo`]. */
  countIn(after: number, upTo: number): number {
    return Math.max(0, this.upperBound(upTo) - this.upperBound(after));
  }

  toArray(): number[] {
    const items = this.#items;
    return Array.isArray(items) ? items.slice() : Array.from(items.subarray(0, this.#size));
  }

  *[Symbol.iterator](): IterableIterator<number> {
    for (let i = 0; i < this.#size; i++) yield this.#items[i]!;
  }

  /** Newest first: the order in which "the latest one that …" questions are answered. */
  *descending(): IterableIterator<number> {
    for (let i = this.#size - 1; i >= 0; i--) yield this.#items[i]!;
  }

  /** Moves the elements to a typed array of `capacity`, of the list's kind. */
  #resize(capacity: number): void {
    const next = this.#float ? new Float64Array(capacity) : new Int32Array(capacity);
    const items = this.#items;
    next.set(Array.isArray(items) ? items : items.subarray(0, this.#size));
    this.#items = next;
  }
}
