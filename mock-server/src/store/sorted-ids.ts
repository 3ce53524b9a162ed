/**
 * An ascending list of numbers in a growable typed array, for the store's indexes (store/indexes.ts).
 *
 * Message IDs only grow, so an insert is an append in practice and costs O(1) amortised; an insert in
 * the middle or a removal (a moved or deleted message, an unsubscription) shifts the tail, which is
 * still far cheaper than the scans it replaces. A typed array holds a number in 4 or 8 bytes with no
 * per-element object, which matters at one entry per message and recipient. Duplicates are allowed
 * (timestamps); `remove` takes away one occurrence.
 */
type Numbers = Int32Array | Float64Array;

export class SortedList {
  #items: Numbers;
  #size = 0;

  /**
   * `int32`: IDs, 4 bytes each; a value that does not fit (an imported realm's odd ID) turns the list
   * into `float64` rather than wrap around. `float64`: anything else (timestamps).
   */
  constructor(kind: 'int32' | 'float64' = 'int32') {
    this.#items = kind === 'int32' ? new Int32Array(4) : new Float64Array(4);
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
    let lo = 0;
    let hi = this.#size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#items[mid]! < value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index of the first element > `value`. */
  upperBound(value: number): number {
    let lo = 0;
    let hi = this.#size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#items[mid]! <= value) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  has(value: number): boolean {
    const i = this.lowerBound(value);
    return i < this.#size && this.#items[i] === value;
  }

  insert(value: number): void {
    if (this.#items instanceof Int32Array && (value | 0) !== value) this.#resize(this.#items.length, Float64Array);
    if (this.#size === this.#items.length) this.#resize(this.#items.length * 2);
    const at = this.#size === 0 || this.#items[this.#size - 1]! <= value ? this.#size : this.upperBound(value);
    if (at < this.#size) this.#items.copyWithin(at + 1, at, this.#size);
    this.#items[at] = value;
    this.#size++;
  }

  /** Removes one occurrence; false when `value` is absent. */
  remove(value: number): boolean {
    const at = this.lowerBound(value);
    if (at >= this.#size || this.#items[at] !== value) return false;
    this.#items.copyWithin(at, at + 1, this.#size);
    this.#size--;
    // Give memory back once a list has shrunk well below its capacity.
    if (this.#items.length > 16 && this.#size < this.#items.length / 4) this.#resize(this.#items.length / 2);
    return true;
  }

  /** How many elements lie in (`after`, `upTo`]. */
  countIn(after: number, upTo: number): number {
    return Math.max(0, this.upperBound(upTo) - this.upperBound(after));
  }

  toArray(): number[] {
    return Array.from(this.#items.subarray(0, this.#size));
  }

  *[Symbol.iterator](): IterableIterator<number> {
    for (let i = 0; i < this.#size; i++) yield this.#items[i]!;
  }

  /** Newest first: the order in which "the latest one that …" questions are answered. */
  *descending(): IterableIterator<number> {
    for (let i = this.#size - 1; i >= 0; i--) yield this.#items[i]!;
  }

  #resize(
    capacity: number,
    kind: Int32ArrayConstructor | Float64ArrayConstructor = this.#items instanceof Int32Array ? Int32Array : Float64Array,
  ): void {
    const next = new kind(capacity);
    next.set(this.#items.subarray(0, this.#size));
    this.#items = next;
  }
}
